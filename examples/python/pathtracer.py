#!/usr/bin/env python3
# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A small path tracer written in Python, run under every scheduler.

One coroutine per pixel traces `spp` paths through a scene of spheres with
four materials: diffuse (Lambert), rough metal (a conductor with Schlick's
Fresnel, reflection perturbed by its roughness), glass (a dielectric that
reflects or refracts by Schlick's Fresnel) and an emissive light; a sky
lights what escapes. Each bounce suspends before the closest-hit search
("trace") and before the material is sampled ("shade"), where it promises
the material as a key for the wavefront to sort by. The spheres live in a
buffer of 8 floats each: center, radius, albedo, material.

    python3 examples/python/pathtracer.py [--width 96 --height 64 --spp 4]
        [--png pathtracer.png]

Every scheduler's image is checked against the mega-kernel's (check=True);
the times are lavapipe's or your GPU's.
"""

import argparse

import numpy as np

import corogpu
from corogpu import (Buffer, boolean, f32, float3, i32, u32, cross, dot,
                     normalize)

DIFFUSE, METAL, GLASS, LIGHT = 0, 1, 2, 3
PI = 3.14159265
FAR = 1e30


@corogpu.func
def next_random(state: u32) -> u32:
    """The next state of a PCG-style hash."""
    state = state * u32(747796405) + u32(2891336453)
    word = ((state >> ((state >> u32(28)) + u32(4))) ^ state) * u32(277803737)
    return (word >> u32(22)) ^ word


@corogpu.func
def to_unit(state: u32) -> f32:
    """A float in [0, 1) from a random state."""
    return f32(state >> u32(8)) * (1.0 / 16777216.0)


@corogpu.func
def hit_sphere(spheres: Buffer[f32], s: i32, origin: float3,
               direction: float3) -> f32:
    """The distance along the ray to sphere s, or FAR."""
    base = s * 8
    center = float3(spheres[base], spheres[base + 1], spheres[base + 2])
    radius = spheres[base + 3]
    oc = origin - center
    b = dot(oc, direction)
    c = dot(oc, oc) - radius * radius
    disc = b * b - c
    t = FAR
    if disc > 0.0:
        root = corogpu.sqrt(disc)
        near = -b - root
        far = -b + root
        if near > 1e-3:
            t = near
        elif far > 1e-3:
            t = far
    return t


@corogpu.func
def schlick(cosine: f32, f0: f32) -> f32:
    m = 1.0 - cosine
    return f0 + (1.0 - f0) * m * m * m * m * m


@corogpu.func
def around(normal: float3, u1: f32, u2: f32) -> float3:
    """A cosine-weighted direction about `normal`."""
    r = corogpu.sqrt(u1)
    phi = 2.0 * PI * u2
    helper = float3(1.0, 0.0, 0.0)
    if corogpu.abs(normal.x) > 0.9:
        helper = float3(0.0, 1.0, 0.0)
    tangent = normalize(cross(helper, normal))
    bitangent = cross(normal, tangent)
    z = corogpu.sqrt(corogpu.max(0.0, 1.0 - u1))
    return normalize(tangent * (r * corogpu.cos(phi))
                     + bitangent * (r * corogpu.sin(phi)) + normal * z)


@corogpu.coroutine
def render(width: i32, height: i32, spp: i32, depth: i32, count: i32,
           spheres: Buffer[f32], image: Buffer[f32]):
    pixel = corogpu.id()
    x = i32(corogpu.id(0))
    y = i32(corogpu.id(1))
    rng = next_random(u32(pixel) * u32(9781) + u32(1))
    total = float3(0.0)
    for sample in range(spp):
        rng = next_random(rng)
        jx = to_unit(rng)
        rng = next_random(rng)
        jy = to_unit(rng)
        # A pinhole camera at (0, 1, 4) looking down -z.
        u = ((f32(x) + jx) / f32(width) * 2.0 - 1.0) * f32(width) / f32(height)
        v = 1.0 - (f32(y) + jy) / f32(height) * 2.0
        origin = float3(0.0, 1.0, 4.0)
        direction = normalize(float3(u * 0.6, v * 0.6, -1.0))
        throughput = float3(1.0)
        radiance = float3(0.0)
        bounce = 0
        while bounce < depth:
            corogpu.suspend("trace")
            closest = FAR
            hit = -1
            for s in range(count):
                t = hit_sphere(spheres, s, origin, direction)
                if t < closest:
                    closest = t
                    hit = s
            if hit < 0:
                # The sky: brighter toward the zenith.
                sky = 0.5 * (direction.y + 1.0)
                radiance += throughput * (float3(1.0) * (1.0 - sky)
                                          + float3(0.5, 0.7, 1.0) * sky) * 0.6
                break
            base = hit * 8
            material = i32(spheres[base + 7])
            albedo = float3(spheres[base + 4], spheres[base + 5],
                            spheres[base + 6])
            point = origin + direction * closest
            center = float3(spheres[base], spheres[base + 1],
                            spheres[base + 2])
            normal = normalize(point - center)
            corogpu.promise("material", material)
            corogpu.suspend("shade")
            if material == LIGHT:
                radiance += throughput * albedo
                break
            rng = next_random(rng)
            u1 = to_unit(rng)
            rng = next_random(rng)
            u2 = to_unit(rng)
            facing = dot(direction, normal) < 0.0
            if material == DIFFUSE:
                if not facing:
                    normal = -normal
                direction = around(normal, u1, u2)
                throughput = throughput * albedo
            elif material == METAL:
                if not facing:
                    normal = -normal
                cosine = -dot(direction, normal)
                reflected = direction + normal * (2.0 * cosine)
                fuzz = around(normal, u1, u2) * 0.15
                direction = normalize(reflected + fuzz)
                throughput = throughput * (albedo + (float3(1.0) - albedo)
                                           * schlick(cosine, 0.0))
            else:
                # Glass, index of refraction 1.5.
                eta = 1.0 / 1.5
                oriented = normal
                if not facing:
                    eta = 1.5
                    oriented = -normal
                cosine = corogpu.min(-dot(direction, oriented), 1.0)
                sine2 = 1.0 - cosine * cosine
                reflect = eta * eta * sine2 > 1.0 or \
                    u1 < schlick(cosine, 0.04)
                if reflect:
                    direction = direction + oriented * (2.0 * cosine)
                else:
                    k = 1.0 - eta * eta * sine2
                    direction = normalize(direction * eta + oriented * (
                        eta * cosine - corogpu.sqrt(k)))
                throughput = throughput * albedo
            origin = point + direction * 1e-3
            bounce += 1
        total += radiance
    color = total / f32(spp)
    image[pixel * 3] = color.x
    image[pixel * 3 + 1] = color.y
    image[pixel * 3 + 2] = color.z


def scene():
    """Spheres: center (3), radius, albedo (3), material."""
    spheres = [
        ((0.0, -1000.0, 0.0), 1000.0, (0.55, 0.55, 0.5), DIFFUSE),
        ((-1.3, 0.6, 0.0), 0.6, (0.9, 0.3, 0.25), DIFFUSE),
        ((0.0, 0.7, -0.4), 0.7, (0.95, 0.8, 0.45), METAL),
        ((1.3, 0.55, 0.2), 0.55, (1.0, 1.0, 1.0), GLASS),
        ((0.6, 0.25, 1.2), 0.25, (0.3, 0.5, 0.9), DIFFUSE),
        ((-0.5, 3.2, 0.5), 0.8, (6.0, 5.5, 4.5), LIGHT),
        ((-0.5, 0.2, 1.3), 0.2, (0.8, 0.8, 0.85), METAL),
    ]
    data = []
    for center, radius, albedo, material in spheres:
        data += [*center, radius, *albedo, float(material)]
    return np.array(data, np.float32), len(spheres)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=96)
    parser.add_argument("--height", type=int, default=64)
    parser.add_argument("--spp", type=int, default=4)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--schedulers", default=",".join(corogpu.SCHEDULERS))
    parser.add_argument("--png", help="save the image here (matplotlib)")
    args = parser.parse_args()

    spheres, count = scene()
    grid = (args.width, args.height)
    image = np.zeros(args.width * args.height * 3, np.float32)
    for scheduler in args.schedulers.split(","):
        run = render.run(grid, args.width, args.height, args.spp, args.depth,
                         count, spheres, image, scheduler=scheduler,
                         check=scheduler != "megakernel")
        print(f"{scheduler}: GPU {run.timing['gpu']:.1f} ms"
              + (", matches the mega-kernel" if run.checked else ""))
    print(f"mean radiance {image.mean():.4f}")
    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        rgb = np.clip(image.reshape(args.height, args.width, 3), 0, 1)
        plt.imsave(args.png, rgb ** (1 / 2.2))
        print(f"wrote {args.png}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Builds the triangle scenes of the path tracer and their BVHs (standard
library only) and writes them as raw little-endian buffers for coro-run.

    make_scene.py SCENE OUTDIR [--width=W --height=H --spp=S
                                --max-depth=D --rr-depth=R]

SCENE is `cornell` (the Cornell box: 5 walls, a ceiling area light and two
boxes, 36 triangles) or `showcase` (a heavier scene: a back wall and a rippled,
finely tessellated floor, a glass sphere, a gold and a rough copper sphere,
a diffuse sphere, a grid of small boxes, two glass/metal boxes and two area
lights: 16,058 triangles with diffuse, conductor, dielectric and
emissive materials).

Writes into OUTDIR (see pathtracer.mlir for the layouts):
  SCENE.scene.f32   camera and sky: 16 floats
  SCENE.tris.f32    per triangle (BVH order) v0, e1 = v1 - v0, e2 = v2 - v0,
                    n0, n1, n2 (vertex normals): 18 floats
  SCENE.trimat.i32  per triangle its material index
  SCENE.mats.f32    per material: type (0 diffuse, 1 conductor,
                    2 dielectric, 3 emissive), albedo RGB, emission RGB,
                    parameter (conductor roughness, dielectric IOR): 8 floats
  SCENE.nodesf.f32  per BVH node its bounds: min xyz, max xyz: 6 floats
  SCENE.nodesi.i32  per BVH node: (first triangle, count) for a leaf,
                    (right child, 0) for an inner node, whose left child is
                    the next node (depth-first order): 2 ints
  SCENE.lights.i32  the indices of the emissive triangles
  SCENE.args        the coro-run arguments (one per line) for the given
                    image size and settings, image buffer included
  SCENE.json        the scene's statistics and its --buffer specs
and prints the full coro-run command line.
"""

import argparse
import json
import math
import os
import struct
import sys

DIFFUSE, CONDUCTOR, DIELECTRIC, EMISSIVE = 0, 1, 2, 3


# ---------------------------------------------------------------- vectors

def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def mul(a, s):
    return (a[0] * s, a[1] * s, a[2] * s)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def normalize(a):
    length = math.sqrt(dot(a, a))
    return mul(a, 1.0 / length) if length > 0 else a


# ---------------------------------------------------------------- scenes

class Scene:
    def __init__(self):
        self.materials = []   # (type, albedo, emission, parameter)
        self.triangles = []   # (v0, v1, v2, n0, n1, n2, material)
        self.camera = None
        self.sky = (0.0, 0.0, 0.0)

    def material(self, kind, albedo=(0, 0, 0), emission=(0, 0, 0),
                 param=0.0):
        self.materials.append((kind, albedo, emission, param))
        return len(self.materials) - 1

    def tri(self, a, b, c, mat, na=None, nb=None, nc=None):
        if na is None:
            n = normalize(cross(sub(b, a), sub(c, a)))
            na = nb = nc = n
        self.triangles.append((a, b, c, na, nb, nc, mat))

    def quad(self, a, b, c, d, mat):
        """The quad a b c d (counter-clockwise seen from its front)."""
        self.tri(a, b, c, mat)
        self.tri(a, c, d, mat)

    def box(self, top, height, mat):
        """A box whose top face is the quad `top` (4 points at the same y,
        counter-clockwise seen from above), extruded down by `height`."""
        bottom = [(p[0], p[1] - height, p[2]) for p in top]
        self.quad(top[0], top[1], top[2], top[3], mat)
        self.quad(bottom[3], bottom[2], bottom[1], bottom[0], mat)
        for i in range(4):
            j = (i + 1) % 4
            self.quad(top[j], top[i], bottom[i], bottom[j], mat)

    def aabox(self, lo, hi, mat):
        top = [(lo[0], hi[1], lo[2]), (lo[0], hi[1], hi[2]),
               (hi[0], hi[1], hi[2]), (hi[0], hi[1], lo[2])]
        self.box(top, hi[1] - lo[1], mat)

    def sphere(self, center, radius, mat, rings=24, segments=48):
        """A UV sphere with smooth vertex normals."""
        def point(i, j):
            theta = math.pi * i / rings
            phi = 2.0 * math.pi * j / segments
            n = (math.sin(theta) * math.cos(phi), math.cos(theta),
                 math.sin(theta) * math.sin(phi))
            return add(center, mul(n, radius)), n
        for i in range(rings):
            for j in range(segments):
                p00, n00 = point(i, j)
                p01, n01 = point(i, j + 1)
                p10, n10 = point(i + 1, j)
                p11, n11 = point(i + 1, j + 1)
                # Outward facing: counter-clockwise seen from outside.
                if i > 0:
                    self.tri(p00, p01, p10, mat, n00, n01, n10)
                if i < rings - 1:
                    self.tri(p01, p11, p10, mat, n01, n11, n10)

    def look_at(self, eye, target, up, vfov_degrees):
        forward = normalize(sub(target, eye))
        right = normalize(cross(forward, up))
        true_up = cross(right, forward)
        self.camera = (eye, forward, right, true_up,
                       math.tan(math.radians(vfov_degrees) / 2.0))


def cornell():
    """The Cornell box (the measured data of the Cornell Program of Computer
    Graphics, in millimetres, scaled by 1/555)."""
    s = Scene()
    white = s.material(DIFFUSE, (0.73, 0.73, 0.73))
    red = s.material(DIFFUSE, (0.65, 0.05, 0.05))
    green = s.material(DIFFUSE, (0.12, 0.45, 0.15))
    light = s.material(EMISSIVE, emission=(17.0, 12.0, 4.0))
    k = 1.0 / 555.0

    def p(x, y, z):
        return (x * k, y * k, z * k)
    # Floor, ceiling, back wall (facing the inside of the box).
    s.quad(p(552.8, 0, 0), p(0, 0, 0), p(0, 0, 559.2), p(549.6, 0, 559.2),
           white)
    s.quad(p(556, 548.8, 0), p(556, 548.8, 559.2), p(0, 548.8, 559.2),
           p(0, 548.8, 0), white)
    s.quad(p(549.6, 0, 559.2), p(0, 0, 559.2), p(0, 548.8, 559.2),
           p(556, 548.8, 559.2), white)
    # The red wall at x = 556 (on the left as seen from the camera) and the
    # green one at x = 0.
    s.quad(p(552.8, 0, 0), p(549.6, 0, 559.2), p(556, 548.8, 559.2),
           p(556, 548.8, 0), red)
    s.quad(p(0, 0, 559.2), p(0, 0, 0), p(0, 548.8, 0), p(0, 548.8, 559.2),
           green)
    # The light, just below the ceiling, facing down.
    s.quad(p(343, 548.7, 227), p(343, 548.7, 332), p(213, 548.7, 332),
           p(213, 548.7, 227), light)
    # The short and the tall block.
    s.box([p(130, 165, 65), p(82, 165, 225), p(240, 165, 272),
           p(290, 165, 114)], 165 * k, white)
    s.box([p(423, 330, 247), p(265, 330, 296), p(314, 330, 456),
           p(472, 330, 406)], 330 * k, white)
    s.look_at(p(278, 273, -800), p(278, 273, 0), (0, 1, 0), 39.3)
    return s


def showcase():
    """A heavier scene with every material type: a rippled floor of 8,192
    triangles, four tessellated spheres (glass, gold, rough copper, diffuse
    blue), a 7 x 3 grid of small diffuse boxes, a glass and a steel box, a
    back wall, and two area lights (one of them seen directly)."""
    s = Scene()
    floor = s.material(DIFFUSE, (0.7, 0.68, 0.62))
    wall = s.material(DIFFUSE, (0.55, 0.6, 0.7))
    blue = s.material(DIFFUSE, (0.15, 0.3, 0.8))
    glass = s.material(DIELECTRIC, (1.0, 1.0, 1.0), param=1.5)
    tinted = s.material(DIELECTRIC, (0.7, 0.95, 0.8), param=1.5)
    gold = s.material(CONDUCTOR, (1.0, 0.78, 0.34), param=0.02)
    copper = s.material(CONDUCTOR, (0.95, 0.64, 0.54), param=0.35)
    steel = s.material(CONDUCTOR, (0.8, 0.8, 0.82), param=0.1)
    warm = s.material(EMISSIVE, emission=(5.0, 4.2, 3.0))
    cool = s.material(EMISSIVE, emission=(0.5, 0.8, 2.0))
    box_colors = [s.material(DIFFUSE, c) for c in (
        (0.8, 0.2, 0.15), (0.9, 0.7, 0.2), (0.2, 0.6, 0.25),
        (0.75, 0.75, 0.75))]
    # The floor: a 64 x 64 grid over [-4, 4] x [-4, 4], gently rippled.
    n, size = 64, 8.0

    def height(x, z):
        return 0.04 * math.sin(3.0 * x) * math.cos(2.5 * z)

    def floor_point(i, j):
        x = -size / 2 + size * i / n
        z = -size / 2 + size * j / n
        return (x, height(x, z), z)
    for i in range(n):
        for j in range(n):
            a, b = floor_point(i, j), floor_point(i + 1, j)
            c, d = floor_point(i + 1, j + 1), floor_point(i, j + 1)
            s.tri(a, c, b, floor)
            s.tri(a, d, c, floor)
    # A back wall.
    s.quad((-4, 0, -2.5), (4, 0, -2.5), (4, 4, -2.5), (-4, 4, -2.5), wall)
    # Spheres.
    s.sphere((-1.35, 0.6, 0.3), 0.6, glass)
    s.sphere((0.0, 0.55, -0.6), 0.55, gold)
    s.sphere((1.35, 0.5, 0.2), 0.5, copper)
    s.sphere((0.5, 0.3, 1.2), 0.3, blue, rings=16, segments=32)
    # A grid of small boxes behind the spheres.
    for i in range(7):
        for j in range(3):
            x = -2.1 + 0.7 * i
            z = -1.6 - 0.3 * j
            h = 0.15 + 0.25 * ((i * 7 + j * 3) % 5) / 4.0
            s.aabox((x - 0.12, 0.0, z - 0.1), (x + 0.12, h, z + 0.1),
                    box_colors[(i + j) % len(box_colors)])
    # A glass box and a steel box in front.
    s.box([(-0.55, 0.35, 1.0), (-0.75, 0.35, 1.45), (-0.3, 0.35, 1.65),
           (-0.1, 0.35, 1.2)], 0.35, tinted)
    s.aabox((1.0, 0.0, 1.1), (1.4, 0.2, 1.5), steel)
    # Lights: a big warm one above, facing down, and a cool one on the back
    # wall, facing the camera.
    s.quad((-1.5, 3.5, -1.0), (1.5, 3.5, -1.0), (1.5, 3.5, 1.0),
           (-1.5, 3.5, 1.0), warm)
    s.quad((-3.0, 0.8, -2.45), (-2.2, 0.8, -2.45), (-2.2, 2.8, -2.45),
           (-3.0, 2.8, -2.45), cool)
    s.look_at((0.0, 2.1, 4.6), (0.0, 0.4, -0.2), (0, 1, 0), 40.0)
    s.sky = (0.03, 0.04, 0.06)
    return s


SCENES = {"cornell": cornell, "showcase": showcase}


# ---------------------------------------------------------------- BVH

LEAF_SIZE = 4
BINS = 16


def bounds_of(boxes):
    lo = [min(b[0][k] for b in boxes) for k in range(3)]
    hi = [max(b[1][k] for b in boxes) for k in range(3)]
    return lo, hi


def grow(acc, boxes):
    """`acc` (lo, hi, or None) grown by the bounds of `boxes`."""
    if not boxes:
        return acc
    lo, hi = bounds_of(boxes)
    if acc is None:
        return lo, hi
    return ([min(acc[0][k], lo[k]) for k in range(3)],
            [max(acc[1][k], hi[k]) for k in range(3)])


def area(lo, hi):
    d = [max(hi[k] - lo[k], 0.0) for k in range(3)]
    return 2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0])


def build_bvh(triangles):
    """A binned-SAH BVH, flattened depth first: returns the node list
    [(lo, hi, a, count)] (see the module docstring) and the triangle
    order."""
    boxes, centroids = [], []
    for t in triangles:
        lo = tuple(min(t[0][k], t[1][k], t[2][k]) for k in range(3))
        hi = tuple(max(t[0][k], t[1][k], t[2][k]) for k in range(3))
        boxes.append((lo, hi))
        centroids.append(tuple((lo[k] + hi[k]) * 0.5 for k in range(3)))
    nodes, order = [], []

    def split(items):
        """The best SAH split of `items` (triangle indices) or None."""
        clo = [min(centroids[i][k] for i in items) for k in range(3)]
        chi = [max(centroids[i][k] for i in items) for k in range(3)]
        best = None
        for axis in range(3):
            extent = chi[axis] - clo[axis]
            if extent <= 1e-9:
                continue
            bins = [[] for _ in range(BINS)]
            for i in items:
                b = int(BINS * (centroids[i][axis] - clo[axis]) / extent)
                bins[min(b, BINS - 1)].append(i)
            # Sweep: cost of splitting after bin b.
            left_areas, left_counts, acc = [], [], None
            count = 0
            for b in range(BINS - 1):
                acc = grow(acc, [boxes[i] for i in bins[b]])
                count += len(bins[b])
                left_areas.append(area(*acc) if acc else 0.0)
                left_counts.append(count)
            acc, count = None, 0
            for b in range(BINS - 1, 0, -1):
                acc = grow(acc, [boxes[i] for i in bins[b]])
                count += len(bins[b])
                lc = left_counts[b - 1]
                if lc == 0 or count == 0:
                    continue
                cost = left_areas[b - 1] * lc + area(*acc) * count
                if best is None or cost < best[0]:
                    best = (cost, axis, b, clo[axis], extent)
        if best is None:
            return None
        _, axis, b, origin, extent = best

        def side(i):
            k = int(BINS * (centroids[i][axis] - origin) / extent)
            return min(k, BINS - 1) < b
        left = [i for i in items if side(i)]
        right = [i for i in items if not side(i)]
        return best[0], left, right

    def build(items):
        lo, hi = bounds_of([boxes[i] for i in items])
        index = len(nodes)
        nodes.append(None)
        result = split(items) if len(items) > LEAF_SIZE else None
        # Split only when the SAH says it pays (traversal cost 1 relative to
        # a triangle test), or when the leaf would be too big.
        if result is not None and (len(items) > 4 * LEAF_SIZE or
                                   result[0] / area(lo, hi) + 1.0 <
                                   len(items)):
            _, left, right = result
            build(left)
            right_index = build(right)
            nodes[index] = (lo, hi, right_index, 0)
        else:
            nodes[index] = (lo, hi, len(order), len(items))
            order.extend(items)
        return index

    sys.setrecursionlimit(10000)
    build(list(range(len(triangles))))
    return nodes, order


def bvh_depth(nodes, index=0):
    if nodes[index][3] > 0:
        return 1
    return 1 + max(bvh_depth(nodes, index + 1),
                   bvh_depth(nodes, nodes[index][2]))


# ---------------------------------------------------------------- output

def write(path, fmt, values):
    with open(path, "wb") as out:
        out.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def coro_run_args(prefix, counts, options):
    w, h = options.width, options.height
    args = ["--grid=%d" % (w * h)]
    args += ["--arg=%d" % v for v in (w, h, options.spp, options.max_depth,
                                       options.rr_depth, counts["lights"])]
    for name, kind in (("scene", "f32"), ("tris", "f32"), ("trimat", "i32"),
                       ("mats", "f32"), ("nodesf", "f32"),
                       ("nodesi", "i32"), ("lights", "i32")):
        args.append("--buffer=%s:%d:file=%s.%s.%s" % (
            kind, counts[name], prefix, name, kind))
    args.append("--buffer=f32:%d:zeros" % (3 * w * h))
    return args


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("scene", choices=sorted(SCENES))
    parser.add_argument("outdir")
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--height", type=int, default=128)
    parser.add_argument("--spp", type=int, default=16)
    parser.add_argument("--max-depth", type=int, default=10)
    parser.add_argument("--rr-depth", type=int, default=2)
    parser.add_argument("--quiet", action="store_true")
    options = parser.parse_args()

    scene = SCENES[options.scene]()
    nodes, order = build_bvh(scene.triangles)
    depth = bvh_depth(nodes)
    if depth > 64:
        sys.exit("make_scene.py: BVH depth %d exceeds the traversal stack"
                 % depth)
    triangles = [scene.triangles[i] for i in order]

    os.makedirs(options.outdir, exist_ok=True)
    prefix = os.path.join(options.outdir, options.scene)
    eye, forward, right, up, tan_half = scene.camera
    write(prefix + ".scene.f32", "f",
          list(eye) + list(forward) + list(right) + list(up) + [tan_half] +
          list(scene.sky))
    tris, trimat, lights = [], [], []
    for index, (a, b, c, na, nb, nc, mat) in enumerate(triangles):
        tris += list(a) + list(sub(b, a)) + list(sub(c, a))
        tris += list(na) + list(nb) + list(nc)
        trimat.append(mat)
        if scene.materials[mat][0] == EMISSIVE:
            lights.append(index)
    mats = []
    for kind, albedo, emission, param in scene.materials:
        mats += [float(kind)] + list(albedo) + list(emission) + [param]
    nodesf, nodesi = [], []
    for lo, hi, a, count in nodes:
        nodesf += list(lo) + list(hi)
        nodesi += [a, count]
    write(prefix + ".tris.f32", "f", tris)
    write(prefix + ".trimat.i32", "i", trimat)
    write(prefix + ".mats.f32", "f", mats)
    write(prefix + ".nodesf.f32", "f", nodesf)
    write(prefix + ".nodesi.i32", "i", nodesi)
    write(prefix + ".lights.i32", "i", lights)
    counts = {"scene": 16, "tris": len(tris), "trimat": len(trimat),
              "mats": len(mats), "nodesf": len(nodesf),
              "nodesi": len(nodesi), "lights": len(lights)}
    args = coro_run_args(prefix, counts, options)
    # The size-independent part, for tools (benchmarks/schedulers).
    with open(prefix + ".json", "w") as out:
        json.dump({"scene": options.scene, "triangles": len(triangles),
                   "materials": len(scene.materials), "nodes": len(nodes),
                   "bvh_depth": depth, "num_lights": len(lights),
                   "buffers": [a[len("--buffer="):] for a in args
                               if "file=" in a]}, out, indent=1)
    with open(prefix + ".args", "w") as out:
        out.write("\n".join(args) + "\n")
    if not options.quiet:
        print("make_scene.py: %s: %d triangles, %d materials, %d BVH nodes "
              "(depth %d), %d emissive triangles" % (
                  options.scene, len(triangles), len(scene.materials),
                  len(nodes), depth, len(lights)))
        print("build/bin/coro-run benchmarks/pathtracer/pathtracer.mlir "
              "--coro=path_trace " + " ".join(args))


if __name__ == "__main__":
    main()

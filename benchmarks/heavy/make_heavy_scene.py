#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Builds the shading-heavy scene of heavy.mlir (standard library only): a
rippled, tiled ground, a grid of 20 displaced objects (spheres, tori,
superellipsoids, vases) and a two-wall backdrop, each with its own
material (25 with the two area lights), under a sky; procedural textures
with full mip chains; the BVH (the binned SAH builder of
benchmarks/pathtracer/make_scene.py, imported). Writes raw little-endian
buffers for coro-run. (One file over 700 lines: the shapes, materials and
textures of the one scene, each read beside the layout heavy.mlir reads.)

    make_heavy_scene.py OUTDIR [--detail=small|full] [--width=W --height=H
                        --spp=S --max-depth=D --rr-depth=R]

--detail full (the default): about 220,000 triangles and six 1024 x 1024
textures; --detail small: about 3,100 triangles and 32 x 32 textures, for
tests. --texture-size and --resolution override the preset.

Writes into OUTDIR (heavy.mlir's header documents the layouts):
  heavy.scene.f32    camera and sky: 19 floats
  heavy.tris.f32     per triangle (BVH order): v0, e1, e2: 9 floats
  heavy.attrs.f32    per triangle: vertex normals, vertex (u, v): 15 floats
  heavy.trimat.i32   per triangle its material index
  heavy.mats.f32     per material: 32 floats
  heavy.nodesf.f32   per BVH node its bounds: 6 floats
  heavy.nodesi.i32   per BVH node: (first, count) or (right child, 0)
  heavy.lights.i32   the emissive triangles
  heavy.texinfo.i32  per texture: log2 size, levels, level offsets: 16 ints
  heavy.texels.i32   RGBA8 texels, one per word, every texture's mip chain
  heavy.args         the coro-run arguments (one per line): the grid is
                     width x height x spp instances, the last buffer the
                     samples (3 floats per instance)
  heavy.json         statistics and the scene's --buffer specs
and prints the coro-run command line.
"""

import argparse
import array
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "pathtracer"))
from make_scene import add, build_bvh, bvh_depth, cross, dot, mul, sub  # noqa: E402,E501

DIFFUSE, CONDUCTOR, DIELECTRIC, PLASTIC, DISNEY, COATED, EMISSIVE = range(7)
MATERIAL_FLOATS = 32
TEXINFO_INTS = 16
STACK_DEPTH = 64  # heavy.mlir's traversal stack
PRESETS = {"small": {"resolution": 6, "ground": 16, "texture_size": 32},
           "full": {"resolution": 42, "ground": 200, "texture_size": 1024}}

# Complex indices of refraction (eta, k) at about 650, 550 and 450 nm.
METALS = {
    "gold": ((0.143, 0.374, 1.442), (3.983, 2.386, 1.603)),
    "copper": ((0.200, 0.924, 1.102), (3.912, 2.452, 2.142)),
    "aluminium": ((1.657, 0.880, 0.521), (9.224, 6.270, 4.837)),
    "silver": ((0.155, 0.117, 0.138), (4.828, 3.122, 2.147)),
    "iron": ((2.910, 2.950, 2.580), (3.080, 2.930, 2.600)),
}


# ---------------------------------------------------------------- vectors
# (sub, add, mul, cross and dot come from make_scene.)

def normalize(a):
    """a / |a|; up for a zero vector (a degenerate displaced normal), where
    make_scene's keeps it zero."""
    length = math.sqrt(dot(a, a))
    return mul(a, 1.0 / length) if length > 0 else (0.0, 1.0, 0.0)


# ---------------------------------------------------------------- materials

def material(kind, colour=(1, 1, 1), emission=(0, 0, 0), metal=None,
             rough=0.5, ior=1.5, metallic=0.0, specular=0.5, sheen=0.0,
             coat=0.0, coat_param=0.0, absorption=0.0, texture=-1,
             uv_scale=1.0, noise_freq=0.0, octaves=0, noise_weight=0.0,
             noise_colour=(0, 0, 0), noise_rough=0.0, bump=0.0,
             anisotropy=0.0):
    """The 32 floats of a material (heavy.mlir's header has the layout)."""
    eta, k = METALS[metal] if metal else ((0, 0, 0), (0, 0, 0))
    values = ([float(kind)] + list(colour) + list(emission) + list(eta) +
              list(k) + [rough, ior, metallic, specular, sheen, coat,
                         coat_param, absorption, float(texture), uv_scale,
                         noise_freq, float(octaves), noise_weight] +
              list(noise_colour) + [noise_rough, bump, anisotropy])
    assert len(values) == MATERIAL_FLOATS
    return values


# Textures, by index into the list that make_textures returns.
TILES, BRICKS, WOOD, PLAID, RUST, DOTS = range(6)

# The ground, then one material per object, then the walls and the lights:
# every type, 15 of the 25 materials textured, noisy or both. Neighbouring
# objects differ.
GROUND = material(DISNEY, (0.85, 0.85, 0.85), rough=0.45, specular=0.5,
                  texture=TILES, uv_scale=0.5, noise_freq=1.3, octaves=5,
                  noise_weight=0.45, noise_colour=(0.25, 0.2, 0.15),
                  noise_rough=0.6, bump=0.004)
OBJECT_MATERIALS = [
    ("gold", material(CONDUCTOR, metal="gold", rough=0.08)),
    ("frosted glass", material(DIELECTRIC, (0.8, 0.9, 1.0), rough=0.3,
                               ior=1.5)),
    ("red plastic", material(PLASTIC, (0.7, 0.06, 0.05), rough=0.15,
                             ior=1.5)),
    ("car paint", material(DISNEY, (0.05, 0.15, 0.6), rough=0.35,
                           metallic=0.6, coat=1.0, coat_param=0.9)),
    ("brick", material(DIFFUSE, (1.0, 1.0, 1.0), texture=BRICKS,
                       uv_scale=2.0, bump=0.01)),
    ("rough copper", material(CONDUCTOR, metal="copper", rough=0.35,
                              noise_freq=6.0, octaves=5, noise_weight=0.0,
                              noise_rough=0.8, bump=0.006)),
    ("glass", material(DIELECTRIC, (1.0, 1.0, 1.0), rough=0.0, ior=1.5)),
    ("dotted plastic", material(PLASTIC, (1.0, 1.0, 1.0), rough=0.3,
                                ior=1.5, texture=DOTS, uv_scale=2.0)),
    ("coated copper", material(COATED, (0.9, 0.95, 0.9), metal="copper",
                               rough=0.3, anisotropy=0.6, ior=1.5,
                               coat_param=0.05, absorption=0.5)),
    ("marble", material(DIFFUSE, (0.9, 0.9, 0.88), noise_freq=3.0,
                        octaves=6, noise_weight=0.8,
                        noise_colour=(0.2, 0.22, 0.25))),
    ("brushed aluminium", material(CONDUCTOR, metal="aluminium", rough=0.3,
                                   anisotropy=0.85, texture=RUST,
                                   uv_scale=1.0)),
    ("fabric", material(DISNEY, (1.0, 1.0, 1.0), rough=0.8, sheen=1.0,
                        specular=0.3, texture=PLAID, uv_scale=3.0,
                        bump=0.002)),
    ("amber glass", material(DIELECTRIC, (1.0, 0.7, 0.35), rough=0.15,
                             ior=1.55, noise_freq=5.0, octaves=4,
                             noise_rough=0.9, bump=0.01)),
    ("varnished wood", material(DISNEY, (1.0, 1.0, 1.0), rough=0.5,
                                coat=0.6, coat_param=0.7, texture=WOOD,
                                uv_scale=1.0, bump=0.002)),
    ("silver", material(CONDUCTOR, metal="silver", rough=0.0)),
    ("rusty iron", material(CONDUCTOR, metal="iron", rough=0.25,
                            noise_freq=4.0, octaves=5, noise_weight=0.7,
                            noise_colour=(0.35, 0.12, 0.04),
                            noise_rough=0.7, bump=0.015)),
    ("noisy metal", material(DISNEY, (0.8, 0.75, 0.7), rough=0.3,
                             metallic=1.0, anisotropy=0.5,
                             noise_freq=8.0, octaves=4,
                             noise_weight=0.5,
                             noise_colour=(0.3, 0.5, 0.45))),
    ("rust", material(DIFFUSE, (1.0, 1.0, 1.0), texture=RUST, uv_scale=1.0,
                      noise_freq=7.0, octaves=4, noise_weight=0.3,
                      noise_colour=(0.2, 0.08, 0.02), bump=0.01)),
    ("coated gold", material(COATED, (0.6, 0.9, 0.5), metal="gold",
                             rough=0.15, ior=1.5, coat_param=0.1,
                             absorption=0.8, noise_freq=3.0, octaves=4,
                             noise_weight=0.0, noise_rough=0.6,
                             bump=0.01)),
    ("green plastic", material(PLASTIC, (0.1, 0.45, 0.12), rough=0.4,
                               ior=1.5)),
]
# The backdrop: a plaster back wall and a panelled wall on the left.
WALL_MATERIALS = [
    ("plaster wall", material(DIFFUSE, (0.75, 0.72, 0.68), noise_freq=2.0,
                              octaves=4, noise_weight=0.35,
                              noise_colour=(0.55, 0.5, 0.45), bump=0.004)),
    ("panelled wall", material(DISNEY, (0.9, 0.9, 0.9), rough=0.55,
                               coat=0.3, coat_param=0.5, texture=WOOD,
                               uv_scale=0.25, bump=0.003)),
]
LIGHT_MATERIALS = [
    ("warm light", material(EMISSIVE, (0, 0, 0), emission=(9.0, 7.6, 5.6))),
    ("cool light", material(EMISSIVE, (0, 0, 0), emission=(1.6, 2.4, 4.0))),
]


# ---------------------------------------------------------------- meshes

class Mesh:
    """An indexed triangle mesh with texture coordinates; the normals are
    the area-weighted averages of the faces around each vertex."""

    def __init__(self):
        self.points, self.uvs, self.faces = [], [], []

    def grid(self, rows, columns, point):
        """A (rows + 1) x (columns + 1) grid of vertices point(i, j) ->
        (position, uv), two triangles per cell (oriented by `orient`)."""
        base = len(self.points)
        for i in range(rows + 1):
            for j in range(columns + 1):
                p, uv = point(i, j)
                self.points.append(p)
                self.uvs.append(uv)
        stride = columns + 1
        for i in range(rows):
            for j in range(columns):
                a = base + i * stride + j
                b, c, d = a + 1, a + stride, a + stride + 1
                self.faces.append((a, c, b))
                self.faces.append((b, c, d))

    def orient(self, facing):
        """Turns the faces around unless their summed facing(a, b, c)
        (for their vertices in order) is positive: the renderer takes the
        counter-clockwise side as the front (outside), which matters for
        dielectrics."""
        p = self.points
        if sum(facing(p[a], p[b], p[c]) for a, b, c in self.faces) < 0:
            self.faces = [(a, c, b) for a, b, c in self.faces]

    def orient_outward(self, centre):
        """Outside: the signed volume seen from `centre` is positive."""
        self.orient(lambda a, b, c: dot(sub(a, centre),
                                        cross(sub(b, centre),
                                              sub(c, centre))))

    def normals(self):
        acc = [(0.0, 0.0, 0.0)] * len(self.points)
        for a, b, c in self.faces:
            n = cross(sub(self.points[b], self.points[a]),
                      sub(self.points[c], self.points[a]))
            acc[a] = add(acc[a], n)
            acc[b] = add(acc[b], n)
            acc[c] = add(acc[c], n)
        return [normalize(n) for n in acc]


def bumps(rng, amplitude, count=5):
    """A smooth displacement of unit directions: a sum of `count` sines of
    the direction's projection on random axes."""
    terms = []
    for _ in range(count):
        axis = normalize((rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)))
        terms.append((axis, rng.uniform(3.0, 9.0), rng.uniform(0, 6.3),
                      amplitude * rng.uniform(0.4, 1.0) / count))

    def displace(n):
        return sum(a * math.sin(f * dot(axis, n) + phase)
                   for axis, f, phase, a in terms)
    return displace


def sphere_like(centre, radius, n, displace, exponent=1.0,
                squash=(1.0, 1.0, 1.0)):
    """A displaced UV sphere (rings n, segments 2 n) or, with exponent < 1,
    a superellipsoid (a rounded box); uv = (longitude, latitude)."""
    mesh = Mesh()

    def signed_pow(x, e):
        return math.copysign(abs(x) ** e, x)

    def point(i, j):
        theta = math.pi * i / n
        phi = 2.0 * math.pi * j / (2 * n)
        st, ct = math.sin(theta), math.cos(theta)
        sp, cp = math.sin(phi), math.cos(phi)
        d = (st * cp, ct, st * sp)
        s = (signed_pow(st, exponent) * signed_pow(cp, exponent),
             signed_pow(ct, exponent),
             signed_pow(st, exponent) * signed_pow(sp, exponent))
        r = radius * (1.0 + displace(d))
        p = (centre[0] + r * s[0] * squash[0], centre[1] + r * s[1] *
             squash[1], centre[2] + r * s[2] * squash[2])
        return p, (j / (2.0 * n), i / float(n))
    mesh.grid(n, 2 * n, point)
    return mesh


def torus(centre, major, minor, n, displace, tilt):
    """A displaced torus (2 n around, n across), tilted about x."""
    mesh = Mesh()
    ct, st = math.cos(tilt), math.sin(tilt)

    def point(i, j):
        v = 2.0 * math.pi * i / n
        u = 2.0 * math.pi * j / (2 * n)
        tube = (math.cos(v) * math.cos(u), math.sin(v),
                math.cos(v) * math.sin(u))
        r = minor * (1.0 + displace(tube))
        q = ((major + r * math.cos(v)) * math.cos(u), r * math.sin(v),
             (major + r * math.cos(v)) * math.sin(u))
        q = (q[0], q[1] * ct - q[2] * st, q[1] * st + q[2] * ct)
        return add(centre, q), (j / (2.0 * n), i / float(n))
    mesh.grid(n, 2 * n, point)
    return mesh


def vase(centre, height, n, displace):
    """A surface of revolution with a wavy profile, closed at the bottom
    (its lowest ring has radius 0)."""
    mesh = Mesh()

    def profile(t):
        return (0.28 + 0.22 * math.sin(math.pi * (0.15 + 1.1 * t)) +
                0.05 * math.sin(7.0 * t)) * min(1.0, 12.0 * t)

    def point(i, j):
        t = 1.0 - i / float(n)
        phi = 2.0 * math.pi * j / (2 * n)
        d = (math.cos(phi), t, math.sin(phi))
        r = profile(t) * (1.0 + displace(normalize(d)))
        p = (centre[0] + r * math.cos(phi), centre[1] + height * t,
             centre[2] + r * math.sin(phi))
        return p, (j / (2.0 * n), t)
    mesh.grid(n, 2 * n, point)
    return mesh


def ground(n, size, rng):
    """The ground: an n x n grid over [-size, size]^2, rippled; uv are the
    world coordinates (the material scales them)."""
    waves = [(rng.uniform(0.5, 2.0), rng.uniform(0, 6.3),
              rng.uniform(0, 6.3), rng.uniform(0.01, 0.03))
             for _ in range(4)]
    mesh = Mesh()

    def point(i, j):
        x = -size + 2.0 * size * j / n
        z = -size + 2.0 * size * i / n
        y = sum(a * math.sin(f * x + p) * math.cos(f * 0.8 * z + q)
                for f, p, q, a in waves)
        return (x, y, z), (x, z)
    mesh.grid(n, n, point)
    mesh.orient(lambda a, b, c: cross(sub(b, a), sub(c, a))[1])
    return mesh


def build_scene(resolution, ground_cells):
    """Triangles (v0, v1, v2, n0, n1, n2, uv0, uv1, uv2, material) and the
    materials; objects in a 5 x 4 grid, kinds and materials interleaved."""
    rng = random.Random(38)
    materials = [GROUND] + [m for _, m in OBJECT_MATERIALS]
    materials += [m for _, m in WALL_MATERIALS]
    materials += [m for _, m in LIGHT_MATERIALS]
    triangles = []

    def emit(mesh, mat):
        normals = mesh.normals()
        p = mesh.points
        for a, b, c in mesh.faces:
            n = cross(sub(p[b], p[a]), sub(p[c], p[a]))
            if dot(n, n) < 1e-20:
                continue  # Degenerate (a pole of a sphere or a vase).
            triangles.append((p[a], p[b], p[c], normals[a], normals[b],
                              normals[c], mesh.uvs[a], mesh.uvs[b],
                              mesh.uvs[c], mat))

    emit(ground(ground_cells, 9.0, rng), 0)
    n = resolution
    for index in range(len(OBJECT_MATERIALS)):
        row, column = divmod(index, 5)
        x = -3.6 + 1.8 * column + (0.45 if row % 2 else 0.0)
        z = 1.9 - 1.55 * row
        kind = (index + row) % 4
        displace = bumps(rng, 0.12)
        if kind == 0:
            mesh = sphere_like((x, 0.62, z), 0.6, n, displace)
        elif kind == 1:
            mesh = torus((x, 0.52, z), 0.48, 0.2, n, displace,
                         rng.uniform(0.6, 1.1))
        elif kind == 2:
            mesh = sphere_like((x, 0.5, z), 0.55, n, displace, exponent=0.35,
                               squash=(1.0, 0.9, 0.8))
        else:
            mesh = vase((x, 0.0, z), 1.25, n, displace)
        mesh.orient_outward((x, 0.5, z))
        emit(mesh, 1 + index)
    # The backdrop: grids facing the objects, uv in world units.
    back, left = 1 + len(OBJECT_MATERIALS), 2 + len(OBJECT_MATERIALS)
    cells = max(2, ground_cells // 8)
    wall = Mesh()
    wall.grid(cells, cells, lambda i, j: (
        (-9.0 + 18.0 * j / cells, 7.0 * i / cells, -5.0),
        (-9.0 + 18.0 * j / cells, 7.0 * i / cells)))
    wall.orient(lambda a, b, c: cross(sub(b, a), sub(c, a))[2])
    emit(wall, back)
    wall = Mesh()
    wall.grid(cells, cells, lambda i, j: (
        (-6.5, 7.0 * i / cells, -5.0 + 14.0 * j / cells),
        (-5.0 + 14.0 * j / cells, 7.0 * i / cells)))
    wall.orient(lambda a, b, c: cross(sub(b, a), sub(c, a))[0])
    emit(wall, left)
    # Lights: a warm panel above (facing down) and a cool one at the right
    # (facing the objects); both quads, counter-clockwise from the front.
    warm, cool = len(materials) - 2, len(materials) - 1

    def quad(a, b, c, d, mat):
        for t in ((a, b, c), (a, c, d)):
            n0 = normalize(cross(sub(t[1], t[0]), sub(t[2], t[0])))
            triangles.append(t + (n0, n0, n0, (0, 0), (0, 0), (0, 0), mat))
    quad((-3.5, 5.0, -1.0), (-0.5, 5.0, -1.0), (-0.5, 5.0, 2.0),
         (-3.5, 5.0, 2.0), warm)
    quad((6.0, 0.2, -2.0), (6.0, 0.2, 2.0), (6.0, 2.6, 2.0),
         (6.0, 2.6, -2.0), cool)
    return triangles, materials


# ---------------------------------------------------------------- textures

def value_noise(size, cells, rng):
    """A tileable size x size grid of smooth value noise on a cells x cells
    lattice, as rows of floats in [0, 1]."""
    lattice = [[rng.random() for _ in range(cells)] for _ in range(cells)]
    step = cells / float(size)
    xs = []
    for x in range(size):
        f = x * step
        i = int(f)
        t = f - i
        xs.append((i % cells, (i + 1) % cells, t * t * (3 - 2 * t)))
    rows = []
    for y in range(size):
        f = y * step
        i = int(f)
        t = f - i
        t = t * t * (3 - 2 * t)
        r0, r1 = lattice[i % cells], lattice[(i + 1) % cells]
        rows.append([(r0[a] + (r0[b] - r0[a]) * s) * (1 - t) +
                     (r1[a] + (r1[b] - r1[a]) * s) * t for a, b, s in xs])
    return rows


def fractal_noise(size, rng, octaves=4, base=4):
    layers = [value_noise(size, base << o, rng) for o in range(octaves)]
    weights = [0.5 ** o for o in range(octaves)]
    total = sum(weights)
    return [[sum(w * layer[y][x] for w, layer in zip(weights, layers)) /
             total for x in range(size)] for y in range(size)]


def rgba(r, g, b, a):
    """One texel's 4 bytes from floats in [0, 1] (RGB encoded with gamma
    2: the kernel squares them)."""
    def enc(v):
        return int(min(max(v, 0.0), 1.0) ** 0.5 * 255.0 + 0.5)
    return bytes((enc(r), enc(g), enc(b),
                  int(min(max(a, 0.0), 1.0) * 255.0 + 0.5)))


def texture_tiles(size, rng):
    """8 x 8 glazed tiles of varying colour (smooth) in rough grout."""
    tiles = 8
    cell = size // tiles
    grout = rgba(0.35, 0.33, 0.3, 1.0)
    palette = [[rgba(0.55 + 0.3 * rng.random(), 0.5 + 0.25 * rng.random(),
                     0.45 + 0.2 * rng.random(), 0.15)
                for _ in range(tiles)] for _ in range(tiles)]
    edge = max(1, cell // 12)
    in_grout = [x % cell < edge for x in range(size)]
    rows = []
    for y in range(size):
        if in_grout[y]:
            rows.append(grout * size)
            continue
        line = palette[y // cell]
        rows.append(b"".join(grout if in_grout[x] else line[x // cell]
                             for x in range(size)))
    return b"".join(rows)


def texture_bricks(size, rng):
    """Running-bond bricks: 16 courses of 8, mortar between."""
    courses, per_course = 16, 8
    height, width = size // courses, size // per_course
    mortar = rgba(0.6, 0.58, 0.55, 1.0)
    edge = max(1, height // 8)
    rows = []
    for y in range(size):
        course = y // height
        if y % height < edge:
            rows.append(mortar * size)
            continue
        shift = (width // 2) * (course % 2)
        colours = [rgba(0.45 + 0.2 * rng.random(), 0.16 + 0.08 *
                        rng.random(), 0.1 + 0.05 * rng.random(), 0.9)
                   for _ in range(per_course)]
        rows.append(b"".join(
            mortar if (x + shift) % width < edge else
            colours[((x + shift) // width) % per_course]
            for x in range(size)))
    return b"".join(rows)


def texture_wood(size, rng):
    """Planks with growth rings bent by noise."""
    noise = value_noise(size, 8, rng)
    planks = 4
    out = []
    for y in range(size):
        plank = y * planks // size
        centre = 0.3 + 0.4 * ((plank * 7919) % 13) / 13.0
        yy = (y % (size // planks)) / float(size // planks) - centre
        line = noise[y]
        for x in range(size):
            r = abs(yy) * 9.0 + 3.0 * line[x] + 0.5 * x / size
            ring = r - int(r)
            t = ring * ring
            out.append(rgba(0.55 - 0.25 * t, 0.33 - 0.17 * t,
                            0.17 - 0.1 * t, 0.5 + 0.3 * t))
    return b"".join(out)


def texture_plaid(size, rng):
    """A woven plaid: two sets of stripes, separable."""
    def stripes(seed):
        r = random.Random(seed)
        widths = [r.choice((2, 3, 5, 8)) for _ in range(6)]
        total = float(sum(widths))
        colours = [(r.random(), r.random() * 0.6, r.random() * 0.5)
                   for _ in widths]
        line, pos = [], 0.0
        for x in range(size):
            f = (x / float(size) * 4.0) % 1.0 * total
            acc, k = 0.0, 0
            while acc + widths[k] < f:
                acc += widths[k]
                k += 1
            line.append(colours[k])
        return line
    warp, weft = stripes(rng.random()), stripes(rng.random())
    out = []
    for y in range(size):
        a = weft[y]
        for x in range(size):
            b = warp[x]
            w = 0.65 if (x + y) % 4 < 2 else 0.35  # the twill
            out.append(rgba(a[0] * w + b[0] * (1 - w), a[1] * w + b[1] *
                            (1 - w), a[2] * w + b[2] * (1 - w), 1.0))
    return b"".join(out)


def texture_rust(size, rng):
    """Rust patches on bare grey metal (multi-octave value noise)."""
    noise = fractal_noise(size, rng)
    out = []
    for y in range(size):
        for v in noise[y]:
            t = min(max((v - 0.42) * 6.0, 0.0), 1.0)
            out.append(rgba(0.75 - 0.35 * t, 0.75 - 0.55 * t,
                            0.78 - 0.7 * t, 0.3 + 0.7 * t))
    return b"".join(out)


def texture_dots(size, rng):
    """Polka dots of random colours on white."""
    cells = 8
    cell = size // cells
    colours = [rgba(rng.random(), rng.random(), rng.random(), 0.3)
               for _ in range(cells * cells)]
    white = rgba(0.9, 0.9, 0.88, 0.6)
    r2 = (0.32 * cell) ** 2
    out = []
    for y in range(size):
        cy = y // cell
        dy = (y % cell) - cell / 2.0 + 0.5
        for x in range(size):
            dx = (x % cell) - cell / 2.0 + 0.5
            out.append(colours[cy * cells + x // cell]
                       if dx * dx + dy * dy < r2 else white)
    return b"".join(out)


TEXTURES = [texture_tiles, texture_bricks, texture_wood, texture_plaid,
            texture_rust, texture_dots]


def downsample(level, size):
    """The next mip level of an RGBA8 level: 2 x 2 box filter, RGB averaged
    in linear space (they are stored with gamma 2), alpha as is."""
    half = size // 2
    square = [v * v for v in range(256)]
    root = [math.isqrt(v) for v in range(65026)]
    out = bytearray(half * half * 4)
    row = size * 4
    for y in range(half):
        top = level[2 * y * row:(2 * y + 1) * row]
        bottom = level[(2 * y + 1) * row:(2 * y + 2) * row]
        o = y * half * 4
        for c in range(3):
            out[o + c:o + half * 4:4] = bytes(
                root[(square[a] + square[b] + square[d] + square[e]) >> 2]
                for a, b, d, e in zip(top[c::8], top[c + 4::8],
                                      bottom[c::8], bottom[c + 4::8]))
        out[o + 3:o + half * 4:4] = bytes(
            (a + b + d + e) >> 2
            for a, b, d, e in zip(top[3::8], top[7::8], bottom[3::8],
                                  bottom[7::8]))
    return bytes(out)


def make_textures(size):
    """Every texture's mip chain, concatenated, and the descriptors."""
    rng = random.Random(1038)
    texels, info = bytearray(), []
    log2 = size.bit_length() - 1
    for make in TEXTURES:
        level = make(size, rng)
        assert len(level) == size * size * 4, make.__name__
        offsets, s = [], size
        while True:
            offsets.append(len(texels) // 4)
            texels += level
            if s == 1:
                break
            level = downsample(level, s)
            s //= 2
        assert len(offsets) <= TEXINFO_INTS - 2
        info += [log2, len(offsets)] + offsets + [0] * (
            TEXINFO_INTS - 2 - len(offsets))
    return bytes(texels), info


# ---------------------------------------------------------------- output

def write(path, kind, values):
    data = array.array(kind, values)
    if sys.byteorder != "little":
        data.byteswap()
    with open(path, "wb") as out:
        data.tofile(out)


def coro_run_args(prefix, counts, options):
    w, h, spp = options.width, options.height, options.spp
    args = ["--grid=%d" % (w * h * spp)]
    args += ["--arg=%d" % v for v in (w, h, spp, options.max_depth,
                                       options.rr_depth, counts["lights"])]
    for name, kind in BUFFERS:
        args.append("--buffer=%s:%d:file=%s.%s.%s" % (
            kind, counts[name], prefix, name, kind))
    args.append("--buffer=f32:%d:zeros" % (3 * w * h * spp))
    return args


BUFFERS = [("scene", "f32"), ("tris", "f32"), ("attrs", "f32"),
           ("trimat", "i32"), ("mats", "f32"), ("nodesf", "f32"),
           ("nodesi", "i32"), ("lights", "i32"), ("texinfo", "i32"),
           ("texels", "i32")]


def look_at(eye, target, vfov_degrees):
    forward = normalize(sub(target, eye))
    right = normalize(cross(forward, (0.0, 1.0, 0.0)))
    up = cross(right, forward)
    return (list(eye) + list(forward) + list(right) + list(up) +
            [math.tan(math.radians(vfov_degrees) / 2.0)])


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--detail", choices=sorted(PRESETS), default="full")
    parser.add_argument("--resolution", type=int,
                        help="object tessellation (about 4 n^2 triangles "
                        "each; default: from --detail)")
    parser.add_argument("--texture-size", type=int,
                        help="texture width in texels, a power of two "
                        "(default: from --detail)")
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--height", type=int, default=96)
    parser.add_argument("--spp", type=int, default=16)
    parser.add_argument("--max-depth", type=int, default=10)
    parser.add_argument("--rr-depth", type=int, default=2)
    parser.add_argument("--quiet", action="store_true")
    options = parser.parse_args()
    preset = PRESETS[options.detail]
    resolution = options.resolution or preset["resolution"]
    texture_size = options.texture_size or preset["texture_size"]
    if texture_size < 1 or texture_size & (texture_size - 1) or \
            texture_size > 1 << (TEXINFO_INTS - 3):
        parser.error("--texture-size must be a power of two up to %d" %
                     (1 << (TEXINFO_INTS - 3)))
    if resolution < 3:
        parser.error("--resolution must be at least 3")

    triangles, materials = build_scene(resolution, preset["ground"])
    nodes, order = build_bvh(triangles)
    depth = bvh_depth(nodes)
    if depth > STACK_DEPTH:
        sys.exit("make_heavy_scene.py: BVH depth %d exceeds the traversal "
                 "stack (%d)" % (depth, STACK_DEPTH))
    texels, texinfo = make_textures(texture_size)

    tris, attrs, trimat, lights = [], [], [], []
    for index in order:
        a, b, c, na, nb, nc, ua, ub, uc, mat = triangles[index]
        tris += list(a) + list(sub(b, a)) + list(sub(c, a))
        attrs += list(na) + list(nb) + list(nc) + list(ua) + list(ub) + \
            list(uc)
        if materials[mat][0] == EMISSIVE:
            lights.append(len(trimat))
        trimat.append(mat)
    nodesf, nodesi = [], []
    for lo, hi, a, count in nodes:
        nodesf += list(lo) + list(hi)
        nodesi += [a, count]
    scene = look_at((0.0, 5.2, 8.6), (0.0, 0.2, -0.7), 40.0)
    scene += [0.25, 0.38, 0.65]   # sky at the zenith
    scene += [0.65, 0.6, 0.55]    # and at the horizon

    os.makedirs(options.outdir, exist_ok=True)
    prefix = os.path.join(options.outdir, "heavy")
    data = {"scene": scene, "tris": tris, "attrs": attrs, "trimat": trimat,
            "mats": [v for m in materials for v in m], "nodesf": nodesf,
            "nodesi": nodesi, "lights": lights, "texinfo": texinfo}
    for name, kind in BUFFERS:
        if name == "texels":
            with open(prefix + ".texels.i32", "wb") as out:
                out.write(texels)  # RGBA bytes: little-endian words.
        else:
            write("%s.%s.%s" % (prefix, name, kind),
                  "f" if kind == "f32" else "i", data[name])
    counts = {name: len(values) for name, values in data.items()}
    counts["texels"] = len(texels) // 4
    args = coro_run_args(prefix, counts, options)
    kinds = ["diffuse", "conductor", "dielectric", "plastic", "disney",
             "coated", "emissive"]
    names = (["ground"] + [n for n, _ in OBJECT_MATERIALS] +
             [n for n, _ in WALL_MATERIALS] +
             [n for n, _ in LIGHT_MATERIALS])
    stats = {
        "scene": "heavy", "detail": options.detail,
        "triangles": len(trimat), "materials": len(materials),
        "material_list": [{"name": n, "type": kinds[int(m[0])],
                           "texture": int(m[21]), "noise_octaves": int(m[24])}
                          for n, m in zip(names, materials)],
        "textured_materials": sum(1 for m in materials
                                  if m[21] >= 0 or m[24] > 0),
        "textures": len(TEXTURES), "texture_size": texture_size,
        "texture_bytes": len(texels), "nodes": len(nodes),
        "bvh_depth": depth, "num_lights": len(lights),
        "buffers": [a[len("--buffer="):] for a in args if "file=" in a]}
    with open(prefix + ".json", "w") as out:
        json.dump(stats, out, indent=1)
    with open(prefix + ".args", "w") as out:
        out.write("\n".join(args) + "\n")
    if not options.quiet:
        print("make_heavy_scene.py: %d triangles, %d materials (%d textured "
              "or noisy), %d textures of %d^2 (%d bytes with mips), %d BVH "
              "nodes (depth %d), %d emissive triangles" % (
                  len(trimat), len(materials), stats["textured_materials"],
                  len(TEXTURES), texture_size, len(texels), len(nodes),
                  depth, len(lights)))
        print("build/bin/coro-run benchmarks/heavy/heavy.mlir "
              "--coro=path_trace_heavy " + " ".join(args))


if __name__ == "__main__":
    main()

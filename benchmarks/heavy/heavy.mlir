// A shading-heavy path tracer written as one coroutine: the paper's
// conditions for splitting to pay off (Zheng et al., ACM TOG 2024, Sec. 7
// and Fig. 11): many expensive materials interleaved across the image,
// image textures and procedural noise evaluated at every hit, and many
// more instances than pixels. The scene (make_heavy_scene.py) is about
// 220,000 triangles of displaced shapes, a ground and a backdrop, with one
// material per object.
//
// One instance traces one sample: coro.id = pixel * %spp + sample, pixel =
// y * %width + x. It writes its radiance (linear RGB, 3 floats) to
// %samples[3 id ..]; the image is the average of a pixel's %spp samples
// (to_png.py). A path has at most %max_depth bounces; Russian roulette
// starts at bounce %rr_depth (the paper's settings are (10, 2) and
// (24, 5)). The random numbers are a PCG hash chain seeded by the pixel and
// the sample, so every scheduler renders the same image.
//
// Suspension points, per bounce:
//   "intersect"  before the closest-hit traversal of the BVH;
//   "miss"       when the ray escapes: the sky's radiance;
//   "surface"    before the surface is shaded: the pattern (trilinear
//                mip-mapped texture lookups, 4-6 octaves of gradient-noise
//                fBm), the BSDF's value towards a light sample (next-event
//                estimation) and the BSDF sample that makes the next ray;
//   "light"      before next-event estimation's shadow ray, when the light
//                sample contributes.
// An emissive hit adds its emission (front side only), MIS weighted
// against next-event estimation, and ends the path.
//
// Buffers (make_heavy_scene.py writes them; all little-endian):
//   %scene    19 floats: camera position, forward, right, up (unit
//             vectors), tan(vertical fov / 2), sky zenith RGB, sky horizon
//             RGB
//   %tris     9 floats per triangle (BVH order): v0, e1 = v1 - v0,
//             e2 = v2 - v0 (what intersection reads)
//   %attrs    15 floats per triangle: vertex normals n0, n1, n2, then the
//             texture coordinates (u, v) of the three vertices (what
//             shading reads)
//   %trimat   the material index of each triangle
//   %mats     32 floats per material:
//              0 type: 0 diffuse, 1 conductor, 2 dielectric, 3 plastic,
//                4 Disney-like, 5 coated conductor, 6 emissive
//              1 colour RGB (albedo, tint, base colour)
//              4 emission RGB
//              7 eta RGB, 10 k RGB (conductor, coated base)
//             13 roughness (perceptual; alpha = roughness^2)
//             14 index of refraction (dielectric, plastic and coat)
//             15 metallic, 16 specular, 17 sheen, 18 clear coat (Disney)
//             19 clear-coat gloss (Disney) or coat roughness (coated)
//             20 coat absorption per unit length (coated)
//             21 texture index (-1: none), 22 texture coordinate scale
//             23 noise frequency, 24 noise octaves (0: no noise),
//             25 noise colour weight, 26 noise colour RGB,
//             29 noise roughness weight, 30 bump scale (0: none),
//             31 anisotropy (GGX stretched along dp/du)
//   %nodesf   6 floats per BVH node: bounds min xyz, max xyz
//   %nodesi   2 ints per BVH node: a leaf is (first triangle, count > 0),
//             an inner node (right child, 0); its left child is the next
//             node
//   %lights   the indices of the %num_lights emissive triangles
//   %texinfo  16 ints per texture: log2 of its size (square, a power of
//             two), its number of mip levels, then the word offset in
//             %texels of each level (finest first)
//   %texels   RGBA8 texels, one per i32 word (R in the low byte), rows top
//             first; RGB store colour with gamma 2 (squared when read) and
//             their luminance is the bump height, A scales the roughness
//             by 0.5 + A
//   %samples  3 floats per instance: its radiance
//
// BSDFs (in a shading frame around the interpolated, bump-mapped normal,
// turned to the side the ray comes from, with its x axis along the
// texture's u direction dp/du; every GGX lobe is anisotropic): Lambert; a
// GGX conductor with the exact Fresnel
// term of a complex index of refraction (eta, k per channel); a rough GGX
// dielectric with reflection and transmission (Walter et al. 2007); rough
// plastic (a diffuse substrate under a GGX dielectric coat); a Disney-like
// principled BSDF (diffuse with retro-reflection, sheen, GGX specular, GTR1
// clear coat, lobes chosen at random); and a coated conductor (a GGX
// dielectric coat with Beer-Lambert absorption over a rough conductor).
// Conductors and dielectrics smoother than roughness 0.02 are specular:
// they take no next-event estimation. Multi-lobe BSDFs pick a lobe, sample
// it, and weight the direction by the whole BSDF over the mixture pdf.
//
// Texture level of detail: ray cones (Akenine-Moeller et al., Ray Tracing
// Gems, 2019): the cone starts with the spread of a pixel, grows with the
// distance, and widens by 2 alpha at each bounce (1 for a diffuse lobe).
//
// The helpers are callables (func.func) that coro-inline-callables inlines
// into the coroutine; every suspension is in @path_trace_heavy, and all
// control flow is structured (scf.for, scf.while, scf.if,
// scf.index_switch). Vector selects take vector<3xi1> masks.

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

// The PCG hash of Jarzynski and Olano (JCGT 2020): one round of a PCG
// generator followed by its RXS-M-XS output permutation.
func.func private @pcg_hash(%v: i32) -> i32 {
  %mul = arith.constant 747796405 : i32
  %inc = arith.constant -1403630843 : i32       // 2891336453 as an i32
  %perm = arith.constant 277803737 : i32
  %c4 = arith.constant 4 : i32
  %c22 = arith.constant 22 : i32
  %c28 = arith.constant 28 : i32
  %s0 = arith.muli %v, %mul : i32
  %state = arith.addi %s0, %inc : i32
  %rot = arith.shrui %state, %c28 : i32
  %shift = arith.addi %rot, %c4 : i32
  %x0 = arith.shrui %state, %shift : i32
  %x1 = arith.xori %x0, %state : i32
  %word = arith.muli %x1, %perm : i32
  %hi = arith.shrui %word, %c22 : i32
  %h = arith.xori %hi, %word : i32
  return %h : i32
}

// A uniform float in [0, 1) from the top 24 bits of the next state.
func.func private @rand(%state: i32) -> (f32, i32) {
  %next = func.call @pcg_hash(%state) : (i32) -> i32
  %c8 = arith.constant 8 : i32
  %ulp = arith.constant 5.96046448e-08 : f32    // 2^-24
  %bits = arith.shrui %next, %c8 : i32
  %f = arith.uitofp %bits : i32 to f32
  %u = arith.mulf %f, %ulp : f32
  return %u, %next : f32, i32
}

//===----------------------------------------------------------------------===//
// Vectors (vector<3xf32>; selects take vector<3xi1> masks, which the SPIR-V
// lowering needs)
//===----------------------------------------------------------------------===//

func.func private @dot3(%a: vector<3xf32>, %b: vector<3xf32>) -> f32 {
  %p = arith.mulf %a, %b : vector<3xf32>
  %s = vector.reduction <add>, %p : vector<3xf32> into f32
  return %s : f32
}

func.func private @cross3(%a: vector<3xf32>, %b: vector<3xf32>)
    -> vector<3xf32> {
  %ax = vector.extract %a[0] : f32 from vector<3xf32>
  %ay = vector.extract %a[1] : f32 from vector<3xf32>
  %az = vector.extract %a[2] : f32 from vector<3xf32>
  %bx = vector.extract %b[0] : f32 from vector<3xf32>
  %by = vector.extract %b[1] : f32 from vector<3xf32>
  %bz = vector.extract %b[2] : f32 from vector<3xf32>
  %x0 = arith.mulf %ay, %bz : f32
  %x1 = arith.mulf %az, %by : f32
  %x = arith.subf %x0, %x1 : f32
  %y0 = arith.mulf %az, %bx : f32
  %y1 = arith.mulf %ax, %bz : f32
  %y = arith.subf %y0, %y1 : f32
  %z0 = arith.mulf %ax, %by : f32
  %z1 = arith.mulf %ay, %bx : f32
  %z = arith.subf %z0, %z1 : f32
  %c = vector.from_elements %x, %y, %z : vector<3xf32>
  return %c : vector<3xf32>
}

func.func private @normalize3(%v: vector<3xf32>) -> vector<3xf32> {
  %sq = func.call @dot3(%v, %v) : (vector<3xf32>, vector<3xf32>) -> f32
  %len = math.sqrt %sq : f32
  %lv = vector.broadcast %len : f32 to vector<3xf32>
  %n = arith.divf %v, %lv : vector<3xf32>
  return %n : vector<3xf32>
}

// a + s b
func.func private @axpy3(%a: vector<3xf32>, %s: f32, %b: vector<3xf32>)
    -> vector<3xf32> {
  %sv = vector.broadcast %s : f32 to vector<3xf32>
  %sb = arith.mulf %sv, %b : vector<3xf32>
  %r = arith.addf %a, %sb : vector<3xf32>
  return %r : vector<3xf32>
}

// s v
func.func private @scale3(%v: vector<3xf32>, %s: f32) -> vector<3xf32> {
  %sv = vector.broadcast %s : f32 to vector<3xf32>
  %r = arith.mulf %sv, %v : vector<3xf32>
  return %r : vector<3xf32>
}

// a + t (b - a)
func.func private @lerp3(%a: vector<3xf32>, %b: vector<3xf32>, %t: f32)
    -> vector<3xf32> {
  %d = arith.subf %b, %a : vector<3xf32>
  %r = func.call @axpy3(%a, %t, %d)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  return %r : vector<3xf32>
}

func.func private @lerp(%a: f32, %b: f32, %t: f32) -> f32 {
  %d = arith.subf %b, %a : f32
  %r = math.fma %t, %d, %a : f32
  return %r : f32
}

func.func private @select3(%c: i1, %a: vector<3xf32>, %b: vector<3xf32>)
    -> vector<3xf32> {
  %m = vector.broadcast %c : i1 to vector<3xi1>
  %r = arith.select %m, %a, %b : vector<3xi1>, vector<3xf32>
  return %r : vector<3xf32>
}

// Rec. 709 luminance.
func.func private @luminance(%c: vector<3xf32>) -> f32 {
  %w = arith.constant dense<[0.2126, 0.7152, 0.0722]> : vector<3xf32>
  %l = func.call @dot3(%c, %w) : (vector<3xf32>, vector<3xf32>) -> f32
  return %l : f32
}

func.func private @max3(%c: vector<3xf32>) -> f32 {
  %m = vector.reduction <maximumf>, %c : vector<3xf32> into f32
  return %m : f32
}

func.func private @clamp01(%x: f32) -> f32 {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %a = arith.maximumf %x, %f0 : f32
  %b = arith.minimumf %a, %f1 : f32
  return %b : f32
}

// The 3 floats at mem[base + offset ..].
func.func private @load3(%mem: memref<?xf32>, %base: index, %offset: index)
    -> vector<3xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i0 = arith.addi %base, %offset : index
  %i1 = arith.addi %i0, %c1 : index
  %i2 = arith.addi %i0, %c2 : index
  %x = memref.load %mem[%i0] : memref<?xf32>
  %y = memref.load %mem[%i1] : memref<?xf32>
  %z = memref.load %mem[%i2] : memref<?xf32>
  %v = vector.from_elements %x, %y, %z : vector<3xf32>
  return %v : vector<3xf32>
}

// mem[base + offset]
func.func private @load1(%mem: memref<?xf32>, %base: index, %offset: index)
    -> f32 {
  %i = arith.addi %base, %offset : index
  %x = memref.load %mem[%i] : memref<?xf32>
  return %x : f32
}

// An orthonormal basis (t, b) around the unit vector %n (Duff et al., JCGT
// 2017): no branch, no normalization, stable for every %n.
func.func private @basis(%n: vector<3xf32>) -> (vector<3xf32>, vector<3xf32>) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %m1 = arith.constant -1.0 : f32
  %nx = vector.extract %n[0] : f32 from vector<3xf32>
  %ny = vector.extract %n[1] : f32 from vector<3xf32>
  %nz = vector.extract %n[2] : f32 from vector<3xf32>
  %pos = arith.cmpf oge, %nz, %f0 : f32
  %sign = arith.select %pos, %f1, %m1 : f32
  %snz = arith.addf %sign, %nz : f32
  %a = arith.divf %m1, %snz : f32
  %nxy = arith.mulf %nx, %ny : f32
  %b = arith.mulf %nxy, %a : f32
  %nxx = arith.mulf %nx, %nx : f32
  %nxxa = arith.mulf %nxx, %a : f32
  %snxxa = arith.mulf %sign, %nxxa : f32
  %t0 = arith.addf %f1, %snxxa : f32
  %t1 = arith.mulf %sign, %b : f32
  %snx = arith.mulf %sign, %nx : f32
  %t2 = arith.negf %snx : f32
  %t = vector.from_elements %t0, %t1, %t2 : vector<3xf32>
  %nyy = arith.mulf %ny, %ny : f32
  %nyya = arith.mulf %nyy, %a : f32
  %b1 = arith.addf %sign, %nyya : f32
  %b2 = arith.negf %ny : f32
  %bt = vector.from_elements %b, %b1, %b2 : vector<3xf32>
  return %t, %bt : vector<3xf32>, vector<3xf32>
}

// World to the shading frame (t, b, n): the frame's z axis is n.
func.func private @to_local(%v: vector<3xf32>, %t: vector<3xf32>,
                            %b: vector<3xf32>, %n: vector<3xf32>)
    -> vector<3xf32> {
  %x = func.call @dot3(%v, %t) : (vector<3xf32>, vector<3xf32>) -> f32
  %y = func.call @dot3(%v, %b) : (vector<3xf32>, vector<3xf32>) -> f32
  %z = func.call @dot3(%v, %n) : (vector<3xf32>, vector<3xf32>) -> f32
  %r = vector.from_elements %x, %y, %z : vector<3xf32>
  return %r : vector<3xf32>
}

func.func private @to_world(%v: vector<3xf32>, %t: vector<3xf32>,
                            %b: vector<3xf32>, %n: vector<3xf32>)
    -> vector<3xf32> {
  %x = vector.extract %v[0] : f32 from vector<3xf32>
  %y = vector.extract %v[1] : f32 from vector<3xf32>
  %z = vector.extract %v[2] : f32 from vector<3xf32>
  %w0 = func.call @scale3(%n, %z) : (vector<3xf32>, f32) -> vector<3xf32>
  %w1 = func.call @axpy3(%w0, %x, %t)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %w2 = func.call @axpy3(%w1, %y, %b)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  return %w2 : vector<3xf32>
}

//===----------------------------------------------------------------------===//
// Ray casting
//===----------------------------------------------------------------------===//

// Moeller-Trumbore against triangle %tri (9 floats: v0, e1, e2): the
// distance (3e38 for a miss; it must exceed 1e-5) and the barycentrics.
func.func private @intersect_triangle(%o: vector<3xf32>, %d: vector<3xf32>,
                                      %tris: memref<?xf32>, %tri: i32)
    -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %tiny = arith.constant 1.0e-12 : f32
  %tmin = arith.constant 1.0e-5 : f32
  %far = arith.constant 3.0e38 : f32
  %b32 = arith.muli %tri, %c9 : i32
  %base = arith.index_cast %b32 : i32 to index
  %v0 = func.call @load3(%tris, %base, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e1 = func.call @load3(%tris, %base, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e2 = func.call @load3(%tris, %base, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %pv = func.call @cross3(%d, %e2)
      : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %det = func.call @dot3(%e1, %pv) : (vector<3xf32>, vector<3xf32>) -> f32
  %inv = arith.divf %f1, %det : f32
  %tv = arith.subf %o, %v0 : vector<3xf32>
  %u0 = func.call @dot3(%tv, %pv) : (vector<3xf32>, vector<3xf32>) -> f32
  %u = arith.mulf %u0, %inv : f32
  %qv = func.call @cross3(%tv, %e1)
      : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %v1 = func.call @dot3(%d, %qv) : (vector<3xf32>, vector<3xf32>) -> f32
  %v = arith.mulf %v1, %inv : f32
  %t0 = func.call @dot3(%e2, %qv) : (vector<3xf32>, vector<3xf32>) -> f32
  %t = arith.mulf %t0, %inv : f32
  // A degenerate determinant gives NaNs, which fail the ordered compares.
  %adet = math.absf %det : f32
  %k0 = arith.cmpf ogt, %adet, %tiny : f32
  %k1 = arith.cmpf oge, %u, %f0 : f32
  %k2 = arith.cmpf oge, %v, %f0 : f32
  %uv = arith.addf %u, %v : f32
  %k3 = arith.cmpf ole, %uv, %f1 : f32
  %k4 = arith.cmpf ogt, %t, %tmin : f32
  %a0 = arith.andi %k0, %k1 : i1
  %a1 = arith.andi %a0, %k2 : i1
  %a2 = arith.andi %a1, %k3 : i1
  %ok = arith.andi %a2, %k4 : i1
  %tr = arith.select %ok, %t, %far : f32
  return %tr, %u, %v : f32, f32, f32
}

// The slab test of the ray (origin %o, inverse direction %inv) against the
// bounds of BVH node %node: whether it enters them before %tmax, and where.
func.func private @hit_box(%nodesf: memref<?xf32>, %node: i32,
                           %o: vector<3xf32>, %inv: vector<3xf32>,
                           %tmax: f32) -> (i1, f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : i32
  %f0 = arith.constant 0.0 : f32
  %b32 = arith.muli %node, %c6 : i32
  %base = arith.index_cast %b32 : i32 to index
  %lo = func.call @load3(%nodesf, %base, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %hi = func.call @load3(%nodesf, %base, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %dlo = arith.subf %lo, %o : vector<3xf32>
  %dhi = arith.subf %hi, %o : vector<3xf32>
  %t1 = arith.mulf %dlo, %inv : vector<3xf32>
  %t2 = arith.mulf %dhi, %inv : vector<3xf32>
  %tn3 = arith.minimumf %t1, %t2 : vector<3xf32>
  %tf3 = arith.maximumf %t1, %t2 : vector<3xf32>
  %tn = vector.reduction <maximumf>, %tn3 : vector<3xf32> into f32
  %tf = vector.reduction <minimumf>, %tf3 : vector<3xf32> into f32
  %tn0 = arith.maximumf %tn, %f0 : f32
  %in0 = arith.cmpf ole, %tn0, %tf : f32
  %in1 = arith.cmpf olt, %tn0, %tmax : f32
  %hit = arith.andi %in0, %in1 : i1
  return %hit, %tn0 : i1, f32
}

// Ordered BVH traversal: the nearest hit closer than %tmax, or with %any_hit
// the first one found (shadow rays). An inner node tests both children and
// pushes the farther one below the nearer one; every stack entry keeps the
// distance at which the ray enters its node, so a node behind the best hit
// so far is dropped when it is popped. Returns the distance, the triangle
// (-1 for none) and the barycentrics.
func.func private @traverse(%o: vector<3xf32>, %d: vector<3xf32>,
                            %tmax: f32, %any_hit: i1,
                            %nodesf: memref<?xf32>, %nodesi: memref<?xi32>,
                            %tris: memref<?xf32>) -> (f32, i32, f32, f32) {
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %none = arith.constant -1 : i32
  %f0 = arith.constant 0.0 : f32
  %true = arith.constant true
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %tiny3 = arith.constant dense<1.0e-12> : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %nodes = memref.alloca() : memref<64xi32>
  %enter = memref.alloca() : memref<64xf32>
  // 1 / d with components below 1e-12 in magnitude replaced by +-1e-12, so
  // the slab test never computes 0 * inf.
  %ad = math.absf %d : vector<3xf32>
  %small = arith.cmpf olt, %ad, %tiny3 : vector<3xf32>
  %neg = arith.cmpf olt, %d, %zero3 : vector<3xf32>
  %mtiny3 = arith.negf %tiny3 : vector<3xf32>
  %sd = arith.select %neg, %mtiny3, %tiny3 : vector<3xi1>, vector<3xf32>
  %dsafe = arith.select %small, %sd, %d : vector<3xi1>, vector<3xf32>
  %inv = arith.divf %one3, %dsafe : vector<3xf32>
  %root:2 = func.call @hit_box(%nodesf, %i0, %o, %inv, %tmax)
      : (memref<?xf32>, i32, vector<3xf32>, vector<3xf32>, f32) -> (i1, f32)
  memref.store %i0, %nodes[%c0] : memref<64xi32>
  memref.store %root#1, %enter[%c0] : memref<64xf32>
  %sp0 = arith.select %root#0, %i1, %i0 : i32
  %res:5 = scf.while (%sp = %sp0, %tbest = %tmax, %best = %none,
                      %bu = %f0, %bv = %f0)
      : (i32, f32, i32, f32, f32) -> (i32, f32, i32, f32, f32) {
    %more = arith.cmpi sgt, %sp, %i0 : i32
    %found = arith.cmpi sge, %best, %i0 : i32
    %done = arith.andi %any_hit, %found : i1
    %notDone = arith.xori %done, %true : i1
    %go = arith.andi %more, %notDone : i1
    scf.condition(%go) %sp, %tbest, %best, %bu, %bv
        : i32, f32, i32, f32, f32
  } do {
  ^bb0(%sp: i32, %tbest: f32, %best: i32, %bu: f32, %bv: f32):
    %top = arith.subi %sp, %i1 : i32
    %topi = arith.index_cast %top : i32 to index
    %node = memref.load %nodes[%topi] : memref<64xi32>
    %tin = memref.load %enter[%topi] : memref<64xf32>
    %worth = arith.cmpf olt, %tin, %tbest : f32
    %n2 = arith.muli %node, %i2 : i32
    %n21 = arith.addi %n2, %i1 : i32
    %ia = arith.index_cast %n2 : i32 to index
    %ib = arith.index_cast %n21 : i32 to index
    %first = memref.load %nodesi[%ia] : memref<?xi32>
    %count = memref.load %nodesi[%ib] : memref<?xi32>
    %leaf = arith.cmpi sgt, %count, %i0 : i32
    %next:5 = scf.if %worth -> (i32, f32, i32, f32, f32) {
      %r:5 = scf.if %leaf -> (i32, f32, i32, f32, f32) {
        %end = arith.addi %first, %count : i32
        %h:4 = scf.for %k = %first to %end step %i1
            iter_args(%tb = %tbest, %bt = %best, %u0 = %bu, %v0 = %bv)
            -> (f32, i32, f32, f32) : i32 {
          %hit:3 = func.call @intersect_triangle(%o, %d, %tris, %k)
              : (vector<3xf32>, vector<3xf32>, memref<?xf32>, i32)
                -> (f32, f32, f32)
          %closer = arith.cmpf olt, %hit#0, %tb : f32
          %tb1 = arith.select %closer, %hit#0, %tb : f32
          %bt1 = arith.select %closer, %k, %bt : i32
          %u1 = arith.select %closer, %hit#1, %u0 : f32
          %v1 = arith.select %closer, %hit#2, %v0 : f32
          scf.yield %tb1, %bt1, %u1, %v1 : f32, i32, f32, f32
        }
        scf.yield %top, %h#0, %h#1, %h#2, %h#3 : i32, f32, i32, f32, f32
      } else {
        // The left child is the next node, the right one is %first.
        %left = arith.addi %node, %i1 : i32
        %hl:2 = func.call @hit_box(%nodesf, %left, %o, %inv, %tbest)
            : (memref<?xf32>, i32, vector<3xf32>, vector<3xf32>, f32)
              -> (i1, f32)
        %hr:2 = func.call @hit_box(%nodesf, %first, %o, %inv, %tbest)
            : (memref<?xf32>, i32, vector<3xf32>, vector<3xf32>, f32)
              -> (i1, f32)
        // Push the farther child first, so the nearer one is popped next;
        // a child the ray misses is not pushed.
        %leftNear = arith.cmpf ole, %hl#1, %hr#1 : f32
        %farN = arith.select %leftNear, %first, %left : i32
        %farT = arith.select %leftNear, %hr#1, %hl#1 : f32
        %farHit = arith.select %leftNear, %hr#0, %hl#0 : i1
        %nearN = arith.select %leftNear, %left, %first : i32
        %nearT = arith.select %leftNear, %hl#1, %hr#1 : f32
        %nearHit = arith.select %leftNear, %hl#0, %hr#0 : i1
        memref.store %farN, %nodes[%topi] : memref<64xi32>
        memref.store %farT, %enter[%topi] : memref<64xf32>
        %sp1 = arith.select %farHit, %sp, %top : i32
        %sp1i = arith.index_cast %sp1 : i32 to index
        memref.store %nearN, %nodes[%sp1i] : memref<64xi32>
        memref.store %nearT, %enter[%sp1i] : memref<64xf32>
        %sp2 = arith.addi %sp1, %i1 : i32
        %sp3 = arith.select %nearHit, %sp2, %sp1 : i32
        scf.yield %sp3, %tbest, %best, %bu, %bv : i32, f32, i32, f32, f32
      }
      scf.yield %r#0, %r#1, %r#2, %r#3, %r#4 : i32, f32, i32, f32, f32
    } else {
      scf.yield %top, %tbest, %best, %bu, %bv : i32, f32, i32, f32, f32
    }
    scf.yield %next#0, %next#1, %next#2, %next#3, %next#4
        : i32, f32, i32, f32, f32
  }
  return %res#1, %res#2, %res#3, %res#4 : f32, i32, f32, f32
}

//===----------------------------------------------------------------------===//
// Procedural noise
//===----------------------------------------------------------------------===//

// A hash of an integer lattice point (three large primes mixed, then PCG).
func.func private @hash_lattice(%x: i32, %y: i32, %z: i32) -> i32 {
  %px = arith.constant 73856093 : i32
  %py = arith.constant 19349663 : i32
  %pz = arith.constant 83492791 : i32
  %a = arith.muli %x, %px : i32
  %b = arith.muli %y, %py : i32
  %c = arith.muli %z, %pz : i32
  %ab = arith.xori %a, %b : i32
  %abc = arith.xori %ab, %c : i32
  %h = func.call @pcg_hash(%abc) : (i32) -> i32
  return %h : i32
}

// The contribution of one lattice corner to gradient noise: the dot product
// of the corner's pseudo-random gradient (three 10-bit fields of its hash,
// each mapped to [-1, 1]) with the offset (%fx, %fy, %fz) from the corner.
func.func private @lattice_corner(%x: i32, %y: i32, %z: i32,
                                  %fx: f32, %fy: f32, %fz: f32) -> f32 {
  %h = func.call @hash_lattice(%x, %y, %z) : (i32, i32, i32) -> i32
  %mask = arith.constant 1023 : i32
  %c10 = arith.constant 10 : i32
  %c20 = arith.constant 20 : i32
  %scale = arith.constant 0.00195503421 : f32   // 2 / 1023
  %gx0 = arith.andi %h, %mask : i32
  %hy = arith.shrui %h, %c10 : i32
  %gy0 = arith.andi %hy, %mask : i32
  %hz = arith.shrui %h, %c20 : i32
  %gz0 = arith.andi %hz, %mask : i32
  %gxf = arith.uitofp %gx0 : i32 to f32
  %gyf = arith.uitofp %gy0 : i32 to f32
  %gzf = arith.uitofp %gz0 : i32 to f32
  %m1 = arith.constant -1.0 : f32
  %gx = math.fma %gxf, %scale, %m1 : f32
  %gy = math.fma %gyf, %scale, %m1 : f32
  %gz = math.fma %gzf, %scale, %m1 : f32
  %dx = arith.mulf %gx, %fx : f32
  %dxy = math.fma %gy, %fy, %dx : f32
  %dxyz = math.fma %gz, %fz, %dxy : f32
  return %dxyz : f32
}

// Quintic fade 6t^5 - 15t^4 + 10t^3 (continuous second derivative).
func.func private @fade(%t: f32) -> f32 {
  %c6 = arith.constant 6.0 : f32
  %c15 = arith.constant -15.0 : f32
  %c10 = arith.constant 10.0 : f32
  %a = math.fma %t, %c6, %c15 : f32
  %b = math.fma %t, %a, %c10 : f32
  %t2 = arith.mulf %t, %t : f32
  %t3 = arith.mulf %t2, %t : f32
  %r = arith.mulf %t3, %b : f32
  return %r : f32
}

// Gradient (Perlin-style) noise at %p: the eight corners of its lattice
// cell, blended with the quintic fade. Roughly in [-1, 1].
func.func private @gradient_noise(%p: vector<3xf32>) -> f32 {
  %f1 = arith.constant 1.0 : f32
  %i1 = arith.constant 1 : i32
  %fl = math.floor %p : vector<3xf32>
  %fr = arith.subf %p, %fl : vector<3xf32>
  %il = arith.fptosi %fl : vector<3xf32> to vector<3xi32>
  %x0 = vector.extract %il[0] : i32 from vector<3xi32>
  %y0 = vector.extract %il[1] : i32 from vector<3xi32>
  %z0 = vector.extract %il[2] : i32 from vector<3xi32>
  %x1 = arith.addi %x0, %i1 : i32
  %y1 = arith.addi %y0, %i1 : i32
  %z1 = arith.addi %z0, %i1 : i32
  %fx0 = vector.extract %fr[0] : f32 from vector<3xf32>
  %fy0 = vector.extract %fr[1] : f32 from vector<3xf32>
  %fz0 = vector.extract %fr[2] : f32 from vector<3xf32>
  %fx1 = arith.subf %fx0, %f1 : f32
  %fy1 = arith.subf %fy0, %f1 : f32
  %fz1 = arith.subf %fz0, %f1 : f32
  %n000 = func.call @lattice_corner(%x0, %y0, %z0, %fx0, %fy0, %fz0)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %n100 = func.call @lattice_corner(%x1, %y0, %z0, %fx1, %fy0, %fz0)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %n010 = func.call @lattice_corner(%x0, %y1, %z0, %fx0, %fy1, %fz0)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %n110 = func.call @lattice_corner(%x1, %y1, %z0, %fx1, %fy1, %fz0)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %n001 = func.call @lattice_corner(%x0, %y0, %z1, %fx0, %fy0, %fz1)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %n101 = func.call @lattice_corner(%x1, %y0, %z1, %fx1, %fy0, %fz1)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %n011 = func.call @lattice_corner(%x0, %y1, %z1, %fx0, %fy1, %fz1)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %n111 = func.call @lattice_corner(%x1, %y1, %z1, %fx1, %fy1, %fz1)
      : (i32, i32, i32, f32, f32, f32) -> f32
  %ux = func.call @fade(%fx0) : (f32) -> f32
  %uy = func.call @fade(%fy0) : (f32) -> f32
  %uz = func.call @fade(%fz0) : (f32) -> f32
  %a00 = func.call @lerp(%n000, %n100, %ux) : (f32, f32, f32) -> f32
  %a10 = func.call @lerp(%n010, %n110, %ux) : (f32, f32, f32) -> f32
  %a01 = func.call @lerp(%n001, %n101, %ux) : (f32, f32, f32) -> f32
  %a11 = func.call @lerp(%n011, %n111, %ux) : (f32, f32, f32) -> f32
  %b0 = func.call @lerp(%a00, %a10, %uy) : (f32, f32, f32) -> f32
  %b1 = func.call @lerp(%a01, %a11, %uy) : (f32, f32, f32) -> f32
  %n = func.call @lerp(%b0, %b1, %uz) : (f32, f32, f32) -> f32
  return %n : f32
}

// Fractional Brownian motion: %octaves octaves of gradient noise, each at
// 2.03 times the frequency and half the amplitude of the last (a frequency
// ratio that is not 2 keeps the octaves' lattices from lining up), each
// shifted so that their lattice origins differ; normalized to about
// [-1, 1].
func.func private @fbm(%p: vector<3xf32>, %octaves: i32) -> f32 {
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %lac = arith.constant 2.03 : f32
  %shift = arith.constant dense<[17.31, -9.73, 5.17]> : vector<3xf32>
  %r:4 = scf.for %k = %i0 to %octaves step %i1
      iter_args(%sum = %f0, %amp = %f1, %norm = %f0, %q = %p)
      -> (f32, f32, f32, vector<3xf32>) : i32 {
    %n = func.call @gradient_noise(%q) : (vector<3xf32>) -> f32
    %sum1 = math.fma %amp, %n, %sum : f32
    %norm1 = arith.addf %norm, %amp : f32
    %amp1 = arith.mulf %amp, %half : f32
    %q0 = func.call @scale3(%q, %lac) : (vector<3xf32>, f32) -> vector<3xf32>
    %q1 = arith.addf %q0, %shift : vector<3xf32>
    scf.yield %sum1, %amp1, %norm1, %q1 : f32, f32, f32, vector<3xf32>
  }
  %safe = arith.maximumf %r#2, %f1 : f32
  %v = arith.divf %r#0, %safe : f32
  return %v : f32
}

//===----------------------------------------------------------------------===//
// Textures: square power-of-two RGBA8 images with full mip chains
//===----------------------------------------------------------------------===//

// One texel of the level at word %offset of %texels, %size texels wide,
// wrapped (repeat): RGBA in [0, 1] from the bytes of an i32 word (R in the
// low byte).
func.func private @texel(%texels: memref<?xi32>, %offset: i32, %size: i32,
                         %x: i32, %y: i32) -> vector<4xf32> {
  %i1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c24 = arith.constant 24 : i32
  %byte = arith.constant 255 : i32
  %inv = arith.constant 0.00392156886 : f32     // 1 / 255
  %mask = arith.subi %size, %i1 : i32
  // The sizes are powers of two, so the mask wraps negative coordinates too.
  %xw = arith.andi %x, %mask : i32
  %yw = arith.andi %y, %mask : i32
  %row = arith.muli %yw, %size : i32
  %i0 = arith.addi %offset, %row : i32
  %i = arith.addi %i0, %xw : i32
  %ii = arith.index_cast %i : i32 to index
  %w = memref.load %texels[%ii] : memref<?xi32>
  %r = arith.andi %w, %byte : i32
  %g0 = arith.shrui %w, %c8 : i32
  %g = arith.andi %g0, %byte : i32
  %b0 = arith.shrui %w, %c16 : i32
  %b = arith.andi %b0, %byte : i32
  %a = arith.shrui %w, %c24 : i32
  %v = vector.from_elements %r, %g, %b, %a : vector<4xi32>
  %vf = arith.uitofp %v : vector<4xi32> to vector<4xf32>
  %sv = vector.broadcast %inv : f32 to vector<4xf32>
  %c = arith.mulf %vf, %sv : vector<4xf32>
  return %c : vector<4xf32>
}

func.func private @lerp4(%a: vector<4xf32>, %b: vector<4xf32>, %t: f32)
    -> vector<4xf32> {
  %tv = vector.broadcast %t : f32 to vector<4xf32>
  %d = arith.subf %b, %a : vector<4xf32>
  %r = math.fma %tv, %d, %a : vector<4xf32>
  return %r : vector<4xf32>
}

// Bilinear lookup of mip level %level of the texture whose descriptor
// starts at %desc in %texinfo (log2 of the size, number of levels, then
// the word offset of each level), at texture coordinates in [0, 1).
func.func private @bilinear(%texinfo: memref<?xi32>, %texels: memref<?xi32>,
                            %desc: index, %level: i32, %u: f32, %v: f32)
    -> vector<4xf32> {
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %half = arith.constant 0.5 : f32
  %log2 = memref.load %texinfo[%desc] : memref<?xi32>
  %l2 = arith.addi %level, %i2 : i32
  %l2i = arith.index_cast %l2 : i32 to index
  %oi = arith.addi %desc, %l2i : index
  %offset = memref.load %texinfo[%oi] : memref<?xi32>
  %shift = arith.subi %log2, %level : i32
  %size = arith.shli %i1, %shift : i32
  %sf = arith.sitofp %size : i32 to f32
  %x0 = arith.mulf %u, %sf : f32
  %y0 = arith.mulf %v, %sf : f32
  %x = arith.subf %x0, %half : f32
  %y = arith.subf %y0, %half : f32
  %xf = math.floor %x : f32
  %yf = math.floor %y : f32
  %tx = arith.subf %x, %xf : f32
  %ty = arith.subf %y, %yf : f32
  %ix = arith.fptosi %xf : f32 to i32
  %iy = arith.fptosi %yf : f32 to i32
  %ix1 = arith.addi %ix, %i1 : i32
  %iy1 = arith.addi %iy, %i1 : i32
  %t00 = func.call @texel(%texels, %offset, %size, %ix, %iy)
      : (memref<?xi32>, i32, i32, i32, i32) -> vector<4xf32>
  %t10 = func.call @texel(%texels, %offset, %size, %ix1, %iy)
      : (memref<?xi32>, i32, i32, i32, i32) -> vector<4xf32>
  %t01 = func.call @texel(%texels, %offset, %size, %ix, %iy1)
      : (memref<?xi32>, i32, i32, i32, i32) -> vector<4xf32>
  %t11 = func.call @texel(%texels, %offset, %size, %ix1, %iy1)
      : (memref<?xi32>, i32, i32, i32, i32) -> vector<4xf32>
  %a = func.call @lerp4(%t00, %t10, %tx)
      : (vector<4xf32>, vector<4xf32>, f32) -> vector<4xf32>
  %b = func.call @lerp4(%t01, %t11, %tx)
      : (vector<4xf32>, vector<4xf32>, f32) -> vector<4xf32>
  %c = func.call @lerp4(%a, %b, %ty)
      : (vector<4xf32>, vector<4xf32>, f32) -> vector<4xf32>
  return %c : vector<4xf32>
}

// Trilinear lookup of texture %tex at (%u, %v) (repeated) and level of
// detail %lod (clamped to the chain): two bilinear lookups blended.
func.func private @texture(%texinfo: memref<?xi32>, %texels: memref<?xi32>,
                           %tex: i32, %u: f32, %v: f32, %lod: f32)
    -> vector<4xf32> {
  %c1 = arith.constant 1 : index
  %i1 = arith.constant 1 : i32
  %i16 = arith.constant 16 : i32
  %f0 = arith.constant 0.0 : f32
  %d32 = arith.muli %tex, %i16 : i32
  %desc = arith.index_cast %d32 : i32 to index
  %li = arith.addi %desc, %c1 : index
  %levels = memref.load %texinfo[%li] : memref<?xi32>
  %last = arith.subi %levels, %i1 : i32
  %lastf = arith.sitofp %last : i32 to f32
  %l0 = arith.maximumf %lod, %f0 : f32
  %l = arith.minimumf %l0, %lastf : f32
  %lf = math.floor %l : f32
  %t = arith.subf %l, %lf : f32
  %lo = arith.fptosi %lf : f32 to i32
  %lo1 = arith.addi %lo, %i1 : i32
  %hi = arith.minsi %lo1, %last : i32
  %uf = math.floor %u : f32
  %vf = math.floor %v : f32
  %uw = arith.subf %u, %uf : f32
  %vw = arith.subf %v, %vf : f32
  %a = func.call @bilinear(%texinfo, %texels, %desc, %lo, %uw, %vw)
      : (memref<?xi32>, memref<?xi32>, index, i32, f32, f32) -> vector<4xf32>
  %b = func.call @bilinear(%texinfo, %texels, %desc, %hi, %uw, %vw)
      : (memref<?xi32>, memref<?xi32>, index, i32, f32, f32) -> vector<4xf32>
  %c = func.call @lerp4(%a, %b, %t)
      : (vector<4xf32>, vector<4xf32>, f32) -> vector<4xf32>
  return %c : vector<4xf32>
}

//===----------------------------------------------------------------------===//
// Materials: the per-hit pattern evaluation
//===----------------------------------------------------------------------===//

// The colour, roughness and bump height of material %mb (the index of its
// first float in %mats; the layout is in the header) at the hit point %p
// with texture coordinates (%u, %v). The height is the texture's
// luminance plus the noise mapped to [0, 1]. %lod_base is the ray cone's
// level of detail for a texture of one texel per unit of texture space:
// adding log2 of the texture's size in texels (times its coordinate scale)
// gives its mip level.
func.func private @surface_pattern(%mats: memref<?xf32>, %mb: index,
                                   %texinfo: memref<?xi32>,
                                   %texels: memref<?xi32>,
                                   %p: vector<3xf32>, %u: f32, %v: f32,
                                   %lod_base: f32)
    -> (vector<3xf32>, f32, f32) {
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %c21 = arith.constant 21 : index
  %c22 = arith.constant 22 : index
  %c23 = arith.constant 23 : index
  %c24 = arith.constant 24 : index
  %c25 = arith.constant 25 : index
  %c26 = arith.constant 26 : index
  %c29 = arith.constant 29 : index
  %i0 = arith.constant 0 : i32
  %i16 = arith.constant 16 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %colour0 = func.call @load3(%mats, %mb, %c1)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %rough0 = func.call @load1(%mats, %mb, %c13)
      : (memref<?xf32>, index, index) -> f32
  %texf = func.call @load1(%mats, %mb, %c21)
      : (memref<?xf32>, index, index) -> f32
  %tex = arith.fptosi %texf : f32 to i32
  %textured = arith.cmpi sge, %tex, %i0 : i32
  // An image texture: its RGB (stored with gamma 2, so squared here)
  // multiplies the colour, its alpha scales the roughness by 0.5 .. 1.5.
  %t:3 = scf.if %textured -> (vector<3xf32>, f32, f32) {
    %scale = func.call @load1(%mats, %mb, %c22)
        : (memref<?xf32>, index, index) -> f32
    %d32 = arith.muli %tex, %i16 : i32
    %desc = arith.index_cast %d32 : i32 to index
    %log2i = memref.load %texinfo[%desc] : memref<?xi32>
    %log2f = arith.sitofp %log2i : i32 to f32
    %ls = math.log2 %scale : f32
    %lod0 = arith.addf %lod_base, %log2f : f32
    %lod = arith.addf %lod0, %ls : f32
    %us = arith.mulf %u, %scale : f32
    %vs = arith.mulf %v, %scale : f32
    %texel = func.call @texture(%texinfo, %texels, %tex, %us, %vs, %lod)
        : (memref<?xi32>, memref<?xi32>, i32, f32, f32, f32) -> vector<4xf32>
    %rgb = vector.extract_strided_slice %texel
        {offsets = [0], sizes = [3], strides = [1]}
        : vector<4xf32> to vector<3xf32>
    %lin = arith.mulf %rgb, %rgb : vector<3xf32>
    %c = arith.mulf %colour0, %lin : vector<3xf32>
    %a = vector.extract %texel[3] : f32 from vector<4xf32>
    %ra = arith.addf %a, %half : f32
    %r = arith.mulf %rough0, %ra : f32
    %h = func.call @luminance(%rgb) : (vector<3xf32>) -> f32
    scf.yield %c, %r, %h : vector<3xf32>, f32, f32
  } else {
    scf.yield %colour0, %rough0, %f0 : vector<3xf32>, f32, f32
  }
  // Solid fBm noise at the hit point: it blends the colour towards the
  // material's noise colour and moves the roughness up or down.
  %octf = func.call @load1(%mats, %mb, %c24)
      : (memref<?xf32>, index, index) -> f32
  %octaves = arith.fptosi %octf : f32 to i32
  %noisy = arith.cmpi sgt, %octaves, %i0 : i32
  %n:3 = scf.if %noisy -> (vector<3xf32>, f32, f32) {
    %freq = func.call @load1(%mats, %mb, %c23)
        : (memref<?xf32>, index, index) -> f32
    %amount = func.call @load1(%mats, %mb, %c25)
        : (memref<?xf32>, index, index) -> f32
    %ncolour = func.call @load3(%mats, %mb, %c26)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %ramount = func.call @load1(%mats, %mb, %c29)
        : (memref<?xf32>, index, index) -> f32
    %q = func.call @scale3(%p, %freq) : (vector<3xf32>, f32) -> vector<3xf32>
    %f = func.call @fbm(%q, %octaves) : (vector<3xf32>, i32) -> f32
    // fBm clusters around 0: stretch it before mapping it to [0, 1].
    %f2 = arith.mulf %f, %two : f32
    %m0 = math.fma %f2, %half, %half : f32
    %m = func.call @clamp01(%m0) : (f32) -> f32
    %w = arith.mulf %amount, %m : f32
    %c = func.call @lerp3(%t#0, %ncolour, %w)
        : (vector<3xf32>, vector<3xf32>, f32) -> vector<3xf32>
    %s0 = arith.mulf %m, %two : f32
    %s1 = arith.subf %s0, %f1 : f32
    %s2 = math.fma %ramount, %s1, %f1 : f32
    %r = arith.mulf %t#1, %s2 : f32
    %h = arith.addf %t#2, %m : f32
    scf.yield %c, %r, %h : vector<3xf32>, f32, f32
  } else {
    scf.yield %t#0, %t#1, %t#2 : vector<3xf32>, f32, f32
  }
  %r0 = arith.maximumf %n#1, %f0 : f32
  %r1 = arith.minimumf %r0, %f1 : f32
  return %n#0, %r1, %n#2 : vector<3xf32>, f32, f32
}

// The bump height of material %mb at (%u, %v) and %p: what
// @surface_pattern returns as its height (the texture's luminance plus the
// noise mapped to [0, 1]), without the colour and the roughness.
func.func private @bump_height(%mats: memref<?xf32>, %mb: index,
                               %texinfo: memref<?xi32>,
                               %texels: memref<?xi32>, %p: vector<3xf32>,
                               %u: f32, %v: f32, %lod_base: f32) -> f32 {
  %c21 = arith.constant 21 : index
  %c22 = arith.constant 22 : index
  %c23 = arith.constant 23 : index
  %c24 = arith.constant 24 : index
  %i0 = arith.constant 0 : i32
  %i16 = arith.constant 16 : i32
  %f0 = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %texf = func.call @load1(%mats, %mb, %c21)
      : (memref<?xf32>, index, index) -> f32
  %tex = arith.fptosi %texf : f32 to i32
  %textured = arith.cmpi sge, %tex, %i0 : i32
  %ht = scf.if %textured -> (f32) {
    %scale = func.call @load1(%mats, %mb, %c22)
        : (memref<?xf32>, index, index) -> f32
    %d32 = arith.muli %tex, %i16 : i32
    %desc = arith.index_cast %d32 : i32 to index
    %log2i = memref.load %texinfo[%desc] : memref<?xi32>
    %log2f = arith.sitofp %log2i : i32 to f32
    %ls = math.log2 %scale : f32
    %lod0 = arith.addf %lod_base, %log2f : f32
    %lod = arith.addf %lod0, %ls : f32
    %us = arith.mulf %u, %scale : f32
    %vs = arith.mulf %v, %scale : f32
    %texel = func.call @texture(%texinfo, %texels, %tex, %us, %vs, %lod)
        : (memref<?xi32>, memref<?xi32>, i32, f32, f32, f32) -> vector<4xf32>
    %tr = vector.extract %texel[0] : f32 from vector<4xf32>
    %tg = vector.extract %texel[1] : f32 from vector<4xf32>
    %tb = vector.extract %texel[2] : f32 from vector<4xf32>
    %rgb = vector.from_elements %tr, %tg, %tb : vector<3xf32>
    %h = func.call @luminance(%rgb) : (vector<3xf32>) -> f32
    scf.yield %h : f32
  } else {
    scf.yield %f0 : f32
  }
  %octf = func.call @load1(%mats, %mb, %c24)
      : (memref<?xf32>, index, index) -> f32
  %octaves = arith.fptosi %octf : f32 to i32
  %noisy = arith.cmpi sgt, %octaves, %i0 : i32
  %hn = scf.if %noisy -> (f32) {
    %freq = func.call @load1(%mats, %mb, %c23)
        : (memref<?xf32>, index, index) -> f32
    %q = func.call @scale3(%p, %freq) : (vector<3xf32>, f32) -> vector<3xf32>
    %f = func.call @fbm(%q, %octaves) : (vector<3xf32>, i32) -> f32
    %f2 = arith.mulf %f, %two : f32
    %m0 = math.fma %f2, %half, %half : f32
    %m = func.call @clamp01(%m0) : (f32) -> f32
    %h = arith.addf %ht, %m : f32
    scf.yield %h : f32
  } else {
    scf.yield %ht : f32
  }
  return %hn : f32
}

//===----------------------------------------------------------------------===//
// Microfacet and Fresnel terms (all in the shading frame: the normal is +z)
//===----------------------------------------------------------------------===//

// The anisotropic GGX (Trowbridge-Reitz) distribution of microfacet
// normals %h, of roughness %ax along the frame's x axis (the tangent) and
// %ay along y: 1 / (pi ax ay ((hx/ax)^2 + (hy/ay)^2 + hz^2)^2).
func.func private @ggx_d(%ax: f32, %ay: f32, %h: vector<3xf32>) -> f32 {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %pi = arith.constant 3.14159274 : f32
  %hx = vector.extract %h[0] : f32 from vector<3xf32>
  %hy = vector.extract %h[1] : f32 from vector<3xf32>
  %hz = vector.extract %h[2] : f32 from vector<3xf32>
  %sx = arith.divf %hx, %ax : f32
  %sy = arith.divf %hy, %ay : f32
  %zz = arith.mulf %hz, %hz : f32
  %e0 = math.fma %sx, %sx, %zz : f32
  %e = math.fma %sy, %sy, %e0 : f32
  %e2 = arith.mulf %e, %e : f32
  %axy = arith.mulf %ax, %ay : f32
  %pa = arith.mulf %axy, %pi : f32
  %den = arith.mulf %pa, %e2 : f32
  %d = arith.divf %f1, %den : f32
  %up = arith.cmpf ogt, %hz, %f0 : f32
  %r = arith.select %up, %d, %f0 : f32
  return %r : f32
}

// Smith's Lambda for anisotropic GGX: (sqrt(1 + alpha(w)^2 tan^2) - 1) / 2
// with alpha(w)^2 tan^2 = (wx^2 ax^2 + wy^2 ay^2) / wz^2.
func.func private @ggx_lambda(%ax: f32, %ay: f32, %w: vector<3xf32>) -> f32 {
  %f1 = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %tiny = arith.constant 1.0e-8 : f32
  %wx = vector.extract %w[0] : f32 from vector<3xf32>
  %wy = vector.extract %w[1] : f32 from vector<3xf32>
  %wz = vector.extract %w[2] : f32 from vector<3xf32>
  %px = arith.mulf %wx, %ax : f32
  %py = arith.mulf %wy, %ay : f32
  %pxx = arith.mulf %px, %px : f32
  %n = math.fma %py, %py, %pxx : f32
  %zz0 = arith.mulf %wz, %wz : f32
  %zz = arith.maximumf %zz0, %tiny : f32
  %t = arith.divf %n, %zz : f32
  %x = arith.addf %t, %f1 : f32
  %s = math.sqrt %x : f32
  %sm = arith.subf %s, %f1 : f32
  %l = arith.mulf %sm, %half : f32
  return %l : f32
}

// The height-correlated Smith masking-shadowing term of both directions.
func.func private @ggx_g2(%ax: f32, %ay: f32, %wo: vector<3xf32>,
                          %wi: vector<3xf32>) -> f32 {
  %f1 = arith.constant 1.0 : f32
  %lo = func.call @ggx_lambda(%ax, %ay, %wo)
      : (f32, f32, vector<3xf32>) -> f32
  %li = func.call @ggx_lambda(%ax, %ay, %wi)
      : (f32, f32, vector<3xf32>) -> f32
  %s0 = arith.addf %f1, %lo : f32
  %s = arith.addf %s0, %li : f32
  %g = arith.divf %f1, %s : f32
  return %g : f32
}

// A microfacet normal distributed as D(h) h.z: a slope drawn from the
// distribution of roughness 1 (tan^2 = u1 / (1 - u1)), stretched by
// (ax, ay).
func.func private @ggx_sample(%ax: f32, %ay: f32, %u1: f32, %u2: f32)
    -> vector<3xf32> {
  %f1 = arith.constant 1.0 : f32
  %umax = arith.constant 0.99999 : f32
  %twoPi = arith.constant 6.28318548 : f32
  %u = arith.minimumf %u1, %umax : f32
  %om = arith.subf %f1, %u : f32
  %t2 = arith.divf %u, %om : f32
  %t = math.sqrt %t2 : f32
  %phi = arith.mulf %u2, %twoPi : f32
  %cp = math.cos %phi : f32
  %sp = math.sin %phi : f32
  %x0 = arith.mulf %t, %cp : f32
  %y0 = arith.mulf %t, %sp : f32
  %x = arith.mulf %x0, %ax : f32
  %y = arith.mulf %y0, %ay : f32
  %s = vector.from_elements %x, %y, %f1 : vector<3xf32>
  %h = func.call @normalize3(%s) : (vector<3xf32>) -> vector<3xf32>
  return %h : vector<3xf32>
}

// Burley's GTR1 distribution (the clear coat's long tail).
func.func private @gtr1_d(%alpha: f32, %c: f32) -> f32 {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %pi = arith.constant 3.14159274 : f32
  %a2 = arith.mulf %alpha, %alpha : f32
  %a2m1 = arith.subf %a2, %f1 : f32
  %la2 = math.log %a2 : f32
  %c2 = arith.mulf %c, %c : f32
  %k = math.fma %a2m1, %c2, %f1 : f32
  %d0 = arith.mulf %pi, %la2 : f32
  %den = arith.mulf %d0, %k : f32
  %d = arith.divf %a2m1, %den : f32
  %up = arith.cmpf ogt, %c, %f0 : f32
  %r = arith.select %up, %d, %f0 : f32
  return %r : f32
}

// A microfacet normal distributed as GTR1(h) cos(h).
func.func private @gtr1_sample(%alpha: f32, %u1: f32, %u2: f32)
    -> vector<3xf32> {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %twoPi = arith.constant 6.28318548 : f32
  %a2 = arith.mulf %alpha, %alpha : f32
  %e = arith.subf %f1, %u1 : f32
  %pw = math.powf %a2, %e : f32
  %num = arith.subf %f1, %pw : f32
  %den = arith.subf %f1, %a2 : f32
  %c20 = arith.divf %num, %den : f32
  %c2 = func.call @clamp01(%c20) : (f32) -> f32
  %c = math.sqrt %c2 : f32
  %s20 = arith.subf %f1, %c2 : f32
  %s2 = arith.maximumf %s20, %f0 : f32
  %s = math.sqrt %s2 : f32
  %phi = arith.mulf %u2, %twoPi : f32
  %cp = math.cos %phi : f32
  %sp = math.sin %phi : f32
  %x = arith.mulf %s, %cp : f32
  %y = arith.mulf %s, %sp : f32
  %h = vector.from_elements %x, %y, %c : vector<3xf32>
  return %h : vector<3xf32>
}

// A cosine-distributed direction of the upper hemisphere (pdf z / pi).
func.func private @cosine_sample(%u1: f32, %u2: f32) -> vector<3xf32> {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %twoPi = arith.constant 6.28318548 : f32
  %r = math.sqrt %u1 : f32
  %phi = arith.mulf %u2, %twoPi : f32
  %cp = math.cos %phi : f32
  %sp = math.sin %phi : f32
  %x = arith.mulf %r, %cp : f32
  %y = arith.mulf %r, %sp : f32
  %z0 = arith.subf %f1, %u1 : f32
  %z1 = arith.maximumf %z0, %f0 : f32
  %z = math.sqrt %z1 : f32
  %w = vector.from_elements %x, %y, %z : vector<3xf32>
  return %w : vector<3xf32>
}

// The mirror image of %wo about %h: 2 (wo . h) h - wo.
func.func private @reflect(%wo: vector<3xf32>, %h: vector<3xf32>)
    -> vector<3xf32> {
  %two = arith.constant 2.0 : f32
  %d = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %k = arith.mulf %d, %two : f32
  %kh = func.call @scale3(%h, %k) : (vector<3xf32>, f32) -> vector<3xf32>
  %r = arith.subf %kh, %wo : vector<3xf32>
  return %r : vector<3xf32>
}

// %wo refracted through the microfacet %h (wo . h > 0) into the medium of
// relative index %etap (transmitted over incident): the direction and
// whether it exists (false under total internal reflection).
func.func private @refract(%wo: vector<3xf32>, %h: vector<3xf32>, %etap: f32)
    -> (vector<3xf32>, i1) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %ci = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %ci2 = arith.mulf %ci, %ci : f32
  %s2i0 = arith.subf %f1, %ci2 : f32
  %s2i = arith.maximumf %s2i0, %f0 : f32
  %e2 = arith.mulf %etap, %etap : f32
  %s2t = arith.divf %s2i, %e2 : f32
  %ok = arith.cmpf olt, %s2t, %f1 : f32
  %c2t0 = arith.subf %f1, %s2t : f32
  %c2t = arith.maximumf %c2t0, %f0 : f32
  %ct = math.sqrt %c2t : f32
  %inv = arith.divf %f1, %etap : f32
  %a = arith.mulf %ci, %inv : f32
  %k = arith.subf %a, %ct : f32
  %mwo = arith.negf %inv : f32
  %t0 = func.call @scale3(%wo, %mwo) : (vector<3xf32>, f32) -> vector<3xf32>
  %t = func.call @axpy3(%t0, %k, %h)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  return %t, %ok : vector<3xf32>, i1
}

// The unpolarized Fresnel reflectance of a dielectric interface for light
// arriving at cosine %ci (>= 0) from the side whose index is 1 / %eta times
// that of the other side (1 under total internal reflection).
func.func private @fresnel_dielectric(%ci0: f32, %eta: f32) -> f32 {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %ci = func.call @clamp01(%ci0) : (f32) -> f32
  %ci2 = arith.mulf %ci, %ci : f32
  %s2i = arith.subf %f1, %ci2 : f32
  %e2 = arith.mulf %eta, %eta : f32
  %s2t = arith.divf %s2i, %e2 : f32
  %tir = arith.cmpf oge, %s2t, %f1 : f32
  %c2t0 = arith.subf %f1, %s2t : f32
  %c2t = arith.maximumf %c2t0, %f0 : f32
  %ct = math.sqrt %c2t : f32
  %eci = arith.mulf %eta, %ci : f32
  %ect = arith.mulf %eta, %ct : f32
  %pn = arith.subf %eci, %ct : f32
  %pd = arith.addf %eci, %ct : f32
  %rpar = arith.divf %pn, %pd : f32
  %sn = arith.subf %ci, %ect : f32
  %sd = arith.addf %ci, %ect : f32
  %rper = arith.divf %sn, %sd : f32
  %a = arith.mulf %rpar, %rpar : f32
  %b = arith.mulf %rper, %rper : f32
  %ab = arith.addf %a, %b : f32
  %f = arith.mulf %ab, %half : f32
  %r = arith.select %tir, %f1, %f : f32
  return %r : f32
}

// The Fresnel reflectance of a conductor of complex index %eta + i %k per
// channel, from air, at cosine %c (the exact formula for unpolarized light).
func.func private @fresnel_conductor(%c0: f32, %eta: vector<3xf32>,
                                     %k: vector<3xf32>) -> vector<3xf32> {
  %half3 = arith.constant dense<0.5> : vector<3xf32>
  %four3 = arith.constant dense<4.0> : vector<3xf32>
  %two = arith.constant 2.0 : f32
  %f1 = arith.constant 1.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %tiny3 = arith.constant dense<1.0e-12> : vector<3xf32>
  %c = func.call @clamp01(%c0) : (f32) -> f32
  %cc = arith.mulf %c, %c : f32
  %ss = arith.subf %f1, %cc : f32
  %c2 = vector.broadcast %cc : f32 to vector<3xf32>
  %s2 = vector.broadcast %ss : f32 to vector<3xf32>
  %e2 = arith.mulf %eta, %eta : vector<3xf32>
  %k2 = arith.mulf %k, %k : vector<3xf32>
  %t00 = arith.subf %e2, %k2 : vector<3xf32>
  %t0 = arith.subf %t00, %s2 : vector<3xf32>
  %t0t0 = arith.mulf %t0, %t0 : vector<3xf32>
  %ek = arith.mulf %e2, %k2 : vector<3xf32>
  %ek4 = arith.mulf %ek, %four3 : vector<3xf32>
  %ab2s = arith.addf %t0t0, %ek4 : vector<3xf32>
  %ab2 = math.sqrt %ab2s : vector<3xf32>
  %t1 = arith.addf %ab2, %c2 : vector<3xf32>
  %as0 = arith.addf %ab2, %t0 : vector<3xf32>
  %as1 = arith.mulf %as0, %half3 : vector<3xf32>
  %as = arith.maximumf %as1, %zero3 : vector<3xf32>
  %a = math.sqrt %as : vector<3xf32>
  %tc = arith.mulf %c, %two : f32
  %t2 = func.call @scale3(%a, %tc) : (vector<3xf32>, f32) -> vector<3xf32>
  %rsn = arith.subf %t1, %t2 : vector<3xf32>
  %rsd0 = arith.addf %t1, %t2 : vector<3xf32>
  %rsd = arith.maximumf %rsd0, %tiny3 : vector<3xf32>
  %rs = arith.divf %rsn, %rsd : vector<3xf32>
  %ssss = arith.mulf %ss, %ss : f32
  %s4 = vector.broadcast %ssss : f32 to vector<3xf32>
  %t30 = arith.mulf %c2, %ab2 : vector<3xf32>
  %t3 = arith.addf %t30, %s4 : vector<3xf32>
  %t4 = func.call @scale3(%t2, %ss) : (vector<3xf32>, f32) -> vector<3xf32>
  %rpn = arith.subf %t3, %t4 : vector<3xf32>
  %rpd0 = arith.addf %t3, %t4 : vector<3xf32>
  %rpd = arith.maximumf %rpd0, %tiny3 : vector<3xf32>
  %rp0 = arith.divf %rpn, %rpd : vector<3xf32>
  %rp = arith.mulf %rs, %rp0 : vector<3xf32>
  %sum = arith.addf %rs, %rp : vector<3xf32>
  %f = arith.mulf %sum, %half3 : vector<3xf32>
  return %f : vector<3xf32>
}

// Schlick's weight (1 - c)^5.
func.func private @schlick_weight(%c: f32) -> f32 {
  %f1 = arith.constant 1.0 : f32
  %cl = func.call @clamp01(%c) : (f32) -> f32
  %m = arith.subf %f1, %cl : f32
  %m2 = arith.mulf %m, %m : f32
  %m4 = arith.mulf %m2, %m2 : f32
  %m5 = arith.mulf %m4, %m : f32
  return %m5 : f32
}

// The power heuristic (beta 2): a^2 / (a^2 + b^2).
func.func private @power_heuristic(%a: f32, %b: f32) -> f32 {
  %f0 = arith.constant 0.0 : f32
  %aa = arith.mulf %a, %a : f32
  %bb = arith.mulf %b, %b : f32
  %s = arith.addf %aa, %bb : f32
  %w = arith.divf %aa, %s : f32
  %pos = arith.cmpf ogt, %s, %f0 : f32
  %r = arith.select %pos, %w, %f0 : f32
  return %r : f32
}

// GGX alphas (along the tangent and the bitangent) from a perceptual
// roughness and an anisotropy in [0, 1) as in Burley 2012: alpha =
// roughness^2 stretched by the aspect sqrt(1 - 0.9 anisotropy), each kept
// above 1e-3 so that the distribution stays finite in single precision.
func.func private @alphas(%rough: f32, %aniso: f32) -> (f32, f32) {
  %lo = arith.constant 1.0e-3 : f32
  %f1 = arith.constant 1.0 : f32
  %k = arith.constant -0.9 : f32
  %a = arith.mulf %rough, %rough : f32
  %asp2 = math.fma %aniso, %k, %f1 : f32
  %asp = math.sqrt %asp2 : f32
  %ax0 = arith.divf %a, %asp : f32
  %ay0 = arith.mulf %a, %asp : f32
  %ax = arith.maximumf %ax0, %lo : f32
  %ay = arith.maximumf %ay0, %lo : f32
  return %ax, %ay : f32, f32
}

// The GGX reflection pdf of a direction whose half vector is %h, given
// %wo: D(h) h.z / (4 |wo . h|).
func.func private @ggx_reflection_pdf(%ax: f32, %ay: f32, %wo: vector<3xf32>,
                                      %h: vector<3xf32>) -> f32 {
  %four = arith.constant 4.0 : f32
  %tiny = arith.constant 1.0e-8 : f32
  %hz = vector.extract %h[2] : f32 from vector<3xf32>
  %d = func.call @ggx_d(%ax, %ay, %h) : (f32, f32, vector<3xf32>) -> f32
  %woh0 = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %woh1 = math.absf %woh0 : f32
  %woh = arith.maximumf %woh1, %tiny : f32
  %dh = arith.mulf %d, %hz : f32
  %den = arith.mulf %woh, %four : f32
  %p = arith.divf %dh, %den : f32
  return %p : f32
}

//===----------------------------------------------------------------------===//
// BSDFs. The shading frame's normal faces the outgoing direction %wo, so
// wo.z > 0 (a shading normal that disagrees gives no contribution). Each
// *_eval returns f(wo, wi) |wi.z| (RGB) and the pdf with which the
// material's sampler chooses %wi. The samplers return a direction, its
// weight f |wi.z| / pdf, and its pdf (0 for a specular choice).
//===----------------------------------------------------------------------===//

// Lambert.
func.func private @diffuse_eval(%colour: vector<3xf32>, %wo: vector<3xf32>,
                                %wi: vector<3xf32>) -> (vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %invPi = arith.constant 0.318309873 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf ogt, %iz, %f0 : f32
  %ok = arith.andi %k0, %k1 : i1
  %pdf0 = arith.mulf %iz, %invPi : f32
  %f = func.call @scale3(%colour, %pdf0) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %fr = func.call @select3(%ok, %f, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf = arith.select %ok, %pdf0, %f0 : f32
  return %fr, %pdf : vector<3xf32>, f32
}

// A rough conductor: anisotropic GGX with the complex-index Fresnel term,
// tinted by %tint (white for a plain metal; a texture or noise can darken
// it).
func.func private @conductor_eval(%tint: vector<3xf32>, %eta: vector<3xf32>,
                                  %k: vector<3xf32>, %ax: f32, %ay: f32,
                                  %wo: vector<3xf32>, %wi: vector<3xf32>)
    -> (vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf ogt, %iz, %f0 : f32
  %ok = arith.andi %k0, %k1 : i1
  %hs = arith.addf %wo, %wi : vector<3xf32>
  %h = func.call @normalize3(%hs) : (vector<3xf32>) -> vector<3xf32>
  %woh = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %d = func.call @ggx_d(%ax, %ay, %h)
      : (f32, f32, vector<3xf32>) -> f32
  %g = func.call @ggx_g2(%ax, %ay, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %fr0 = func.call @fresnel_conductor(%woh, %eta, %k)
      : (f32, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %fr = arith.mulf %fr0, %tint : vector<3xf32>
  %dg = arith.mulf %d, %g : f32
  %den = arith.mulf %oz, %four : f32
  %s = arith.divf %dg, %den : f32
  %f = func.call @scale3(%fr, %s) : (vector<3xf32>, f32) -> vector<3xf32>
  %pdf0 = func.call @ggx_reflection_pdf(%ax, %ay, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %fo = func.call @select3(%ok, %f, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf = arith.select %ok, %pdf0, %f0 : f32
  return %fo, %pdf : vector<3xf32>, f32
}

// Samples the conductor: a GGX microfacet (the normal itself when
// %specular) and the mirror direction about it.
func.func private @conductor_sample(%tint: vector<3xf32>,
                                    %eta: vector<3xf32>, %k: vector<3xf32>,
                                    %ax: f32, %ay: f32, %specular: i1,
                                    %wo: vector<3xf32>, %u1: f32, %u2: f32)
    -> (vector<3xf32>, vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %up = arith.constant dense<[0.0, 0.0, 1.0]> : vector<3xf32>
  %hs = func.call @ggx_sample(%ax, %ay, %u1, %u2)
      : (f32, f32, f32, f32) -> vector<3xf32>
  %h = func.call @select3(%specular, %up, %hs)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %wi = func.call @reflect(%wo, %h) : (vector<3xf32>, vector<3xf32>)
      -> vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %hz = vector.extract %h[2] : f32 from vector<3xf32>
  %woh = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf ogt, %iz, %f0 : f32
  %k2 = arith.cmpf ogt, %woh, %f0 : f32
  %k01 = arith.andi %k0, %k1 : i1
  %ok = arith.andi %k01, %k2 : i1
  %fr0 = func.call @fresnel_conductor(%woh, %eta, %k)
      : (f32, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %fr = arith.mulf %fr0, %tint : vector<3xf32>
  // f cos / pdf = F G2 (wo . h) / (wo.z h.z) for D(h) h.z sampling.
  %g = func.call @ggx_g2(%ax, %ay, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %gw = arith.mulf %g, %woh : f32
  %ozhz = arith.mulf %oz, %hz : f32
  %gs = arith.divf %gw, %ozhz : f32
  %s = arith.select %specular, %f1, %gs : f32
  %w0 = func.call @scale3(%fr, %s) : (vector<3xf32>, f32) -> vector<3xf32>
  %w = func.call @select3(%ok, %w0, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf0 = func.call @ggx_reflection_pdf(%ax, %ay, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %pdf = arith.select %specular, %f0, %pdf0 : f32
  return %wi, %w, %pdf : vector<3xf32>, vector<3xf32>, f32
}

// A rough dielectric (Walter et al. 2007): GGX reflection and transmission
// at an interface of relative index %etap (transmitted over incident side);
// transmitted light is tinted by %tint and scaled by 1 / etap^2 (radiance).
func.func private @dielectric_eval(%tint: vector<3xf32>, %ax: f32, %ay: f32,
                                   %etap: f32, %wo: vector<3xf32>,
                                   %wi: vector<3xf32>)
    -> (vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %four = arith.constant 4.0 : f32
  %tiny = arith.constant 1.0e-12 : f32
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %refl = arith.cmpf ogt, %iz, %f0 : f32
  // The generalized half vector, turned to the +z side.
  %e = arith.select %refl, %f1, %etap : f32
  %hs0 = func.call @axpy3(%wo, %e, %wi)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %hl2 = func.call @dot3(%hs0, %hs0) : (vector<3xf32>, vector<3xf32>) -> f32
  %hsafe = arith.cmpf ogt, %hl2, %tiny : f32
  %h0 = func.call @normalize3(%hs0) : (vector<3xf32>) -> vector<3xf32>
  %h0z = vector.extract %h0[2] : f32 from vector<3xf32>
  %hneg = arith.cmpf olt, %h0z, %f0 : f32
  %mh0 = arith.negf %h0 : vector<3xf32>
  %h = func.call @select3(%hneg, %mh0, %h0)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %hz = vector.extract %h[2] : f32 from vector<3xf32>
  %woh = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %wih = func.call @dot3(%wi, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  // Back-facing microfacets contribute nothing.
  %s1 = arith.mulf %wih, %iz : f32
  %s2 = arith.mulf %woh, %oz : f32
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf one, %iz, %f0 : f32
  %k2 = arith.cmpf ogt, %s1, %f0 : f32
  %k3 = arith.cmpf ogt, %s2, %f0 : f32
  %k01 = arith.andi %k0, %k1 : i1
  %k23 = arith.andi %k2, %k3 : i1
  %k0123 = arith.andi %k01, %k23 : i1
  %ok = arith.andi %k0123, %hsafe : i1
  %fr = func.call @fresnel_dielectric(%woh, %etap) : (f32, f32) -> f32
  %d = func.call @ggx_d(%ax, %ay, %h)
      : (f32, f32, vector<3xf32>) -> f32
  %g = func.call @ggx_g2(%ax, %ay, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %dg = arith.mulf %d, %g : f32
  // Reflection: D G F / (4 wo.z), pdf F D h.z / (4 wo . h).
  %rf0 = arith.mulf %dg, %fr : f32
  %rden = arith.mulf %oz, %four : f32
  %rf = arith.divf %rf0, %rden : f32
  %rpdf0 = func.call @ggx_reflection_pdf(%ax, %ay, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %rpdf = arith.mulf %rpdf0, %fr : f32
  // Transmission: D G (1 - F) |wi.h wo.h| / (wo.z denom etap^2) with
  // denom = (wi.h + wo.h / etap)^2; pdf (1 - F) D h.z |wi.h| / denom.
  %tfr = arith.subf %f1, %fr : f32
  %woe = arith.divf %woh, %etap : f32
  %dsum = arith.addf %wih, %woe : f32
  %den0 = arith.mulf %dsum, %dsum : f32
  %den = arith.maximumf %den0, %tiny : f32
  %awih = math.absf %wih : f32
  %awoh = math.absf %woh : f32
  %ww = arith.mulf %awih, %awoh : f32
  %tf0 = arith.mulf %dg, %tfr : f32
  %tf1 = arith.mulf %tf0, %ww : f32
  %ee = arith.mulf %etap, %etap : f32
  %tden0 = arith.mulf %oz, %den : f32
  %tden = arith.mulf %tden0, %ee : f32
  %tf = arith.divf %tf1, %tden : f32
  %dhz = arith.mulf %d, %hz : f32
  %tp0 = arith.mulf %dhz, %tfr : f32
  %tp1 = arith.mulf %tp0, %awih : f32
  %tpdf = arith.divf %tp1, %den : f32
  %rv = func.call @scale3(%one3, %rf) : (vector<3xf32>, f32) -> vector<3xf32>
  %tv = func.call @scale3(%tint, %tf) : (vector<3xf32>, f32) -> vector<3xf32>
  %fv = func.call @select3(%refl, %rv, %tv)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf0 = arith.select %refl, %rpdf, %tpdf : f32
  %fo = func.call @select3(%ok, %fv, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf = arith.select %ok, %pdf0, %f0 : f32
  return %fo, %pdf : vector<3xf32>, f32
}

// Samples the dielectric: a GGX microfacet (the normal when %specular),
// then reflection with the probability of its Fresnel reflectance (always
// under total internal reflection), transmission otherwise.
func.func private @dielectric_sample(%tint: vector<3xf32>, %ax: f32, %ay: f32,
                                     %etap: f32, %specular: i1,
                                     %wo: vector<3xf32>, %u0: f32, %u1: f32,
                                     %u2: f32)
    -> (vector<3xf32>, vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %tiny = arith.constant 1.0e-12 : f32
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %up = arith.constant dense<[0.0, 0.0, 1.0]> : vector<3xf32>
  %hs = func.call @ggx_sample(%ax, %ay, %u1, %u2)
      : (f32, f32, f32, f32) -> vector<3xf32>
  %h = func.call @select3(%specular, %up, %hs)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %hz = vector.extract %h[2] : f32 from vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %woh = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %fr = func.call @fresnel_dielectric(%woh, %etap) : (f32, f32) -> f32
  %refl = arith.cmpf olt, %u0, %fr : f32
  %wr = func.call @reflect(%wo, %h) : (vector<3xf32>, vector<3xf32>)
      -> vector<3xf32>
  %wt:2 = func.call @refract(%wo, %h, %etap)
      : (vector<3xf32>, vector<3xf32>, f32) -> (vector<3xf32>, i1)
  %wi = func.call @select3(%refl, %wr, %wt#0)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %above = arith.cmpf ogt, %iz, %f0 : f32
  %below = arith.cmpf olt, %iz, %f0 : f32
  %tok = arith.andi %wt#1, %below : i1
  %side = arith.select %refl, %above, %tok : i1
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf ogt, %woh, %f0 : f32
  %k01 = arith.andi %k0, %k1 : i1
  %ok = arith.andi %k01, %side : i1
  // f cos / pdf = G2 (wo . h) / (wo.z h.z), times tint / etap^2 through.
  %g = func.call @ggx_g2(%ax, %ay, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %gw = arith.mulf %g, %woh : f32
  %ozhz = arith.mulf %oz, %hz : f32
  %gs = arith.divf %gw, %ozhz : f32
  %s = arith.select %specular, %f1, %gs : f32
  %ee = arith.mulf %etap, %etap : f32
  %st = arith.divf %s, %ee : f32
  %rw = func.call @scale3(%one3, %s) : (vector<3xf32>, f32) -> vector<3xf32>
  %tw = func.call @scale3(%tint, %st) : (vector<3xf32>, f32) -> vector<3xf32>
  %w0 = func.call @select3(%refl, %rw, %tw)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %w = func.call @select3(%ok, %w0, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  // The pdf of the choice, for MIS: as in @dielectric_eval.
  %d = func.call @ggx_d(%ax, %ay, %h)
      : (f32, f32, vector<3xf32>) -> f32
  %rpdf0 = func.call @ggx_reflection_pdf(%ax, %ay, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %rpdf = arith.mulf %rpdf0, %fr : f32
  %wih = func.call @dot3(%wi, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %woe = arith.divf %woh, %etap : f32
  %dsum = arith.addf %wih, %woe : f32
  %den0 = arith.mulf %dsum, %dsum : f32
  %den = arith.maximumf %den0, %tiny : f32
  %awih = math.absf %wih : f32
  %tfr = arith.subf %f1, %fr : f32
  %dhz = arith.mulf %d, %hz : f32
  %tp0 = arith.mulf %dhz, %tfr : f32
  %tp1 = arith.mulf %tp0, %awih : f32
  %tpdf = arith.divf %tp1, %den : f32
  %pdf0 = arith.select %refl, %rpdf, %tpdf : f32
  %pdf = arith.select %specular, %f0, %pdf0 : f32
  return %wi, %w, %pdf : vector<3xf32>, vector<3xf32>, f32
}

// Rough plastic: a diffuse substrate of colour %colour under a GGX
// dielectric coat of index %ior. The coat reflects F(wo . h) D G / (4 wo.z);
// the substrate gets what the coat lets through on the way in and out,
// (1 - F(wo.z)) (1 - F(wi.z)) colour / pi. The sampler picks the coat with
// probability @plastic_coat_chance.
func.func private @plastic_coat_chance(%ior: f32, %oz: f32) -> f32 {
  %quarter = arith.constant 0.25 : f32
  %hi = arith.constant 0.9 : f32
  %fo = func.call @fresnel_dielectric(%oz, %ior) : (f32, f32) -> f32
  %p0 = arith.addf %fo, %quarter : f32
  %p = arith.minimumf %p0, %hi : f32
  return %p : f32
}

func.func private @plastic_eval(%colour: vector<3xf32>, %ax: f32, %ay: f32,
                                %ior: f32, %wo: vector<3xf32>,
                                %wi: vector<3xf32>) -> (vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %four = arith.constant 4.0 : f32
  %invPi = arith.constant 0.318309873 : f32
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf ogt, %iz, %f0 : f32
  %ok = arith.andi %k0, %k1 : i1
  %hs = arith.addf %wo, %wi : vector<3xf32>
  %h = func.call @normalize3(%hs) : (vector<3xf32>) -> vector<3xf32>
  %woh = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %fs = func.call @fresnel_dielectric(%woh, %ior) : (f32, f32) -> f32
  %d = func.call @ggx_d(%ax, %ay, %h)
      : (f32, f32, vector<3xf32>) -> f32
  %g = func.call @ggx_g2(%ax, %ay, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %dg = arith.mulf %d, %g : f32
  %s0 = arith.mulf %dg, %fs : f32
  %sden = arith.mulf %oz, %four : f32
  %spec = arith.divf %s0, %sden : f32
  %fo = func.call @fresnel_dielectric(%oz, %ior) : (f32, f32) -> f32
  %fi = func.call @fresnel_dielectric(%iz, %ior) : (f32, f32) -> f32
  %to = arith.subf %f1, %fo : f32
  %ti = arith.subf %f1, %fi : f32
  %tt = arith.mulf %to, %ti : f32
  %ttc = arith.mulf %tt, %iz : f32
  %kd = arith.mulf %ttc, %invPi : f32
  %diff = func.call @scale3(%colour, %kd) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %f = func.call @axpy3(%diff, %spec, %one3)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %pc = func.call @plastic_coat_chance(%ior, %oz) : (f32, f32) -> f32
  %ps = func.call @ggx_reflection_pdf(%ax, %ay, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %pd = arith.mulf %iz, %invPi : f32
  // pc ps + (1 - pc) pd
  %pmix = math.fma %pc, %ps, %pd : f32
  %pcpd = arith.mulf %pc, %pd : f32
  %pdf0 = arith.subf %pmix, %pcpd : f32
  %fo3 = func.call @select3(%ok, %f, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf = arith.select %ok, %pdf0, %f0 : f32
  return %fo3, %pdf : vector<3xf32>, f32
}

// A Disney-like principled BSDF (after Burley 2012): a retro-reflective
// diffuse lobe and a sheen lobe (both fading with %metallic), a GGX
// specular lobe whose Schlick F0 goes from 0.08 %specular to the base
// colour with %metallic, and a GTR1 clear coat (weight %coat, gloss
// %gloss). The sampler chooses diffuse, specular or coat with the
// probabilities of @disney_lobe_chances.
func.func private @disney_lobe_chances(%metallic: f32, %coat: f32)
    -> (f32, f32) {
  %f1 = arith.constant 1.0 : f32
  %quarter = arith.constant 0.25 : f32
  %wd = arith.subf %f1, %metallic : f32
  %wc = arith.mulf %coat, %quarter : f32
  %t0 = arith.addf %wd, %f1 : f32
  %t = arith.addf %t0, %wc : f32
  %pd = arith.divf %wd, %t : f32
  %pc = arith.divf %wc, %t : f32
  return %pd, %pc : f32, f32
}

func.func private @disney_eval(%colour: vector<3xf32>, %rough: f32,
                               %ax: f32, %ay: f32, %metallic: f32,
                               %specular: f32, %sheen: f32,
                               %coat: f32, %gloss: f32, %wo: vector<3xf32>,
                               %wi: vector<3xf32>) -> (vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %quarter = arith.constant 0.25 : f32
  %c008 = arith.constant 0.08 : f32
  %c004 = arith.constant 0.04 : f32
  %c096 = arith.constant 0.96 : f32
  %coatG = arith.constant 0.25 : f32
  %ca0 = arith.constant 0.1 : f32
  %ca1 = arith.constant 0.001 : f32
  %lumMin = arith.constant 1.0e-4 : f32
  %invPi = arith.constant 0.318309873 : f32
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf ogt, %iz, %f0 : f32
  %ok = arith.andi %k0, %k1 : i1
  %hs = arith.addf %wo, %wi : vector<3xf32>
  %h = func.call @normalize3(%hs) : (vector<3xf32>) -> vector<3xf32>
  %hz = vector.extract %h[2] : f32 from vector<3xf32>
  %cd = func.call @dot3(%wi, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %fwi = func.call @schlick_weight(%iz) : (f32) -> f32
  %fwo = func.call @schlick_weight(%oz) : (f32) -> f32
  %fwd = func.call @schlick_weight(%cd) : (f32) -> f32
  // Diffuse with Burley's retro-reflection: FD90 = 0.5 + 2 r cos_d^2.
  %cd2 = arith.mulf %cd, %cd : f32
  %rcd2 = arith.mulf %rough, %cd2 : f32
  %fd90 = math.fma %rcd2, %two, %half : f32
  %fd90m = arith.subf %fd90, %f1 : f32
  %li = math.fma %fd90m, %fwi, %f1 : f32
  %lo = math.fma %fd90m, %fwo, %f1 : f32
  %fdl = arith.mulf %li, %lo : f32
  %dielectricPart = arith.subf %f1, %metallic : f32
  %kd0 = arith.mulf %fdl, %invPi : f32
  %kd = arith.mulf %kd0, %dielectricPart : f32
  %diff = func.call @scale3(%colour, %kd) : (vector<3xf32>, f32)
      -> vector<3xf32>
  // Sheen, tinted halfway towards the colour's hue.
  %lum0 = func.call @luminance(%colour) : (vector<3xf32>) -> f32
  %lum = arith.maximumf %lum0, %lumMin : f32
  %invLum = arith.divf %f1, %lum : f32
  %hue = func.call @scale3(%colour, %invLum) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %sheenTint = func.call @lerp3(%one3, %hue, %half)
      : (vector<3xf32>, vector<3xf32>, f32) -> vector<3xf32>
  %ks0 = arith.mulf %sheen, %fwd : f32
  %ks = arith.mulf %ks0, %dielectricPart : f32
  %sh = func.call @scale3(%sheenTint, %ks) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %lambertish = arith.addf %diff, %sh : vector<3xf32>
  %lcos = func.call @scale3(%lambertish, %iz) : (vector<3xf32>, f32)
      -> vector<3xf32>
  // Specular: D G F / (4 wo.z) (times cos already).
  %sp08 = arith.mulf %specular, %c008 : f32
  %f0d = func.call @scale3(%one3, %sp08) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %f0c = func.call @lerp3(%f0d, %colour, %metallic)
      : (vector<3xf32>, vector<3xf32>, f32) -> vector<3xf32>
  %f0r = arith.subf %one3, %f0c : vector<3xf32>
  %fs = func.call @axpy3(%f0c, %fwd, %f0r)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %d = func.call @ggx_d(%ax, %ay, %h)
      : (f32, f32, vector<3xf32>) -> f32
  %g = func.call @ggx_g2(%ax, %ay, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %dg = arith.mulf %d, %g : f32
  %sden = arith.mulf %oz, %four : f32
  %skal = arith.divf %dg, %sden : f32
  %spec = func.call @scale3(%fs, %skal) : (vector<3xf32>, f32)
      -> vector<3xf32>
  // Clear coat: 0.25 coat GTR1 G(0.25) F(0.04) / (4 wo.z).
  %ca = func.call @lerp(%ca0, %ca1, %gloss) : (f32, f32, f32) -> f32
  %dc = func.call @gtr1_d(%ca, %hz) : (f32, f32) -> f32
  %gc = func.call @ggx_g2(%coatG, %coatG, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %fc = math.fma %c096, %fwd, %c004 : f32
  %cc0 = arith.mulf %dc, %gc : f32
  %cc1 = arith.mulf %cc0, %fc : f32
  %cc2 = arith.mulf %cc1, %coat : f32
  %cc3 = arith.mulf %cc2, %quarter : f32
  %ccl = arith.divf %cc3, %sden : f32
  %f1v = arith.addf %lcos, %spec : vector<3xf32>
  %f = func.call @axpy3(%f1v, %ccl, %one3)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  // The pdf of the lobe mixture.
  %ch:2 = func.call @disney_lobe_chances(%metallic, %coat)
      : (f32, f32) -> (f32, f32)
  %pD = arith.mulf %iz, %invPi : f32
  %pS = func.call @ggx_reflection_pdf(%ax, %ay, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %woh0 = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %wohA = math.absf %woh0 : f32
  %wohm = arith.constant 1.0e-8 : f32
  %woh = arith.maximumf %wohA, %wohm : f32
  %dchz = arith.mulf %dc, %hz : f32
  %cden = arith.mulf %woh, %four : f32
  %pC = arith.divf %dchz, %cden : f32
  %psC0 = arith.subf %f1, %ch#0 : f32
  %psC = arith.subf %psC0, %ch#1 : f32
  %m0 = arith.mulf %ch#0, %pD : f32
  %m1 = math.fma %psC, %pS, %m0 : f32
  %pdf0 = math.fma %ch#1, %pC, %m1 : f32
  %fo = func.call @select3(%ok, %f, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf = arith.select %ok, %pdf0, %f0 : f32
  return %fo, %pdf : vector<3xf32>, f32
}

// A layered material: a rough conductor (%eta, %k, alphas %ax, %ay)
// under a clear dielectric coat of index %ior and roughness alpha
// %coat_alpha that absorbs 1 - %tint per unit of %thickness along the
// path through it (Beer-Lambert, both ways). The coat's own reflection is
// the GGX dielectric term; the base sees what the coat transmits,
// (1 - F(wo.z)) (1 - F(wi.z)) (refraction into the coat is neglected).
// The sampler picks the coat with probability @coated_coat_chance.
func.func private @coated_coat_chance(%ior: f32, %oz: f32) -> f32 {
  %quarter = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %fo = func.call @fresnel_dielectric(%oz, %ior) : (f32, f32) -> f32
  %p = math.fma %fo, %half, %quarter : f32
  return %p : f32
}

func.func private @coated_eval(%tint: vector<3xf32>, %ax: f32, %ay: f32,
                               %eta: vector<3xf32>, %k: vector<3xf32>,
                               %coat_alpha: f32, %ior: f32, %thickness: f32,
                               %wo: vector<3xf32>, %wi: vector<3xf32>)
    -> (vector<3xf32>, f32) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %four = arith.constant 4.0 : f32
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %iz = vector.extract %wi[2] : f32 from vector<3xf32>
  %k0 = arith.cmpf ogt, %oz, %f0 : f32
  %k1 = arith.cmpf ogt, %iz, %f0 : f32
  %ok = arith.andi %k0, %k1 : i1
  %hs = arith.addf %wo, %wi : vector<3xf32>
  %h = func.call @normalize3(%hs) : (vector<3xf32>) -> vector<3xf32>
  %woh = func.call @dot3(%wo, %h) : (vector<3xf32>, vector<3xf32>) -> f32
  %sden = arith.mulf %oz, %four : f32
  // The coat.
  %fcoat = func.call @fresnel_dielectric(%woh, %ior) : (f32, f32) -> f32
  %dc = func.call @ggx_d(%coat_alpha, %coat_alpha, %h)
      : (f32, f32, vector<3xf32>) -> f32
  %gc = func.call @ggx_g2(%coat_alpha, %coat_alpha, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %c0 = arith.mulf %dc, %gc : f32
  %c1 = arith.mulf %c0, %fcoat : f32
  %coatTerm = arith.divf %c1, %sden : f32
  // The base, seen through the coat.
  %fb = func.call @fresnel_conductor(%woh, %eta, %k)
      : (f32, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %db = func.call @ggx_d(%ax, %ay, %h)
      : (f32, f32, vector<3xf32>) -> f32
  %gb = func.call @ggx_g2(%ax, %ay, %wo, %wi)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %b0 = arith.mulf %db, %gb : f32
  %b1 = arith.divf %b0, %sden : f32
  %fo = func.call @fresnel_dielectric(%oz, %ior) : (f32, f32) -> f32
  %fi = func.call @fresnel_dielectric(%iz, %ior) : (f32, f32) -> f32
  %to = arith.subf %f1, %fo : f32
  %ti = arith.subf %f1, %fi : f32
  %tt = arith.mulf %to, %ti : f32
  %b2 = arith.mulf %b1, %tt : f32
  %sigma0 = arith.subf %one3, %tint : vector<3xf32>
  %sigma = func.call @scale3(%sigma0, %thickness) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %io = arith.divf %f1, %oz : f32
  %ii = arith.divf %f1, %iz : f32
  %len = arith.addf %io, %ii : f32
  %mlen = arith.negf %len : f32
  %tau = func.call @scale3(%sigma, %mlen) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %atten = math.exp %tau : vector<3xf32>
  %base0 = arith.mulf %fb, %atten : vector<3xf32>
  %base = func.call @scale3(%base0, %b2) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %f = func.call @axpy3(%base, %coatTerm, %one3)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %pc = func.call @coated_coat_chance(%ior, %oz) : (f32, f32) -> f32
  %pcoat = func.call @ggx_reflection_pdf(%coat_alpha, %coat_alpha, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %pbase = func.call @ggx_reflection_pdf(%ax, %ay, %wo, %h)
      : (f32, f32, vector<3xf32>, vector<3xf32>) -> f32
  %pdiff = arith.subf %pcoat, %pbase : f32
  %pdf0 = math.fma %pc, %pdiff, %pbase : f32
  %fo3 = func.call @select3(%ok, %f, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %pdf = arith.select %ok, %pdf0, %f0 : f32
  return %fo3, %pdf : vector<3xf32>, f32
}

// The weight f cos / pdf of a direction chosen from a lobe mixture (0 where
// the pdf is 0).
func.func private @mixture_weight(%f: vector<3xf32>, %pdf: f32)
    -> vector<3xf32> {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %pos = arith.cmpf ogt, %pdf, %f0 : f32
  %safe = arith.select %pos, %pdf, %f1 : f32
  %inv = arith.divf %f1, %safe : f32
  %w = func.call @scale3(%f, %inv) : (vector<3xf32>, f32) -> vector<3xf32>
  %r = func.call @select3(%pos, %w, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  return %r : vector<3xf32>
}

// f(wo, wi) |wi.z| and the sampling pdf of material %mb of type %kind with
// the pattern's %colour and %rough; %etap is the relative index a
// dielectric refracts into.
func.func private @bsdf_eval(%mats: memref<?xf32>, %mb: index, %kind: i32,
                             %colour: vector<3xf32>, %rough: f32, %etap: f32,
                             %wo: vector<3xf32>, %wi: vector<3xf32>)
    -> (vector<3xf32>, f32) {
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c18 = arith.constant 18 : index
  %c19 = arith.constant 19 : index
  %c20 = arith.constant 20 : index
  %f0 = arith.constant 0.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %c31 = arith.constant 31 : index
  %aniso = func.call @load1(%mats, %mb, %c31)
      : (memref<?xf32>, index, index) -> f32
  %al:2 = func.call @alphas(%rough, %aniso) : (f32, f32) -> (f32, f32)
  %sel = arith.index_cast %kind : i32 to index
  %r:2 = scf.index_switch %sel -> vector<3xf32>, f32
  case 0 {
    %e:2 = func.call @diffuse_eval(%colour, %wo, %wi)
        : (vector<3xf32>, vector<3xf32>, vector<3xf32>) -> (vector<3xf32>, f32)
    scf.yield %e#0, %e#1 : vector<3xf32>, f32
  }
  case 1 {
    %eta = func.call @load3(%mats, %mb, %c7)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %k = func.call @load3(%mats, %mb, %c10)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %e:2 = func.call @conductor_eval(%colour, %eta, %k, %al#0, %al#1, %wo,
                                     %wi)
        : (vector<3xf32>, vector<3xf32>, vector<3xf32>, f32, f32,
           vector<3xf32>, vector<3xf32>) -> (vector<3xf32>, f32)
    scf.yield %e#0, %e#1 : vector<3xf32>, f32
  }
  case 2 {
    %e:2 = func.call @dielectric_eval(%colour, %al#0, %al#1, %etap, %wo,
                                      %wi)
        : (vector<3xf32>, f32, f32, f32, vector<3xf32>, vector<3xf32>)
          -> (vector<3xf32>, f32)
    scf.yield %e#0, %e#1 : vector<3xf32>, f32
  }
  case 3 {
    %ior = func.call @load1(%mats, %mb, %c14)
        : (memref<?xf32>, index, index) -> f32
    %e:2 = func.call @plastic_eval(%colour, %al#0, %al#1, %ior, %wo, %wi)
        : (vector<3xf32>, f32, f32, f32, vector<3xf32>, vector<3xf32>)
          -> (vector<3xf32>, f32)
    scf.yield %e#0, %e#1 : vector<3xf32>, f32
  }
  case 4 {
    %metallic = func.call @load1(%mats, %mb, %c15)
        : (memref<?xf32>, index, index) -> f32
    %specular = func.call @load1(%mats, %mb, %c16)
        : (memref<?xf32>, index, index) -> f32
    %sheen = func.call @load1(%mats, %mb, %c17)
        : (memref<?xf32>, index, index) -> f32
    %coat = func.call @load1(%mats, %mb, %c18)
        : (memref<?xf32>, index, index) -> f32
    %gloss = func.call @load1(%mats, %mb, %c19)
        : (memref<?xf32>, index, index) -> f32
    %e:2 = func.call @disney_eval(%colour, %rough, %al#0, %al#1, %metallic,
                                  %specular, %sheen, %coat, %gloss, %wo,
                                  %wi)
        : (vector<3xf32>, f32, f32, f32, f32, f32, f32, f32, f32,
           vector<3xf32>, vector<3xf32>) -> (vector<3xf32>, f32)
    scf.yield %e#0, %e#1 : vector<3xf32>, f32
  }
  case 5 {
    %eta = func.call @load3(%mats, %mb, %c7)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %k = func.call @load3(%mats, %mb, %c10)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %ior = func.call @load1(%mats, %mb, %c14)
        : (memref<?xf32>, index, index) -> f32
    %crough = func.call @load1(%mats, %mb, %c19)
        : (memref<?xf32>, index, index) -> f32
    %thick = func.call @load1(%mats, %mb, %c20)
        : (memref<?xf32>, index, index) -> f32
    %f0c = arith.constant 0.0 : f32
    %ca:2 = func.call @alphas(%crough, %f0c) : (f32, f32) -> (f32, f32)
    %e:2 = func.call @coated_eval(%colour, %al#0, %al#1, %eta, %k, %ca#0,
                                  %ior, %thick, %wo, %wi)
        : (vector<3xf32>, f32, f32, vector<3xf32>, vector<3xf32>, f32, f32,
           f32, vector<3xf32>, vector<3xf32>) -> (vector<3xf32>, f32)
    scf.yield %e#0, %e#1 : vector<3xf32>, f32
  }
  default {
    scf.yield %zero3, %f0 : vector<3xf32>, f32
  }
  return %r#0, %r#1 : vector<3xf32>, f32
}

// Samples material %mb from the uniform numbers %u0 (the lobe or the
// Fresnel choice), %u1 and %u2 (the direction): the direction (in the
// shading frame), its weight and pdf. %specular: a smooth conductor or
// dielectric, sampled as a mirror or a perfect interface.
func.func private @bsdf_sample(%mats: memref<?xf32>, %mb: index, %kind: i32,
                               %colour: vector<3xf32>, %rough: f32,
                               %etap: f32, %specular: i1,
                               %wo: vector<3xf32>, %u0: f32, %u1: f32,
                               %u2: f32)
    -> (vector<3xf32>, vector<3xf32>, f32) {
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c18 = arith.constant 18 : index
  %c19 = arith.constant 19 : index
  %c20 = arith.constant 20 : index
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %invPi = arith.constant 0.318309873 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %up = arith.constant dense<[0.0, 0.0, 1.0]> : vector<3xf32>
  %c31 = arith.constant 31 : index
  %aniso = func.call @load1(%mats, %mb, %c31)
      : (memref<?xf32>, index, index) -> f32
  %al:2 = func.call @alphas(%rough, %aniso) : (f32, f32) -> (f32, f32)
  %oz = vector.extract %wo[2] : f32 from vector<3xf32>
  %sel = arith.index_cast %kind : i32 to index
  %r:3 = scf.index_switch %sel -> vector<3xf32>, vector<3xf32>, f32
  case 0 {
    // Lambert: cosine sampling, weight = colour.
    %wi = func.call @cosine_sample(%u1, %u2) : (f32, f32) -> vector<3xf32>
    %iz = vector.extract %wi[2] : f32 from vector<3xf32>
    %k0 = arith.cmpf ogt, %oz, %f0 : f32
    %k1 = arith.cmpf ogt, %iz, %f0 : f32
    %ok = arith.andi %k0, %k1 : i1
    %w = func.call @select3(%ok, %colour, %zero3)
        : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
    %pdf = arith.mulf %iz, %invPi : f32
    scf.yield %wi, %w, %pdf : vector<3xf32>, vector<3xf32>, f32
  }
  case 1 {
    %eta = func.call @load3(%mats, %mb, %c7)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %k = func.call @load3(%mats, %mb, %c10)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %s:3 = func.call @conductor_sample(%colour, %eta, %k, %al#0, %al#1,
                                       %specular, %wo, %u1, %u2)
        : (vector<3xf32>, vector<3xf32>, vector<3xf32>, f32, f32, i1,
           vector<3xf32>, f32, f32) -> (vector<3xf32>, vector<3xf32>, f32)
    scf.yield %s#0, %s#1, %s#2 : vector<3xf32>, vector<3xf32>, f32
  }
  case 2 {
    %s:3 = func.call @dielectric_sample(%colour, %al#0, %al#1, %etap,
                                        %specular, %wo, %u0, %u1, %u2)
        : (vector<3xf32>, f32, f32, f32, i1, vector<3xf32>, f32, f32, f32)
          -> (vector<3xf32>, vector<3xf32>, f32)
    scf.yield %s#0, %s#1, %s#2 : vector<3xf32>, vector<3xf32>, f32
  }
  case 3 {
    // Plastic: the coat's GGX reflection or the substrate's cosine lobe,
    // weighted by the whole BSDF over the mixture pdf.
    %ior = func.call @load1(%mats, %mb, %c14)
        : (memref<?xf32>, index, index) -> f32
    %pc = func.call @plastic_coat_chance(%ior, %oz) : (f32, f32) -> f32
    %coatPick = arith.cmpf olt, %u0, %pc : f32
    %h = func.call @ggx_sample(%al#0, %al#1, %u1, %u2)
        : (f32, f32, f32, f32) -> vector<3xf32>
    %wr = func.call @reflect(%wo, %h) : (vector<3xf32>, vector<3xf32>)
        -> vector<3xf32>
    %wd = func.call @cosine_sample(%u1, %u2) : (f32, f32) -> vector<3xf32>
    %wi = func.call @select3(%coatPick, %wr, %wd)
        : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
    %e:2 = func.call @plastic_eval(%colour, %al#0, %al#1, %ior, %wo, %wi)
        : (vector<3xf32>, f32, f32, f32, vector<3xf32>, vector<3xf32>)
          -> (vector<3xf32>, f32)
    %w = func.call @mixture_weight(%e#0, %e#1) : (vector<3xf32>, f32)
        -> vector<3xf32>
    scf.yield %wi, %w, %e#1 : vector<3xf32>, vector<3xf32>, f32
  }
  case 4 {
    // Disney: diffuse (cosine), specular (GGX) or clear coat (GTR1).
    %metallic = func.call @load1(%mats, %mb, %c15)
        : (memref<?xf32>, index, index) -> f32
    %specw = func.call @load1(%mats, %mb, %c16)
        : (memref<?xf32>, index, index) -> f32
    %sheen = func.call @load1(%mats, %mb, %c17)
        : (memref<?xf32>, index, index) -> f32
    %coat = func.call @load1(%mats, %mb, %c18)
        : (memref<?xf32>, index, index) -> f32
    %gloss = func.call @load1(%mats, %mb, %c19)
        : (memref<?xf32>, index, index) -> f32
    %ch:2 = func.call @disney_lobe_chances(%metallic, %coat)
        : (f32, f32) -> (f32, f32)
    %pickD = arith.cmpf olt, %u0, %ch#0 : f32
    %notC = arith.subf %f1, %ch#1 : f32
    %pickS = arith.cmpf olt, %u0, %notC : f32
    %ca0 = arith.constant 0.1 : f32
    %ca1 = arith.constant 0.001 : f32
    %ca = func.call @lerp(%ca0, %ca1, %gloss) : (f32, f32, f32) -> f32
    %hs = func.call @ggx_sample(%al#0, %al#1, %u1, %u2)
        : (f32, f32, f32, f32) -> vector<3xf32>
    %hc = func.call @gtr1_sample(%ca, %u1, %u2)
        : (f32, f32, f32) -> vector<3xf32>
    %h = func.call @select3(%pickS, %hs, %hc)
        : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
    %wr = func.call @reflect(%wo, %h) : (vector<3xf32>, vector<3xf32>)
        -> vector<3xf32>
    %wd = func.call @cosine_sample(%u1, %u2) : (f32, f32) -> vector<3xf32>
    %wi = func.call @select3(%pickD, %wd, %wr)
        : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
    %e:2 = func.call @disney_eval(%colour, %rough, %al#0, %al#1, %metallic,
                                  %specw, %sheen, %coat, %gloss, %wo, %wi)
        : (vector<3xf32>, f32, f32, f32, f32, f32, f32, f32, f32,
           vector<3xf32>, vector<3xf32>) -> (vector<3xf32>, f32)
    %w = func.call @mixture_weight(%e#0, %e#1) : (vector<3xf32>, f32)
        -> vector<3xf32>
    scf.yield %wi, %w, %e#1 : vector<3xf32>, vector<3xf32>, f32
  }
  case 5 {
    // Coated conductor: the coat's GGX lobe or the base's.
    %eta = func.call @load3(%mats, %mb, %c7)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %k = func.call @load3(%mats, %mb, %c10)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %ior = func.call @load1(%mats, %mb, %c14)
        : (memref<?xf32>, index, index) -> f32
    %crough = func.call @load1(%mats, %mb, %c19)
        : (memref<?xf32>, index, index) -> f32
    %thick = func.call @load1(%mats, %mb, %c20)
        : (memref<?xf32>, index, index) -> f32
    %ca:2 = func.call @alphas(%crough, %f0) : (f32, f32) -> (f32, f32)
    %pc = func.call @coated_coat_chance(%ior, %oz) : (f32, f32) -> f32
    %coatPick = arith.cmpf olt, %u0, %pc : f32
    %ax = arith.select %coatPick, %ca#0, %al#0 : f32
    %ay = arith.select %coatPick, %ca#1, %al#1 : f32
    %h = func.call @ggx_sample(%ax, %ay, %u1, %u2)
        : (f32, f32, f32, f32) -> vector<3xf32>
    %wi = func.call @reflect(%wo, %h) : (vector<3xf32>, vector<3xf32>)
        -> vector<3xf32>
    %e:2 = func.call @coated_eval(%colour, %al#0, %al#1, %eta, %k, %ca#0,
                                  %ior, %thick, %wo, %wi)
        : (vector<3xf32>, f32, f32, vector<3xf32>, vector<3xf32>, f32, f32,
           f32, vector<3xf32>, vector<3xf32>) -> (vector<3xf32>, f32)
    %w = func.call @mixture_weight(%e#0, %e#1) : (vector<3xf32>, f32)
        -> vector<3xf32>
    scf.yield %wi, %w, %e#1 : vector<3xf32>, vector<3xf32>, f32
  }
  default {
    scf.yield %up, %zero3, %f0 : vector<3xf32>, vector<3xf32>, f32
  }
  return %r#0, %r#1, %r#2 : vector<3xf32>, vector<3xf32>, f32
}

//===----------------------------------------------------------------------===//
// Lights
//===----------------------------------------------------------------------===//

// The area of triangle %tri and its unit geometric normal (front: the side
// from which its vertices run counter-clockwise).
func.func private @triangle_frame(%tris: memref<?xf32>, %tri: i32)
    -> (f32, vector<3xf32>) {
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : i32
  %half = arith.constant 0.5 : f32
  %f1 = arith.constant 1.0 : f32
  %b32 = arith.muli %tri, %c9 : i32
  %base = arith.index_cast %b32 : i32 to index
  %e1 = func.call @load3(%tris, %base, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e2 = func.call @load3(%tris, %base, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %c = func.call @cross3(%e1, %e2)
      : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %cc = func.call @dot3(%c, %c) : (vector<3xf32>, vector<3xf32>) -> f32
  %len = math.sqrt %cc : f32
  %area = arith.mulf %len, %half : f32
  %inv = arith.divf %f1, %len : f32
  %n = func.call @scale3(%c, %inv) : (vector<3xf32>, f32) -> vector<3xf32>
  return %area, %n : f32, vector<3xf32>
}

// The solid-angle density with which next-event estimation picks the point
// at distance %dist on an emissive triangle of area %area seen under the
// cosine %cos_light: one of %num_lights triangles uniformly, then a uniform
// point on it.
func.func private @light_pdf(%dist: f32, %cos_light: f32, %area: f32,
                             %num_lights: i32) -> f32 {
  %f0 = arith.constant 0.0 : f32
  %n = arith.sitofp %num_lights : i32 to f32
  %d2 = arith.mulf %dist, %dist : f32
  %ca = arith.mulf %cos_light, %area : f32
  %can = arith.mulf %ca, %n : f32
  %pdf = arith.divf %d2, %can : f32
  %facing = arith.cmpf ogt, %cos_light, %f0 : f32
  %r = arith.select %facing, %pdf, %f0 : f32
  return %r : f32
}

// Next-event estimation's light sample for the point %p: an emissive
// triangle chosen uniformly (%u1) and a uniform point on it (%u2, %u3).
// Returns the unit direction to it, the distance, its emitted radiance and
// the solid-angle pdf (0 when the light faces away: it emits on its front
// side only).
func.func private @sample_light(%p: vector<3xf32>, %num_lights: i32,
                                %u1: f32, %u2: f32, %u3: f32,
                                %tris: memref<?xf32>, %trimat: memref<?xi32>,
                                %mats: memref<?xf32>, %lights: memref<?xi32>)
    -> (vector<3xf32>, f32, vector<3xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %i1 = arith.constant 1 : i32
  %c9 = arith.constant 9 : i32
  %c32 = arith.constant 32 : i32
  %f1 = arith.constant 1.0 : f32
  %nf = arith.sitofp %num_lights : i32 to f32
  %pick0 = arith.mulf %u1, %nf : f32
  %pick1 = arith.fptosi %pick0 : f32 to i32
  %last = arith.subi %num_lights, %i1 : i32
  %pick = arith.minsi %pick1, %last : i32
  %picki = arith.index_cast %pick : i32 to index
  %light = memref.load %lights[%picki] : memref<?xi32>
  %b32 = arith.muli %light, %c9 : i32
  %base = arith.index_cast %b32 : i32 to index
  %v0 = func.call @load3(%tris, %base, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e1 = func.call @load3(%tris, %base, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e2 = func.call @load3(%tris, %base, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  // q = v0 + s (1 - u3) e1 + s u3 e2 with s = sqrt(u2).
  %s = math.sqrt %u2 : f32
  %om = arith.subf %f1, %u3 : f32
  %b1 = arith.mulf %s, %om : f32
  %b2 = arith.mulf %s, %u3 : f32
  %q0 = func.call @axpy3(%v0, %b1, %e1)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %q = func.call @axpy3(%q0, %b2, %e2)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %fr:2 = func.call @triangle_frame(%tris, %light)
      : (memref<?xf32>, i32) -> (f32, vector<3xf32>)
  %li = arith.index_cast %light : i32 to index
  %lmat = memref.load %trimat[%li] : memref<?xi32>
  %lb32 = arith.muli %lmat, %c32 : i32
  %lb = arith.index_cast %lb32 : i32 to index
  %le = func.call @load3(%mats, %lb, %c4)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %to = arith.subf %q, %p : vector<3xf32>
  %dd = func.call @dot3(%to, %to) : (vector<3xf32>, vector<3xf32>) -> f32
  %dist = math.sqrt %dd : f32
  %invd = arith.divf %f1, %dist : f32
  %wi = func.call @scale3(%to, %invd) : (vector<3xf32>, f32) -> vector<3xf32>
  %cl0 = func.call @dot3(%fr#1, %wi) : (vector<3xf32>, vector<3xf32>) -> f32
  %cl = arith.negf %cl0 : f32
  %pdf = func.call @light_pdf(%dist, %cl, %fr#0, %num_lights)
      : (f32, f32, f32, i32) -> f32
  return %wi, %dist, %le, %pdf : vector<3xf32>, f32, vector<3xf32>, f32
}

// The sky's radiance in direction %d: from the horizon colour to the
// zenith colour with the height of the direction.
func.func private @sky(%scene: memref<?xf32>, %d: vector<3xf32>)
    -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c13 = arith.constant 13 : index
  %c16 = arith.constant 16 : index
  %zen = func.call @load3(%scene, %c0, %c13)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %hor = func.call @load3(%scene, %c0, %c16)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %dy = vector.extract %d[1] : f32 from vector<3xf32>
  %t0 = func.call @clamp01(%dy) : (f32) -> f32
  %t = math.sqrt %t0 : f32
  %s = func.call @lerp3(%hor, %zen, %t)
      : (vector<3xf32>, vector<3xf32>, f32) -> vector<3xf32>
  return %s : vector<3xf32>
}

//===----------------------------------------------------------------------===//
// The renderer
//===----------------------------------------------------------------------===//

coro.func @path_trace_heavy(%width: i32, %height: i32, %spp: i32,
                            %max_depth: i32, %rr_depth: i32,
                            %num_lights: i32, %scene: memref<?xf32>,
                            %tris: memref<?xf32>, %attrs: memref<?xf32>,
                            %trimat: memref<?xi32>, %mats: memref<?xf32>,
                            %nodesf: memref<?xf32>, %nodesi: memref<?xi32>,
                            %lights: memref<?xi32>, %texinfo: memref<?xi32>,
                            %texels: memref<?xi32>,
                            %samples: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c14 = arith.constant 14 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %i3 = arith.constant 3 : i32
  %i4 = arith.constant 4 : i32
  %i6 = arith.constant 6 : i32
  %i15 = arith.constant 15 : i32
  %i9 = arith.constant 9 : i32
  %i32 = arith.constant 32 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %far = arith.constant 3.0e38 : f32
  %lift = arith.constant 1.0e-4 : f32           // ray offset off a surface
  %rrMax = arith.constant 0.95 : f32            // highest survival chance
  %smooth = arith.constant 0.02 : f32           // specular below this roughness
  %shorten = arith.constant 0.999 : f32
  %tiny = arith.constant 1.0e-12 : f32
  %cosMin = arith.constant 1.0e-4 : f32
  %true = arith.constant true
  %false = arith.constant false
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %golden = arith.constant -1640531527 : i32     // 0x9E3779B9 as an i32

  // The instance is sample %sample of pixel %pixel.
  %inst = arith.index_cast %id : index to i32
  %pixel = arith.divui %inst, %spp : i32
  %sample = arith.remui %inst, %spp : i32
  %x = arith.remui %pixel, %width : i32
  %y = arith.divui %pixel, %width : i32

  // The camera ray through a jittered point of the pixel:
  // u = (2 (x + jx) - W) / H, v = (H - 2 (y + jy)) / H.
  %camPos = func.call @load3(%scene, %c0, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %forward = func.call @load3(%scene, %c0, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %right = func.call @load3(%scene, %c0, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %up = func.call @load3(%scene, %c0, %c9)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %tanHalf = memref.load %scene[%c12] : memref<?xf32>
  %ps = func.call @pcg_hash(%pixel) : (i32) -> i32
  %sg = arith.muli %sample, %golden : i32
  %seed = arith.xori %ps, %sg : i32
  %rng0 = func.call @pcg_hash(%seed) : (i32) -> i32
  %jx:2 = func.call @rand(%rng0) : (i32) -> (f32, i32)
  %jy:2 = func.call @rand(%jx#1) : (i32) -> (f32, i32)
  %xf = arith.uitofp %x : i32 to f32
  %yf = arith.uitofp %y : i32 to f32
  %wf = arith.uitofp %width : i32 to f32
  %hf = arith.uitofp %height : i32 to f32
  %px = arith.addf %xf, %jx#0 : f32
  %py = arith.addf %yf, %jy#0 : f32
  %px2 = arith.mulf %px, %f2 : f32
  %py2 = arith.mulf %py, %f2 : f32
  %un = arith.subf %px2, %wf : f32
  %vn = arith.subf %hf, %py2 : f32
  %u0 = arith.divf %un, %hf : f32
  %v0 = arith.divf %vn, %hf : f32
  %cu = arith.mulf %u0, %tanHalf : f32
  %cv = arith.mulf %v0, %tanHalf : f32
  %d0 = func.call @axpy3(%forward, %cu, %right)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %d1 = func.call @axpy3(%d0, %cv, %up)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %dir0 = func.call @normalize3(%d1) : (vector<3xf32>) -> vector<3xf32>
  // The ray cone (Akenine-Moeller et al., Ray Tracing Gems 2019, ch. 20):
  // it starts as a point with the spread of one pixel.
  %th2 = arith.mulf %tanHalf, %f2 : f32
  %spread0 = arith.divf %th2, %hf : f32

  // The path. State: the bounce, the ray, the throughput, the radiance,
  // the RNG, whether it goes on, the pdf of the BSDF sample that made the
  // ray (0 for the camera ray and specular samples, whose emission gets no
  // MIS weight), and the ray cone's width at the origin and its spread.
  %path:10 = scf.while (%depth = %i0, %org = %camPos, %dir = %dir0,
                        %thr = %one3, %rad = %zero3, %rng = %jy#1,
                        %alive = %true, %bsdfPdf = %f0, %coneW = %f0,
                        %coneS = %spread0)
      : (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
         i32, i1, f32, f32, f32)
     -> (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
         i32, i1, f32, f32, f32) {
    scf.condition(%alive) %depth, %org, %dir, %thr, %rad, %rng, %alive,
        %bsdfPdf, %coneW, %coneS
        : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
          i32, i1, f32, f32, f32
  } do {
  ^bb0(%depth: i32, %org: vector<3xf32>, %dir: vector<3xf32>,
       %thr: vector<3xf32>, %rad: vector<3xf32>, %rng: i32, %alive: i1,
       %bsdfPdf: f32, %coneW: f32, %coneS: f32):
    // (1) Before the closest-hit traversal.
    coro.suspend "intersect"
    %hit:4 = func.call @traverse(%org, %dir, %far, %false, %nodesf, %nodesi,
                                 %tris)
        : (vector<3xf32>, vector<3xf32>, f32, i1, memref<?xf32>,
           memref<?xi32>, memref<?xf32>) -> (f32, i32, f32, f32)
    %missed = arith.cmpi slt, %hit#1, %i0 : i32
    %next:10 = scf.if %missed
        -> (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
            i32, i1, f32, f32, f32) {
      // (2) The ray escaped: the sky (found by BSDF sampling only).
      coro.suspend "miss"
      %sky = func.call @sky(%scene, %dir)
          : (memref<?xf32>, vector<3xf32>) -> vector<3xf32>
      %skyT = arith.mulf %thr, %sky : vector<3xf32>
      %rad1 = arith.addf %rad, %skyT : vector<3xf32>
      scf.yield %depth, %org, %dir, %thr, %rad1, %rng, %false, %bsdfPdf,
          %coneW, %coneS
          : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
            i32, i1, f32, f32, f32
    } else {
      %tri = arith.index_cast %hit#1 : i32 to index
      %matId = memref.load %trimat[%tri] : memref<?xi32>
      %mb32 = arith.muli %matId, %i32 : i32
      %mb = arith.index_cast %mb32 : i32 to index
      %kindf = memref.load %mats[%mb] : memref<?xf32>
      %kind = arith.fptosi %kindf : f32 to i32
      // The material index, in a frame field the wavefront scheduler can
      // sort its queues by (--sort-by=material).
      coro.promise "material", %matId : i32
      %emissive = arith.cmpi eq, %kind, %i6 : i32
      %r:10 = scf.if %emissive
          -> (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
              vector<3xf32>, i32, i1, f32, f32, f32) {
        // A light: its emission (front side only), MIS weighted against
        // next-event estimation when a BSDF sample found it.
        %lf:2 = func.call @triangle_frame(%tris, %hit#1)
            : (memref<?xf32>, i32) -> (f32, vector<3xf32>)
        %cosIn = func.call @dot3(%lf#1, %dir)
            : (vector<3xf32>, vector<3xf32>) -> f32
        %cosL = arith.negf %cosIn : f32
        %pdfL = func.call @light_pdf(%hit#0, %cosL, %lf#0, %num_lights)
            : (f32, f32, f32, i32) -> f32
        %wMis = func.call @power_heuristic(%bsdfPdf, %pdfL)
            : (f32, f32) -> f32
        %sampled = arith.cmpf ogt, %bsdfPdf, %f0 : f32
        %w = arith.select %sampled, %wMis, %f1 : f32
        %c4 = arith.constant 4 : index
        %le = func.call @load3(%mats, %mb, %c4)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %front = arith.cmpf ogt, %cosL, %f0 : f32
        %lw = func.call @scale3(%le, %w) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %lwf = func.call @select3(%front, %lw, %zero3)
            : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
        %lt = arith.mulf %thr, %lwf : vector<3xf32>
        %rad1 = arith.addf %rad, %lt : vector<3xf32>
        scf.yield %depth, %org, %dir, %thr, %rad1, %rng, %false, %bsdfPdf,
            %coneW, %coneS
            : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
              vector<3xf32>, i32, i1, f32, f32, f32
      } else {
        // (3) Before the surface is shaded: the pattern (textures, noise),
        // the light sample's BSDF value and the BSDF sample.
        coro.suspend "surface"
        %p = func.call @axpy3(%org, %hit#0, %dir)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %tf:2 = func.call @triangle_frame(%tris, %hit#1)
            : (memref<?xf32>, i32) -> (f32, vector<3xf32>)
        %cosIn = func.call @dot3(%tf#1, %dir)
            : (vector<3xf32>, vector<3xf32>) -> f32
        %front = arith.cmpf olt, %cosIn, %f0 : f32
        %mone = arith.constant -1.0 : f32
        %flip = arith.select %front, %f1, %mone : f32
        %ng = func.call @scale3(%tf#1, %flip) : (vector<3xf32>, f32)
            -> vector<3xf32>
        // Interpolated normal and texture coordinates.
        %a32 = arith.muli %hit#1, %i15 : i32
        %ab = arith.index_cast %a32 : i32 to index
        %n0 = func.call @load3(%attrs, %ab, %c0)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %n1 = func.call @load3(%attrs, %ab, %c3)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %n2 = func.call @load3(%attrs, %ab, %c6)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %ua = func.call @load1(%attrs, %ab, %c9)
            : (memref<?xf32>, index, index) -> f32
        %c10 = arith.constant 10 : index
        %va = func.call @load1(%attrs, %ab, %c10)
            : (memref<?xf32>, index, index) -> f32
        %ub = func.call @load1(%attrs, %ab, %c11)
            : (memref<?xf32>, index, index) -> f32
        %vb = func.call @load1(%attrs, %ab, %c12)
            : (memref<?xf32>, index, index) -> f32
        %uc = func.call @load1(%attrs, %ab, %c13)
            : (memref<?xf32>, index, index) -> f32
        %vc = func.call @load1(%attrs, %ab, %c14)
            : (memref<?xf32>, index, index) -> f32
        %bu = arith.addf %hit#2, %hit#3 : f32
        %b0 = arith.subf %f1, %bu : f32
        %ns0 = func.call @scale3(%n0, %b0) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %ns1 = func.call @axpy3(%ns0, %hit#2, %n1)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %ns2 = func.call @axpy3(%ns1, %hit#3, %n2)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %ns3 = func.call @normalize3(%ns2) : (vector<3xf32>) -> vector<3xf32>
        %ns = func.call @scale3(%ns3, %flip) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %tu0 = arith.mulf %ua, %b0 : f32
        %tu1 = math.fma %ub, %hit#2, %tu0 : f32
        %tu = math.fma %uc, %hit#3, %tu1 : f32
        %tv0 = arith.mulf %va, %b0 : f32
        %tv1 = math.fma %vb, %hit#2, %tv0 : f32
        %tv = math.fma %vc, %hit#3, %tv1 : f32
        // The level of detail of a texture of one texel per unit of
        // texture space: log2 of the cone's width at the hit over the
        // cosine, plus half log2 of the triangle's texture-space area over
        // its world-space area.
        %coneHit = math.fma %coneS, %hit#0, %coneW : f32
        %du1 = arith.subf %ub, %ua : f32
        %dv1 = arith.subf %vb, %va : f32
        %du2 = arith.subf %uc, %ua : f32
        %dv2 = arith.subf %vc, %va : f32
        %x1 = arith.mulf %du1, %dv2 : f32
        %x2 = arith.mulf %du2, %dv1 : f32
        %uvx = arith.subf %x1, %x2 : f32
        %uvArea0 = math.absf %uvx : f32
        %uvArea = arith.maximumf %uvArea0, %tiny : f32
        %wArea0 = arith.mulf %tf#0, %f2 : f32
        %wArea = arith.maximumf %wArea0, %tiny : f32
        %ratio = arith.divf %uvArea, %wArea : f32
        %lr = math.log2 %ratio : f32
        %acos0 = math.absf %cosIn : f32
        %acos = arith.maximumf %acos0, %cosMin : f32
        %cw0 = arith.maximumf %coneHit, %tiny : f32
        %cw = arith.divf %cw0, %acos : f32
        %lw = math.log2 %cw : f32
        %lodBase = math.fma %lr, %half, %lw : f32
        %pat:3 = func.call @surface_pattern(%mats, %mb, %texinfo, %texels,
                                            %p, %tu, %tv, %lodBase)
            : (memref<?xf32>, index, memref<?xi32>, memref<?xi32>,
               vector<3xf32>, f32, f32, f32) -> (vector<3xf32>, f32, f32)
        // The triangle's texture axes in world space, dp/du and dp/dv:
        // [du1 dv1; du2 dv2] [dpdu; dpdv] = [e1; e2] (0 where the texture
        // coordinates are degenerate).
        %uvOk = arith.cmpf ogt, %uvArea0, %tiny : f32
        %t32 = arith.muli %hit#1, %i9 : i32
        %tb = arith.index_cast %t32 : i32 to index
        %e1 = func.call @load3(%tris, %tb, %c3)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %e2 = func.call @load3(%tris, %tb, %c6)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %uvxSafe = arith.select %uvOk, %uvx, %f1 : f32
        %invDet0 = arith.divf %f1, %uvxSafe : f32
        %invDet = arith.select %uvOk, %invDet0, %f0 : f32
        %pu0 = func.call @scale3(%e1, %dv2) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %mdv1 = arith.negf %dv1 : f32
        %pu1 = func.call @axpy3(%pu0, %mdv1, %e2)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %dpdu = func.call @scale3(%pu1, %invDet) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %pv0 = func.call @scale3(%e2, %du1) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %mdu2 = arith.negf %du2 : f32
        %pv1 = func.call @axpy3(%pv0, %mdu2, %e1)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %dpdv = func.call @scale3(%pv1, %invDet) : (vector<3xf32>, f32)
            -> vector<3xf32>
        // Bump mapping (as pbrt's BumpMap): the pattern's height times the
        // material's bump scale displaces the surface along the shading
        // normal; its finite differences along the texture axes, over half
        // the ray cone's footprint, tilt the normal.
        %c30 = arith.constant 30 : index
        %bumpScale = func.call @load1(%mats, %mb, %c30)
            : (memref<?xf32>, index, index) -> f32
        %bumpOn = arith.cmpf ogt, %bumpScale, %f0 : f32
        %bumpy = arith.andi %bumpOn, %uvOk : i1
        %nsb = scf.if %bumpy -> (vector<3xf32>) {
          %uvPerWorld = math.sqrt %ratio : f32
          %fp0 = arith.mulf %cw, %uvPerWorld : f32
          %fp1 = arith.mulf %fp0, %half : f32
          %fpMin = arith.constant 1.0e-4 : f32
          %fp = arith.maximumf %fp1, %fpMin : f32
          %pu = func.call @axpy3(%p, %fp, %dpdu)
              : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
          %pv = func.call @axpy3(%p, %fp, %dpdv)
              : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
          %tuu = arith.addf %tu, %fp : f32
          %tvv = arith.addf %tv, %fp : f32
          %hu = func.call @bump_height(%mats, %mb, %texinfo, %texels, %pu,
                                       %tuu, %tv, %lodBase)
              : (memref<?xf32>, index, memref<?xi32>, memref<?xi32>,
                 vector<3xf32>, f32, f32, f32) -> f32
          %hv = func.call @bump_height(%mats, %mb, %texinfo, %texels, %pv,
                                       %tu, %tvv, %lodBase)
              : (memref<?xf32>, index, memref<?xi32>, memref<?xi32>,
                 vector<3xf32>, f32, f32, f32) -> f32
          %k = arith.divf %bumpScale, %fp : f32
          %dhu = arith.subf %hu, %pat#2 : f32
          %dhv = arith.subf %hv, %pat#2 : f32
          %dhdu = arith.mulf %dhu, %k : f32
          %dhdv = arith.mulf %dhv, %k : f32
          %tanU = func.call @axpy3(%dpdu, %dhdu, %ns)
              : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
          %tanV = func.call @axpy3(%dpdv, %dhdv, %ns)
              : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
          %nc = func.call @cross3(%tanU, %tanV)
              : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
          %nb0 = func.call @normalize3(%nc) : (vector<3xf32>) -> vector<3xf32>
          %agreeN = func.call @dot3(%nb0, %ns)
              : (vector<3xf32>, vector<3xf32>) -> f32
          %sameN = arith.cmpf oge, %agreeN, %f0 : f32
          %mnb = arith.negf %nb0 : vector<3xf32>
          %nb = func.call @select3(%sameN, %nb0, %mnb)
              : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
          scf.yield %nb : vector<3xf32>
        } else {
          scf.yield %ns : vector<3xf32>
        }
        %ior = func.call @load1(%mats, %mb, %c14)
            : (memref<?xf32>, index, index) -> f32
        %invIor = arith.divf %f1, %ior : f32
        %etap = arith.select %front, %ior, %invIor : f32
        %isC = arith.cmpi eq, %kind, %i1 : i32
        %isD = arith.cmpi eq, %kind, %i2 : i32
        %isCD = arith.ori %isC, %isD : i1
        %glassy = arith.cmpf olt, %pat#1, %smooth : f32
        %specular = arith.andi %isCD, %glassy : i1
        // The shading frame: its x axis along dp/du (the direction of
        // anisotropy), made orthogonal to the normal; any frame where there
        // is none.
        %tdot = func.call @dot3(%dpdu, %nsb)
            : (vector<3xf32>, vector<3xf32>) -> f32
        %mtdot = arith.negf %tdot : f32
        %tg0 = func.call @axpy3(%dpdu, %mtdot, %nsb)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %tgl = func.call @dot3(%tg0, %tg0)
            : (vector<3xf32>, vector<3xf32>) -> f32
        %tgMin = arith.constant 1.0e-10 : f32
        %hasTg = arith.cmpf ogt, %tgl, %tgMin : f32
        %fr:2 = scf.if %hasTg -> (vector<3xf32>, vector<3xf32>) {
          %tg = func.call @normalize3(%tg0) : (vector<3xf32>) -> vector<3xf32>
          %bt = func.call @cross3(%nsb, %tg)
              : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
          scf.yield %tg, %bt : vector<3xf32>, vector<3xf32>
        } else {
          %any:2 = func.call @basis(%nsb) : (vector<3xf32>)
              -> (vector<3xf32>, vector<3xf32>)
          scf.yield %any#0, %any#1 : vector<3xf32>, vector<3xf32>
        }
        %mdir = arith.negf %dir : vector<3xf32>
        %wo = func.call @to_local(%mdir, %fr#0, %fr#1, %nsb)
            : (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>)
              -> vector<3xf32>

        // Next-event estimation: a point on a light, the BSDF's value
        // towards it, and the contribution it makes if nothing blocks it,
        // MIS weighted against BSDF sampling. Specular surfaces skip it.
        %l1:2 = func.call @rand(%rng) : (i32) -> (f32, i32)
        %l2:2 = func.call @rand(%l1#1) : (i32) -> (f32, i32)
        %l3:2 = func.call @rand(%l2#1) : (i32) -> (f32, i32)
        %ls:4 = func.call @sample_light(%p, %num_lights, %l1#0, %l2#0,
                                        %l3#0, %tris, %trimat, %mats,
                                        %lights)
            : (vector<3xf32>, i32, f32, f32, f32, memref<?xf32>,
               memref<?xi32>, memref<?xf32>, memref<?xi32>)
              -> (vector<3xf32>, f32, vector<3xf32>, f32)
        %wl = func.call @to_local(%ls#0, %fr#0, %fr#1, %nsb)
            : (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>)
              -> vector<3xf32>
        %fl:2 = func.call @bsdf_eval(%mats, %mb, %kind, %pat#0, %pat#1,
                                     %etap, %wo, %wl)
            : (memref<?xf32>, index, i32, vector<3xf32>, f32, f32,
               vector<3xf32>, vector<3xf32>) -> (vector<3xf32>, f32)
        %wNee = func.call @power_heuristic(%ls#3, %fl#1) : (f32, f32) -> f32
        %lpos = arith.cmpf ogt, %ls#3, %f0 : f32
        %lpdf = arith.select %lpos, %ls#3, %f1 : f32
        %kl = arith.divf %wNee, %lpdf : f32
        %fle = arith.mulf %fl#0, %ls#2 : vector<3xf32>
        %flt = arith.mulf %fle, %thr : vector<3xf32>
        %contrib = func.call @scale3(%flt, %kl) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %cmax = func.call @max3(%contrib) : (vector<3xf32>) -> f32
        %some = arith.cmpf ogt, %cmax, %f0 : f32
        %notSpec = arith.xori %specular, %true : i1
        %nee0 = arith.andi %lpos, %some : i1
        %nee = arith.andi %nee0, %notSpec : i1
        // The shadow ray leaves from the side of the surface it goes to
        // (a rough dielectric can see a light through itself).
        %sideL = func.call @dot3(%ls#0, %ng)
            : (vector<3xf32>, vector<3xf32>) -> f32
        %outL = arith.cmpf oge, %sideL, %f0 : f32
        %mlift = arith.negf %lift : f32
        %offL = arith.select %outL, %lift, %mlift : f32
        %shadowOrg = func.call @axpy3(%p, %offL, %ng)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %shadowMax = arith.mulf %ls#1, %shorten : f32

        // The BSDF sample: the next ray.
        %s1:2 = func.call @rand(%l3#1) : (i32) -> (f32, i32)
        %s2:2 = func.call @rand(%s1#1) : (i32) -> (f32, i32)
        %s3:2 = func.call @rand(%s2#1) : (i32) -> (f32, i32)
        %bs:3 = func.call @bsdf_sample(%mats, %mb, %kind, %pat#0, %pat#1,
                                       %etap, %specular, %wo, %s1#0, %s2#0,
                                       %s3#0)
            : (memref<?xf32>, index, i32, vector<3xf32>, f32, f32, i1,
               vector<3xf32>, f32, f32, f32)
              -> (vector<3xf32>, vector<3xf32>, f32)
        %wi = func.call @to_world(%bs#0, %fr#0, %fr#1, %nsb)
            : (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>)
              -> vector<3xf32>
        // A direction on the other side of the geometric surface than the
        // shading frame says (a smooth normal's artefact) ends the path.
        %wiz = vector.extract %bs#0[2] : f32 from vector<3xf32>
        %upS = arith.cmpf ogt, %wiz, %f0 : f32
        %sideG = func.call @dot3(%wi, %ng)
            : (vector<3xf32>, vector<3xf32>) -> f32
        %upG = arith.cmpf ogt, %sideG, %f0 : f32
        %agree = arith.cmpi eq, %upS, %upG : i1
        %wgt = func.call @select3(%agree, %bs#1, %zero3)
            : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
        %thr1 = arith.mulf %thr, %wgt : vector<3xf32>
        %off = arith.select %upG, %lift, %mlift : f32
        %org1 = func.call @axpy3(%p, %off, %ng)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        // The cone widens by twice the lobe's alpha; a lobe with a diffuse
        // part (Lambert, plastic, Disney) counts as alpha 1.
        %isL = arith.cmpi eq, %kind, %i0 : i32
        %isP = arith.cmpi eq, %kind, %i3 : i32
        %isN = arith.cmpi eq, %kind, %i4 : i32
        %dl0 = arith.ori %isL, %isP : i1
        %dl = arith.ori %dl0, %isN : i1
        %ra = arith.mulf %pat#1, %pat#1 : f32
        %spreadA = arith.select %dl, %f1, %ra : f32
        %coneS1 = math.fma %spreadA, %f2, %coneS : f32

        // Russian roulette from bounce %rr_depth on: survive with the
        // probability of the largest throughput component (at most 0.95).
        %depth1 = arith.addi %depth, %i1 : i32
        %rr:2 = func.call @rand(%s3#1) : (i32) -> (f32, i32)
        %tmax = func.call @max3(%thr1) : (vector<3xf32>) -> f32
        %q = arith.minimumf %tmax, %rrMax : f32
        %rrOn = arith.cmpi sge, %depth1, %rr_depth : i32
        %lucky = arith.cmpf olt, %rr#0, %q : f32
        %notOn = arith.xori %rrOn, %true : i1
        %survive = arith.ori %notOn, %lucky : i1
        %qpos = arith.cmpf ogt, %q, %f0 : f32
        %qs = arith.select %qpos, %q, %f1 : f32
        %invQ = arith.divf %f1, %qs : f32
        %thrQ = func.call @scale3(%thr1, %invQ) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %thr2 = func.call @select3(%rrOn, %thrQ, %thr1)
            : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
        %deeper = arith.cmpi slt, %depth1, %max_depth : i32
        %nonZero = arith.cmpf ogt, %tmax, %f0 : f32
        %go0 = arith.andi %survive, %deeper : i1
        %go = arith.andi %go0, %nonZero : i1

        %rad2 = scf.if %nee -> (vector<3xf32>) {
          // (4) Before the shadow ray of next-event estimation.
          coro.suspend "light"
          %sh:4 = func.call @traverse(%shadowOrg, %ls#0, %shadowMax, %true,
                                      %nodesf, %nodesi, %tris)
              : (vector<3xf32>, vector<3xf32>, f32, i1, memref<?xf32>,
                 memref<?xi32>, memref<?xf32>) -> (f32, i32, f32, f32)
          %blocked = arith.cmpi sge, %sh#1, %i0 : i32
          %add = func.call @select3(%blocked, %zero3, %contrib)
              : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
          %rad1 = arith.addf %rad, %add : vector<3xf32>
          scf.yield %rad1 : vector<3xf32>
        } else {
          scf.yield %rad : vector<3xf32>
        }
        scf.yield %depth1, %org1, %wi, %thr2, %rad2, %rr#1, %go, %bs#2,
            %coneHit, %coneS1
            : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
              vector<3xf32>, i32, i1, f32, f32, f32
      }
      scf.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9
          : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
            i32, i1, f32, f32, f32
    }
    scf.yield %next#0, %next#1, %next#2, %next#3, %next#4, %next#5, %next#6,
        %next#7, %next#8, %next#9
        : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
          i32, i1, f32, f32, f32
  }

  // This sample's radiance at samples[3 id ..]; a NaN or infinite component
  // (a degenerate sample) is written as 0 so that the per-pixel average and
  // the schedulers' comparison stay finite.
  %big = arith.constant dense<1.0e30> : vector<3xf32>
  %arad = math.absf %path#4 : vector<3xf32>
  %finite = arith.cmpf olt, %arad, %big : vector<3xf32>
  %clean = arith.select %finite, %path#4, %zero3
      : vector<3xi1>, vector<3xf32>
  %rb = arith.muli %id, %c3 : index
  %gi = arith.addi %rb, %c1 : index
  %bi = arith.addi %rb, %c2 : index
  %cr = vector.extract %clean[0] : f32 from vector<3xf32>
  %cg = vector.extract %clean[1] : f32 from vector<3xf32>
  %cb = vector.extract %clean[2] : f32 from vector<3xf32>
  memref.store %cr, %samples[%rb] : memref<?xf32>
  memref.store %cg, %samples[%gi] : memref<?xf32>
  memref.store %cb, %samples[%bi] : memref<?xf32>
  coro.return
}

// An SDF renderer written as one coroutine: the workload of the paper's
// Sec. 7.2 (an SDF renderer ported from Taichi, Fig. 12), with a single
// suspension point placed right before the ray marching.
//
// One instance renders one pixel of a %width x %height image (coro.id is the
// pixel index: x = id mod width, y = id / width). The scene is procedural: a
// ground plane, a red blob (two spheres joined by a smooth minimum), a
// rounded blue box and a golden torus lying flat, under a sky with a sun.
// For each of %spp samples the instance shoots a jittered camera ray and
// follows it for at most %bounces diffuse bounces: every bounce ray marches
// the scene's signed distance field (sphere tracing: at most 128 steps, a hit
// below an epsilon of 1e-3, a miss beyond a distance of 40), takes the normal
// from central differences of the SDF and leaves in a cosine-weighted random
// direction. A ray that escapes picks up the sky. The random numbers come
// from a PCG hash of the pixel index and the sample number, so the image is
// the same under every scheduler.
//
// The coroutine suspends ("march") before every ray march, inside the bounce
// loop: a path that escapes or runs out of bounces leaves the loop, so
// instances run very different numbers of marches, and the marches
// themselves take very different numbers of steps, which is the imbalance
// a scheduler can act on. It writes the average radiance of its samples as
// linear RGB: image[3 * id + c], c = 0, 1, 2 (the buffer holds 3 floats per
// pixel).
//
//   build/bin/coro-run benchmarks/sdf/sdf.mlir --coro=sdf_render \
//       --grid=12288 --arg=128 --arg=96 --arg=16 --arg=3 \
//       --buffer=f32:36864:zeros --scheduler=megakernel --output-dir=out
//   python3 benchmarks/sdf/to_png.py out/buffer0.bin 128 sdf.png
//
// The SDF, the normal, the material, the sky and the random numbers are
// callables (func.func): coro-inline-callables inlines them into the
// coroutine. Callables cannot suspend, so the suspension stays in
// @sdf_render.

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

// The PCG hash (Jarzynski and Olano, "Hash Functions for GPU Rendering",
// JCGT 2020): a well-mixed 32-bit integer from a 32-bit integer.
func.func private @pcg_hash(%v: i32) -> i32 {
  %mul = arith.constant 747796405 : i32
  %inc = arith.constant -1403630843 : i32       // 2891336453 as an i32
  %mul2 = arith.constant 277803737 : i32
  %c4 = arith.constant 4 : i32
  %c22 = arith.constant 22 : i32
  %c28 = arith.constant 28 : i32
  %scaled = arith.muli %v, %mul : i32
  %state = arith.addi %scaled, %inc : i32
  // A shift of 4 to 19 bits chosen by the state's top 4 bits.
  %top = arith.shrui %state, %c28 : i32
  %shift = arith.addi %top, %c4 : i32
  %shifted = arith.shrui %state, %shift : i32
  %mixed = arith.xori %shifted, %state : i32
  %word = arith.muli %mixed, %mul2 : i32
  %high = arith.shrui %word, %c22 : i32
  %hash = arith.xori %high, %word : i32
  return %hash : i32
}

// A uniform float in [0, 1) and the next RNG state.
func.func private @rand(%state: i32) -> (f32, i32) {
  %next = func.call @pcg_hash(%state) : (i32) -> i32
  %c8 = arith.constant 8 : i32
  %ulp = arith.constant 5.96046448e-08 : f32    // 2^-24
  %bits = arith.shrui %next, %c8 : i32          // 24 random bits
  %f = arith.uitofp %bits : i32 to f32
  %u = arith.mulf %f, %ulp : f32
  return %u, %next : f32, i32
}

//===----------------------------------------------------------------------===//
// Vector helpers
//===----------------------------------------------------------------------===//

func.func private @dot3(%a: vector<3xf32>, %b: vector<3xf32>) -> f32 {
  %prod = arith.mulf %a, %b : vector<3xf32>
  %sum = vector.reduction <add>, %prod : vector<3xf32> into f32
  return %sum : f32
}

func.func private @length3(%v: vector<3xf32>) -> f32 {
  %sq = func.call @dot3(%v, %v) : (vector<3xf32>, vector<3xf32>) -> f32
  %len = math.sqrt %sq : f32
  return %len : f32
}

func.func private @normalize3(%v: vector<3xf32>) -> vector<3xf32> {
  %len = func.call @length3(%v) : (vector<3xf32>) -> f32
  %lenv = vector.broadcast %len : f32 to vector<3xf32>
  %n = arith.divf %v, %lenv : vector<3xf32>
  return %n : vector<3xf32>
}

// a + s * b
func.func private @axpy3(%a: vector<3xf32>, %s: f32, %b: vector<3xf32>)
    -> vector<3xf32> {
  %sv = vector.broadcast %s : f32 to vector<3xf32>
  %sb = arith.mulf %sv, %b : vector<3xf32>
  %r = arith.addf %a, %sb : vector<3xf32>
  return %r : vector<3xf32>
}

//===----------------------------------------------------------------------===//
// The scene's signed distance field
// (https://iquilezles.org/articles/distfunctions/)
//===----------------------------------------------------------------------===//

// Sphere of radius %r around %c.
func.func private @sd_sphere(%p: vector<3xf32>, %c: vector<3xf32>, %r: f32)
    -> f32 {
  %q = arith.subf %p, %c : vector<3xf32>
  %len = func.call @length3(%q) : (vector<3xf32>) -> f32
  %d = arith.subf %len, %r : f32
  return %d : f32
}

// Box of half extents %b around %c, its edges rounded by %round.
func.func private @sd_round_box(%p: vector<3xf32>, %c: vector<3xf32>,
                                %b: vector<3xf32>, %round: f32) -> f32 {
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %zero = arith.constant 0.0 : f32
  %rel = arith.subf %p, %c : vector<3xf32>
  %abs = math.absf %rel : vector<3xf32>
  %q = arith.subf %abs, %b : vector<3xf32>
  // Outside: the distance to the nearest point of the box.
  %out = arith.maximumf %q, %zero3 : vector<3xf32>
  %outLen = func.call @length3(%out) : (vector<3xf32>) -> f32
  // Inside: minus the distance to the nearest face.
  %qmax = vector.reduction <maximumf>, %q : vector<3xf32> into f32
  %in = arith.minimumf %qmax, %zero : f32
  %d0 = arith.addf %outLen, %in : f32
  %d = arith.subf %d0, %round : f32
  return %d : f32
}

// Torus in the xz plane around %c: major radius %big, tube radius %small.
func.func private @sd_torus(%p: vector<3xf32>, %c: vector<3xf32>, %big: f32,
                            %small: f32) -> f32 {
  %rel = arith.subf %p, %c : vector<3xf32>
  %x = vector.extract %rel[0] : f32 from vector<3xf32>
  %y = vector.extract %rel[1] : f32 from vector<3xf32>
  %z = vector.extract %rel[2] : f32 from vector<3xf32>
  %xx = arith.mulf %x, %x : f32
  %zz = arith.mulf %z, %z : f32
  %ring2 = arith.addf %xx, %zz : f32
  %ring = math.sqrt %ring2 : f32
  %qx = arith.subf %ring, %big : f32
  %qxx = arith.mulf %qx, %qx : f32
  %yy = arith.mulf %y, %y : f32
  %q2 = arith.addf %qxx, %yy : f32
  %q = math.sqrt %q2 : f32
  %d = arith.subf %q, %small : f32
  return %d : f32
}

// Polynomial smooth minimum: min(a, b) with the corner rounded over a
// distance k.
func.func private @smin(%a: f32, %b: f32, %k: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %diff = arith.subf %a, %b : f32
  %adiff = math.absf %diff : f32
  %gap = arith.subf %k, %adiff : f32
  %h0 = arith.maximumf %gap, %zero : f32
  %h = arith.divf %h0, %k : f32
  %hh = arith.mulf %h, %h : f32
  %hhk = arith.mulf %hh, %k : f32
  %corr = arith.mulf %hhk, %quarter : f32
  %m = arith.minimumf %a, %b : f32
  %d = arith.subf %m, %corr : f32
  return %d : f32
}

// The distance to each object of the scene at %p: the ground plane y = 0,
// the blob, the box and the torus.
func.func private @scene_parts(%p: vector<3xf32>) -> (f32, f32, f32, f32) {
  %ground = vector.extract %p[1] : f32 from vector<3xf32>
  // The blob: a big sphere with a small one melted onto it.
  %bigC = arith.constant dense<[0.0, 0.6, 0.0]> : vector<3xf32>
  %bigR = arith.constant 0.6 : f32
  %smallC = arith.constant dense<[0.5, 1.1, 0.25]> : vector<3xf32>
  %smallR = arith.constant 0.3 : f32
  %blend = arith.constant 0.25 : f32
  %big = func.call @sd_sphere(%p, %bigC, %bigR)
      : (vector<3xf32>, vector<3xf32>, f32) -> f32
  %small = func.call @sd_sphere(%p, %smallC, %smallR)
      : (vector<3xf32>, vector<3xf32>, f32) -> f32
  %blob = func.call @smin(%big, %small, %blend) : (f32, f32, f32) -> f32
  // A rounded box to the right.
  %boxC = arith.constant dense<[1.3, 0.4, -0.3]> : vector<3xf32>
  %boxB = arith.constant dense<[0.3, 0.35, 0.3]> : vector<3xf32>
  %boxRound = arith.constant 0.05 : f32
  %box = func.call @sd_round_box(%p, %boxC, %boxB, %boxRound)
      : (vector<3xf32>, vector<3xf32>, vector<3xf32>, f32) -> f32
  // A torus lying on the ground to the left.
  %torusC = arith.constant dense<[-1.25, 0.18, 0.3]> : vector<3xf32>
  %torusBig = arith.constant 0.45 : f32
  %torusSmall = arith.constant 0.18 : f32
  %torus = func.call @sd_torus(%p, %torusC, %torusBig, %torusSmall)
      : (vector<3xf32>, vector<3xf32>, f32, f32) -> f32
  return %ground, %blob, %box, %torus : f32, f32, f32, f32
}

// The scene's SDF: the union (minimum) of its objects.
func.func private @scene_sdf(%p: vector<3xf32>) -> f32 {
  %parts:4 = func.call @scene_parts(%p)
      : (vector<3xf32>) -> (f32, f32, f32, f32)
  %m0 = arith.minimumf %parts#0, %parts#1 : f32
  %m1 = arith.minimumf %m0, %parts#2 : f32
  %d = arith.minimumf %m1, %parts#3 : f32
  return %d : f32
}

// The surface normal at %p: the SDF's gradient by central differences.
func.func private @scene_normal(%p: vector<3xf32>) -> vector<3xf32> {
  %ex = arith.constant dense<[1.0e-3, 0.0, 0.0]> : vector<3xf32>
  %ey = arith.constant dense<[0.0, 1.0e-3, 0.0]> : vector<3xf32>
  %ez = arith.constant dense<[0.0, 0.0, 1.0e-3]> : vector<3xf32>
  %px1 = arith.addf %p, %ex : vector<3xf32>
  %px0 = arith.subf %p, %ex : vector<3xf32>
  %py1 = arith.addf %p, %ey : vector<3xf32>
  %py0 = arith.subf %p, %ey : vector<3xf32>
  %pz1 = arith.addf %p, %ez : vector<3xf32>
  %pz0 = arith.subf %p, %ez : vector<3xf32>
  %dx1 = func.call @scene_sdf(%px1) : (vector<3xf32>) -> f32
  %dx0 = func.call @scene_sdf(%px0) : (vector<3xf32>) -> f32
  %dy1 = func.call @scene_sdf(%py1) : (vector<3xf32>) -> f32
  %dy0 = func.call @scene_sdf(%py0) : (vector<3xf32>) -> f32
  %dz1 = func.call @scene_sdf(%pz1) : (vector<3xf32>) -> f32
  %dz0 = func.call @scene_sdf(%pz0) : (vector<3xf32>) -> f32
  %gx = arith.subf %dx1, %dx0 : f32
  %gy = arith.subf %dy1, %dy0 : f32
  %gz = arith.subf %dz1, %dz0 : f32
  %g = vector.from_elements %gx, %gy, %gz : vector<3xf32>
  %n = func.call @normalize3(%g) : (vector<3xf32>) -> vector<3xf32>
  return %n : vector<3xf32>
}

// The diffuse albedo at a surface point %p: that of the nearest object; the
// ground is a checkerboard of 1 x 1 tiles.
func.func private @scene_albedo(%p: vector<3xf32>) -> vector<3xf32> {
  %parts:4 = func.call @scene_parts(%p)
      : (vector<3xf32>) -> (f32, f32, f32, f32)
  %light = arith.constant dense<[0.75, 0.75, 0.72]> : vector<3xf32>
  %dark = arith.constant dense<[0.35, 0.35, 0.38]> : vector<3xf32>
  %red = arith.constant dense<[0.85, 0.22, 0.18]> : vector<3xf32>
  %blue = arith.constant dense<[0.2, 0.35, 0.85]> : vector<3xf32>
  %gold = arith.constant dense<[0.9, 0.7, 0.25]> : vector<3xf32>
  %c1 = arith.constant 1 : i32
  // Ground: the parity of floor(x) + floor(z).
  %x = vector.extract %p[0] : f32 from vector<3xf32>
  %z = vector.extract %p[2] : f32 from vector<3xf32>
  %fx = math.floor %x : f32
  %fz = math.floor %z : f32
  %ix = arith.fptosi %fx : f32 to i32
  %iz = arith.fptosi %fz : f32 to i32
  %sum = arith.addi %ix, %iz : i32
  %parity = arith.andi %sum, %c1 : i32
  %odd = arith.cmpi eq, %parity, %c1 : i32
  // The vector selects take vector<3xi1> masks: the SPIR-V pipeline (SPIR-V
  // 1.3) cannot lower a scalar condition with vector operands.
  %oddMask = vector.broadcast %odd : i1 to vector<3xi1>
  %checker = arith.select %oddMask, %dark, %light
      : vector<3xi1>, vector<3xf32>
  // The nearest object wins (ties go to the earlier one).
  %blobNearer = arith.cmpf olt, %parts#1, %parts#0 : f32
  %blobNearerMask = vector.broadcast %blobNearer : i1 to vector<3xi1>
  %a0 = arith.select %blobNearerMask, %red, %checker
      : vector<3xi1>, vector<3xf32>
  %d0 = arith.minimumf %parts#0, %parts#1 : f32
  %boxNearer = arith.cmpf olt, %parts#2, %d0 : f32
  %boxNearerMask = vector.broadcast %boxNearer : i1 to vector<3xi1>
  %a1 = arith.select %boxNearerMask, %blue, %a0 : vector<3xi1>, vector<3xf32>
  %d1 = arith.minimumf %d0, %parts#2 : f32
  %torusNearer = arith.cmpf olt, %parts#3, %d1 : f32
  %torusNearerMask = vector.broadcast %torusNearer : i1 to vector<3xi1>
  %albedo = arith.select %torusNearerMask, %gold, %a1
      : vector<3xi1>, vector<3xf32>
  return %albedo : vector<3xf32>
}

//===----------------------------------------------------------------------===//
// Ray marching, sampling, sky
//===----------------------------------------------------------------------===//

// Sphere tracing from %o along the unit direction %d: steps by the SDF until
// it falls below the epsilon (a hit), the ray gets beyond the far distance
// or the step budget runs out (misses). Returns the distance of the hit, or
// -1 for a miss.
func.func private @march(%o: vector<3xf32>, %d: vector<3xf32>) -> f32 {
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %maxSteps = arith.constant 128 : i32
  %eps = arith.constant 1.0e-3 : f32
  %far = arith.constant 40.0 : f32
  %zero = arith.constant 0.0 : f32
  %miss = arith.constant -1.0 : f32
  %res:3 = scf.while (%i = %i0, %t = %zero, %dist = %far)
      : (i32, f32, f32) -> (i32, f32, f32) {
    %steps = arith.cmpi slt, %i, %maxSteps : i32
    %near = arith.cmpf olt, %t, %far : f32
    %away = arith.cmpf ogt, %dist, %eps : f32
    %go0 = arith.andi %steps, %near : i1
    %go = arith.andi %go0, %away : i1
    scf.condition(%go) %i, %t, %dist : i32, f32, f32
  } do {
  ^bb0(%i: i32, %t: f32, %dist: f32):
    %p = func.call @axpy3(%o, %t, %d)
        : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
    %step = func.call @scene_sdf(%p) : (vector<3xf32>) -> f32
    %t1 = arith.addf %t, %step : f32
    %i2 = arith.addi %i, %i1 : i32
    scf.yield %i2, %t1, %step : i32, f32, f32
  }
  %hit = arith.cmpf ole, %res#2, %eps : f32
  %t = arith.select %hit, %res#1, %miss : f32
  return %t : f32
}

// A cosine-weighted direction around the unit normal %n from two uniform
// numbers, in the orthonormal basis of Duff et al. (JCGT 2017).
func.func private @cosine_direction(%n: vector<3xf32>, %u1: f32, %u2: f32)
    -> vector<3xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %mone = arith.constant -1.0 : f32
  %twoPi = arith.constant 6.28318548 : f32
  %nx = vector.extract %n[0] : f32 from vector<3xf32>
  %ny = vector.extract %n[1] : f32 from vector<3xf32>
  %nz = vector.extract %n[2] : f32 from vector<3xf32>
  // Tangent %t and bitangent %b.
  %pos = arith.cmpf oge, %nz, %zero : f32
  %sign = arith.select %pos, %one, %mone : f32
  %snz = arith.addf %sign, %nz : f32
  %a = arith.divf %mone, %snz : f32
  %nxny = arith.mulf %nx, %ny : f32
  %b = arith.mulf %nxny, %a : f32
  %nxx = arith.mulf %nx, %nx : f32
  %nxxa = arith.mulf %nxx, %a : f32
  %snxxa = arith.mulf %sign, %nxxa : f32
  %t0 = arith.addf %one, %snxxa : f32
  %t1 = arith.mulf %sign, %b : f32
  %snx = arith.mulf %sign, %nx : f32
  %t2 = arith.negf %snx : f32
  %t = vector.from_elements %t0, %t1, %t2 : vector<3xf32>
  %nyy = arith.mulf %ny, %ny : f32
  %nyya = arith.mulf %nyy, %a : f32
  %b1 = arith.addf %sign, %nyya : f32
  %b2 = arith.negf %ny : f32
  %bt = vector.from_elements %b, %b1, %b2 : vector<3xf32>
  // (r cos phi, r sin phi, sqrt(1 - r^2)) with r = sqrt(u2), phi = 2 pi u1.
  %phi = arith.mulf %u1, %twoPi : f32
  %r = math.sqrt %u2 : f32
  %cos = math.cos %phi : f32
  %sin = math.sin %phi : f32
  %lx = arith.mulf %r, %cos : f32
  %ly = arith.mulf %r, %sin : f32
  %h2 = arith.subf %one, %u2 : f32
  %h2c = arith.maximumf %h2, %zero : f32
  %lz = math.sqrt %h2c : f32
  %v0 = vector.broadcast %lz : f32 to vector<3xf32>
  %v1 = arith.mulf %v0, %n : vector<3xf32>
  %v2 = func.call @axpy3(%v1, %lx, %t)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %v3 = func.call @axpy3(%v2, %ly, %bt)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %dir = func.call @normalize3(%v3) : (vector<3xf32>) -> vector<3xf32>
  return %dir : vector<3xf32>
}

// The radiance of the sky in direction %d: a gradient from a pale horizon
// to a blue zenith, plus a sun lobe.
func.func private @sky(%d: vector<3xf32>) -> vector<3xf32> {
  %zero = arith.constant 0.0 : f32
  %horizon = arith.constant dense<[0.95, 0.9, 0.85]> : vector<3xf32>
  %zenith = arith.constant dense<[0.35, 0.55, 0.95]> : vector<3xf32>
  %sunDir = arith.constant dense<[-0.3995, 0.799, 0.4494]> : vector<3xf32>
  %sunColor = arith.constant dense<[2.0, 1.8, 1.5]> : vector<3xf32>
  %dy = vector.extract %d[1] : f32 from vector<3xf32>
  %up = arith.maximumf %dy, %zero : f32
  %delta = arith.subf %zenith, %horizon : vector<3xf32>
  %base = func.call @axpy3(%horizon, %up, %delta)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  // Sun: max(cos, 0)^32.
  %c0 = func.call @dot3(%d, %sunDir) : (vector<3xf32>, vector<3xf32>) -> f32
  %c1 = arith.maximumf %c0, %zero : f32
  %c2 = arith.mulf %c1, %c1 : f32
  %c4 = arith.mulf %c2, %c2 : f32
  %c8 = arith.mulf %c4, %c4 : f32
  %c16 = arith.mulf %c8, %c8 : f32
  %c32 = arith.mulf %c16, %c16 : f32
  %sky = func.call @axpy3(%base, %c32, %sunColor)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  return %sky : vector<3xf32>
}

//===----------------------------------------------------------------------===//
// The renderer
//===----------------------------------------------------------------------===//

coro.func @sdf_render(%width: i32, %height: i32, %spp: i32, %bounces: i32,
                      %image: memref<?xf32>) {
  %id = coro.id : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %true = arith.constant true
  %false = arith.constant false
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %golden = arith.constant -1640531527 : i32     // 0x9E3779B9 as an i32
  // The camera at (0, 1.2, 4.2) looks at (0, 0.45, 0); a vertical field of
  // view of 40 degrees (tan 20 degrees = 0.364).
  %camPos = arith.constant dense<[0.0, 1.2, 4.2]> : vector<3xf32>
  %forward = arith.constant dense<[0.0, -0.17579, -0.98443]> : vector<3xf32>
  %right = arith.constant dense<[1.0, 0.0, 0.0]> : vector<3xf32>
  %up = arith.constant dense<[0.0, 0.98443, -0.17579]> : vector<3xf32>
  %tanHalfFov = arith.constant 0.36397 : f32
  // Surface offset of the next ray's origin (above the march epsilon).
  %lift = arith.constant 4.0e-3 : f32

  // The pixel.
  %pixel = arith.index_cast %id : index to i32
  %x = arith.remui %pixel, %width : i32
  %y = arith.divui %pixel, %width : i32
  %xf = arith.uitofp %x : i32 to f32
  %yf = arith.uitofp %y : i32 to f32
  %wf = arith.uitofp %width : i32 to f32
  %hf = arith.uitofp %height : i32 to f32
  %pixelSeed = func.call @pcg_hash(%pixel) : (i32) -> i32

  %sum = scf.for %s = %i0 to %spp step %i1 iter_args(%acc = %zero3)
      -> (vector<3xf32>) : i32 {
    // This sample's RNG state: a hash of the pixel and the sample number.
    %sg = arith.muli %s, %golden : i32
    %sx = arith.xori %pixelSeed, %sg : i32
    %rng0 = func.call @pcg_hash(%sx) : (i32) -> i32
    // A camera ray through a jittered point of the pixel:
    // u = (2 (x + jx) - W) / H, v = (H - 2 (y + jy)) / H.
    %jx:2 = func.call @rand(%rng0) : (i32) -> (f32, i32)
    %jy:2 = func.call @rand(%jx#1) : (i32) -> (f32, i32)
    %px = arith.addf %xf, %jx#0 : f32
    %py = arith.addf %yf, %jy#0 : f32
    %px2 = arith.mulf %px, %f2 : f32
    %py2 = arith.mulf %py, %f2 : f32
    %un = arith.subf %px2, %wf : f32
    %vn = arith.subf %hf, %py2 : f32
    %u0 = arith.divf %un, %hf : f32
    %v0 = arith.divf %vn, %hf : f32
    %u = arith.mulf %u0, %tanHalfFov : f32
    %v = arith.mulf %v0, %tanHalfFov : f32
    %d0 = func.call @axpy3(%forward, %u, %right)
        : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
    %d1 = func.call @axpy3(%d0, %v, %up)
        : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
    %dir0 = func.call @normalize3(%d1) : (vector<3xf32>) -> vector<3xf32>

    // The path: at most %bounces marches; it ends when the ray escapes.
    %path:7 = scf.while (%depth = %i0, %org = %camPos, %dir = %dir0,
                         %thr = %one3, %rad = %zero3, %rng = %jy#1,
                         %alive = %true)
        : (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
           i32, i1)
       -> (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
           i32, i1) {
      %more = arith.cmpi slt, %depth, %bounces : i32
      %go = arith.andi %more, %alive : i1
      scf.condition(%go) %depth, %org, %dir, %thr, %rad, %rng, %alive
          : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
            i32, i1
    } do {
    ^bb0(%depth: i32, %org: vector<3xf32>, %dir: vector<3xf32>,
         %thr: vector<3xf32>, %rad: vector<3xf32>, %rng: i32, %alive: i1):
      // The single suspension point: a new subroutine marches the ray.
      coro.suspend "march"
      %t = func.call @march(%org, %dir)
          : (vector<3xf32>, vector<3xf32>) -> f32
      %hit = arith.cmpf oge, %t, %f0 : f32
      %next:6 = scf.if %hit -> (vector<3xf32>, vector<3xf32>, vector<3xf32>,
                                vector<3xf32>, i32, i1) {
        // Diffuse bounce: the throughput takes the albedo, the new ray
        // leaves the surface in a cosine-weighted direction.
        %p = func.call @axpy3(%org, %t, %dir)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %n = func.call @scene_normal(%p) : (vector<3xf32>) -> vector<3xf32>
        %albedo = func.call @scene_albedo(%p)
            : (vector<3xf32>) -> vector<3xf32>
        %thr1 = arith.mulf %thr, %albedo : vector<3xf32>
        %r1:2 = func.call @rand(%rng) : (i32) -> (f32, i32)
        %r2:2 = func.call @rand(%r1#1) : (i32) -> (f32, i32)
        %dir1 = func.call @cosine_direction(%n, %r1#0, %r2#0)
            : (vector<3xf32>, f32, f32) -> vector<3xf32>
        %org1 = func.call @axpy3(%p, %lift, %n)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        scf.yield %org1, %dir1, %thr1, %rad, %r2#1, %true
            : vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
              i32, i1
      } else {
        // The ray escaped: add the sky it sees, weighted by the throughput.
        %skyL = func.call @sky(%dir) : (vector<3xf32>) -> vector<3xf32>
        %contrib = arith.mulf %thr, %skyL : vector<3xf32>
        %rad1 = arith.addf %rad, %contrib : vector<3xf32>
        scf.yield %org, %dir, %thr, %rad1, %rng, %false
            : vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
              i32, i1
      }
      %depth1 = arith.addi %depth, %i1 : i32
      scf.yield %depth1, %next#0, %next#1, %next#2, %next#3, %next#4, %next#5
          : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
            i32, i1
    }
    // Paths still alive after %bounces bounces bring no light.
    %acc1 = arith.addf %acc, %path#4 : vector<3xf32>
    scf.yield %acc1 : vector<3xf32>
  }

  // The average of the samples, as linear RGB at image[3 id .. 3 id + 2].
  %sppf = arith.uitofp %spp : i32 to f32
  %sppv = vector.broadcast %sppf : f32 to vector<3xf32>
  %color = arith.divf %sum, %sppv : vector<3xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %base = arith.muli %id, %c3 : index
  %gi = arith.addi %base, %c1 : index
  %bi = arith.addi %base, %c2 : index
  %r = vector.extract %color[0] : f32 from vector<3xf32>
  %g = vector.extract %color[1] : f32 from vector<3xf32>
  %b = vector.extract %color[2] : f32 from vector<3xf32>
  memref.store %r, %image[%base] : memref<?xf32>
  memref.store %g, %image[%gi] : memref<?xf32>
  memref.store %b, %image[%bi] : memref<?xf32>
  coro.return
}

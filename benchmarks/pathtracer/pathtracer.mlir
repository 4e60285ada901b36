// A triangle-mesh path tracer written as one coroutine, with the four
// suspension points of the paper's path tracer (Zheng et al., ACM TOG 2024,
// Sec. 7.1): before the closest-hit intersection of every bounce
// ("intersect"), when the ray escapes the scene ("miss"), before next-event
// estimation ("light") and before the surface's BSDF is sampled
// ("surface").
//
// One instance renders one pixel of a %width x %height image (coro.id is the
// pixel index: x = id mod width, y = id / width) with %spp samples. A path
// has at most %max_depth bounces; Russian roulette starts at bounce
// %rr_depth (the paper's settings are (10, 2) and (24, 5)). The scene is a
// triangle soup with a BVH, both built on the host by make_scene.py:
//
//   %scene   16 floats: camera position, forward, right, up (unit vectors),
//            tan(vertical fov / 2), sky radiance RGB
//   %tris    18 floats per triangle (in BVH order): v0, e1 = v1 - v0,
//            e2 = v2 - v0, then the vertex normals n0, n1, n2
//   %trimat  the material index of each triangle
//   %mats    8 floats per material: type (0 diffuse, 1 conductor,
//            2 dielectric, 3 emissive), albedo RGB, emission RGB, parameter
//            (conductor: roughness; dielectric: index of refraction)
//   %nodesf  6 floats per BVH node: bounds min xyz, max xyz
//   %nodesi  2 ints per BVH node: a leaf is (first triangle, count > 0), an
//            inner node (right child, 0); its left child is the next node
//   %lights  the indices of the %num_lights emissive triangles
//   %image   3 floats per pixel: the average radiance as linear RGB
//
// The renderer: closest-hit traversal of the BVH with a stack of 64 node
// indices (a memref.alloca in the callable @traverse); next-event
// estimation at diffuse surfaces (a uniformly chosen emissive triangle, a
// uniform point on it, an any-hit shadow ray) combined with BSDF sampling by
// multiple importance sampling (power heuristic); emission found by BSDF
// sampling gets the complementary MIS weight; conductors (a rough mirror:
// Schlick Fresnel with the albedo as F0, the mirror direction perturbed by
// the roughness) and dielectrics (Schlick Fresnel, reflection or refraction
// chosen at random, total internal reflection) are sampled only. Emissive
// triangles emit on their front side and end the path. The random numbers
// come from a PCG hash of the pixel index and the sample number, so every
// scheduler renders the same image.
//
// The helpers are callables (func.func): coro-inline-callables inlines them
// into the coroutine. Callables cannot suspend, so every suspension is in
// @path_trace. All control flow is structured (scf.for, scf.while, scf.if).
//
// Vector selects take vector<3xi1> masks: the SPIR-V pipeline (SPIR-V 1.3)
// cannot lower a scalar condition with vector operands.

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

// The PCG hash (Jarzynski and Olano, JCGT 2020).
func.func private @pcg_hash(%v: i32) -> i32 {
  %mul = arith.constant 747796405 : i32
  %inc = arith.constant -1403630843 : i32       // 2891336453 as an i32
  %mul2 = arith.constant 277803737 : i32
  %c4 = arith.constant 4 : i32
  %c22 = arith.constant 22 : i32
  %c28 = arith.constant 28 : i32
  %scaled = arith.muli %v, %mul : i32
  %state = arith.addi %scaled, %inc : i32
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
  %bits = arith.shrui %next, %c8 : i32
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

// s * v
func.func private @scale3(%v: vector<3xf32>, %s: f32) -> vector<3xf32> {
  %sv = vector.broadcast %s : f32 to vector<3xf32>
  %r = arith.mulf %sv, %v : vector<3xf32>
  return %r : vector<3xf32>
}

// c ? a : b for vectors (through a vector<3xi1> mask).
func.func private @select3(%c: i1, %a: vector<3xf32>, %b: vector<3xf32>)
    -> vector<3xf32> {
  %mask = vector.broadcast %c : i1 to vector<3xi1>
  %r = arith.select %mask, %a, %b : vector<3xi1>, vector<3xf32>
  return %r : vector<3xf32>
}

// The 3 floats at mem[base + offset .. base + offset + 2].
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

//===----------------------------------------------------------------------===//
// Ray casting: triangles and the BVH
//===----------------------------------------------------------------------===//

// Moeller-Trumbore: the distance and barycentrics (u, v) of the hit of the
// ray %o + t %d with triangle %tri, or a distance of 3e38 for a miss (t must
// exceed 1e-5).
func.func private @intersect_triangle(%o: vector<3xf32>, %d: vector<3xf32>,
                                      %tris: memref<?xf32>, %tri: i32)
    -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c18 = arith.constant 18 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %tiny = arith.constant 1.0e-12 : f32
  %tmin = arith.constant 1.0e-5 : f32
  %far = arith.constant 3.0e38 : f32
  %base32 = arith.muli %tri, %c18 : i32
  %base = arith.index_cast %base32 : i32 to index
  %v0 = func.call @load3(%tris, %base, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e1 = func.call @load3(%tris, %base, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e2 = func.call @load3(%tris, %base, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %pvec = func.call @cross3(%d, %e2)
      : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %det = func.call @dot3(%e1, %pvec) : (vector<3xf32>, vector<3xf32>) -> f32
  %inv = arith.divf %f1, %det : f32
  %tvec = arith.subf %o, %v0 : vector<3xf32>
  %u0 = func.call @dot3(%tvec, %pvec) : (vector<3xf32>, vector<3xf32>) -> f32
  %u = arith.mulf %u0, %inv : f32
  %qvec = func.call @cross3(%tvec, %e1)
      : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %v1 = func.call @dot3(%d, %qvec) : (vector<3xf32>, vector<3xf32>) -> f32
  %v = arith.mulf %v1, %inv : f32
  %t0 = func.call @dot3(%e2, %qvec) : (vector<3xf32>, vector<3xf32>) -> f32
  %t = arith.mulf %t0, %inv : f32
  // NaNs (a degenerate determinant) fail the ordered comparisons.
  %adet = math.absf %det : f32
  %ok0 = arith.cmpf ogt, %adet, %tiny : f32
  %ok1 = arith.cmpf oge, %u, %f0 : f32
  %ok2 = arith.cmpf oge, %v, %f0 : f32
  %uv = arith.addf %u, %v : f32
  %ok3 = arith.cmpf ole, %uv, %f1 : f32
  %ok4 = arith.cmpf ogt, %t, %tmin : f32
  %a0 = arith.andi %ok0, %ok1 : i1
  %a1 = arith.andi %a0, %ok2 : i1
  %a2 = arith.andi %a1, %ok3 : i1
  %ok = arith.andi %a2, %ok4 : i1
  %tr = arith.select %ok, %t, %far : f32
  return %tr, %u, %v : f32, f32, f32
}

// Traverses the BVH with a stack: the nearest hit closer than %tmax, or with
// %any_hit the first hit found (shadow rays). Returns the distance, the
// triangle (-1 for none) and the barycentrics of the hit.
func.func private @traverse(%o: vector<3xf32>, %d: vector<3xf32>,
                            %tmax: f32, %any_hit: i1,
                            %nodesf: memref<?xf32>, %nodesi: memref<?xi32>,
                            %tris: memref<?xf32>) -> (f32, i32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %i6 = arith.constant 6 : i32
  %none = arith.constant -1 : i32
  %f0 = arith.constant 0.0 : f32
  %true = arith.constant true
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %tiny3 = arith.constant dense<1.0e-12> : vector<3xf32>
  %stack = memref.alloca() : memref<64xi32>
  // 1 / d, with components of magnitude below 1e-12 replaced by 1e-12
  // (keeping the sign), so the slab test sees no 0 * inf.
  %ad = math.absf %d : vector<3xf32>
  %small = arith.cmpf olt, %ad, %tiny3 : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %neg = arith.cmpf olt, %d, %zero3 : vector<3xf32>
  %mtiny3 = arith.negf %tiny3 : vector<3xf32>
  %sd = arith.select %neg, %mtiny3, %tiny3 : vector<3xi1>, vector<3xf32>
  %dsafe = arith.select %small, %sd, %d : vector<3xi1>, vector<3xf32>
  %inv = arith.divf %one3, %dsafe : vector<3xf32>
  memref.store %i0, %stack[%c0] : memref<64xi32>
  %res:5 = scf.while (%sp = %i1, %tbest = %tmax, %best = %none,
                      %bu = %f0, %bv = %f0)
      : (i32, f32, i32, f32, f32) -> (i32, f32, i32, f32, f32) {
    %nonEmpty = arith.cmpi sgt, %sp, %i0 : i32
    %found = arith.cmpi sge, %best, %i0 : i32
    %done = arith.andi %any_hit, %found : i1
    %notDone = arith.xori %done, %true : i1
    %go = arith.andi %nonEmpty, %notDone : i1
    scf.condition(%go) %sp, %tbest, %best, %bu, %bv
        : i32, f32, i32, f32, f32
  } do {
  ^bb0(%sp: i32, %tbest: f32, %best: i32, %bu: f32, %bv: f32):
    // Pop a node and test the ray against its bounds (slab test).
    %top = arith.subi %sp, %i1 : i32
    %topi = arith.index_cast %top : i32 to index
    %node = memref.load %stack[%topi] : memref<64xi32>
    %fbase32 = arith.muli %node, %i6 : i32
    %fbase = arith.index_cast %fbase32 : i32 to index
    %lo = func.call @load3(%nodesf, %fbase, %c0)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %hi = func.call @load3(%nodesf, %fbase, %c3)
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
    %in1 = arith.cmpf olt, %tn0, %tbest : f32
    %hitBox = arith.andi %in0, %in1 : i1
    %ibase = arith.muli %node, %i2 : i32
    %ibase1 = arith.addi %ibase, %i1 : i32
    %ia = arith.index_cast %ibase : i32 to index
    %ib = arith.index_cast %ibase1 : i32 to index
    %first = memref.load %nodesi[%ia] : memref<?xi32>
    %count = memref.load %nodesi[%ib] : memref<?xi32>
    %leaf = arith.cmpi sgt, %count, %i0 : i32
    %next:5 = scf.if %hitBox -> (i32, f32, i32, f32, f32) {
      %r:5 = scf.if %leaf -> (i32, f32, i32, f32, f32) {
        // A leaf: test its triangles.
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
        // An inner node: push the right child (%first), then the left one
        // (the next node), which is popped first.
        %left = arith.addi %node, %i1 : i32
        %above = arith.addi %top, %i1 : i32
        %abovei = arith.index_cast %above : i32 to index
        memref.store %first, %stack[%topi] : memref<64xi32>
        memref.store %left, %stack[%abovei] : memref<64xi32>
        %sp2 = arith.addi %top, %i2 : i32
        scf.yield %sp2, %tbest, %best, %bu, %bv : i32, f32, i32, f32, f32
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
// Sampling
//===----------------------------------------------------------------------===//

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
  %phi = arith.mulf %u1, %twoPi : f32
  %r = math.sqrt %u2 : f32
  %cos = math.cos %phi : f32
  %sin = math.sin %phi : f32
  %lx = arith.mulf %r, %cos : f32
  %ly = arith.mulf %r, %sin : f32
  %h2 = arith.subf %one, %u2 : f32
  %h2c = arith.maximumf %h2, %zero : f32
  %lz = math.sqrt %h2c : f32
  %v1 = func.call @scale3(%n, %lz) : (vector<3xf32>, f32) -> vector<3xf32>
  %v2 = func.call @axpy3(%v1, %lx, %t)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %v3 = func.call @axpy3(%v2, %ly, %bt)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %dir = func.call @normalize3(%v3) : (vector<3xf32>) -> vector<3xf32>
  return %dir : vector<3xf32>
}

// A uniform point on the unit sphere.
func.func private @sphere_point(%u1: f32, %u2: f32) -> vector<3xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %twoPi = arith.constant 6.28318548 : f32
  %z2 = arith.mulf %u1, %two : f32
  %z = arith.subf %one, %z2 : f32
  %zz = arith.mulf %z, %z : f32
  %rr0 = arith.subf %one, %zz : f32
  %rr = arith.maximumf %rr0, %zero : f32
  %r = math.sqrt %rr : f32
  %phi = arith.mulf %u2, %twoPi : f32
  %cos = math.cos %phi : f32
  %sin = math.sin %phi : f32
  %x = arith.mulf %r, %cos : f32
  %y = arith.mulf %r, %sin : f32
  %p = vector.from_elements %x, %y, %z : vector<3xf32>
  return %p : vector<3xf32>
}

// The power heuristic: a^2 / (a^2 + b^2).
func.func private @power_heuristic(%a: f32, %b: f32) -> f32 {
  %aa = arith.mulf %a, %a : f32
  %bb = arith.mulf %b, %b : f32
  %sum = arith.addf %aa, %bb : f32
  %w = arith.divf %aa, %sum : f32
  return %w : f32
}

// Schlick's Fresnel: f0 + (1 - f0) (1 - cos)^5, for a scalar f0.
func.func private @schlick(%f0: f32, %cos: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.subf %one, %cos : f32
  %c = arith.maximumf %c0, %zero : f32
  %c2 = arith.mulf %c, %c : f32
  %c4 = arith.mulf %c2, %c2 : f32
  %c5 = arith.mulf %c4, %c : f32
  %rest = arith.subf %one, %f0 : f32
  %term = arith.mulf %rest, %c5 : f32
  %f = arith.addf %f0, %term : f32
  return %f : f32
}

// The area of triangle %tri and its unit geometric normal (the front side is
// the one from which its vertices run counter-clockwise).
func.func private @triangle_frame(%tris: memref<?xf32>, %tri: i32)
    -> (f32, vector<3xf32>) {
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c18 = arith.constant 18 : i32
  %half = arith.constant 0.5 : f32
  %base32 = arith.muli %tri, %c18 : i32
  %base = arith.index_cast %base32 : i32 to index
  %e1 = func.call @load3(%tris, %base, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e2 = func.call @load3(%tris, %base, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %c = func.call @cross3(%e1, %e2)
      : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %cc = func.call @dot3(%c, %c) : (vector<3xf32>, vector<3xf32>) -> f32
  %len = math.sqrt %cc : f32
  %area = arith.mulf %len, %half : f32
  %inv = arith.divf %half, %area : f32          // 1 / len
  %n = func.call @scale3(%c, %inv) : (vector<3xf32>, f32) -> vector<3xf32>
  return %area, %n : f32, vector<3xf32>
}

// The material %mat: its type, albedo, emission and parameter.
func.func private @load_material(%mats: memref<?xf32>, %mat: i32)
    -> (i32, vector<3xf32>, vector<3xf32>, f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : i32
  %base32 = arith.muli %mat, %c8 : i32
  %base = arith.index_cast %base32 : i32 to index
  %kindf = memref.load %mats[%base] : memref<?xf32>
  %kind = arith.fptosi %kindf : f32 to i32
  %albedo = func.call @load3(%mats, %base, %c1)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %emission = func.call @load3(%mats, %base, %c4)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %pi = arith.addi %base, %c7 : index
  %param = memref.load %mats[%pi] : memref<?xf32>
  return %kind, %albedo, %emission, %param
      : i32, vector<3xf32>, vector<3xf32>, f32
}

// The probability density (per solid angle) of choosing the direction from a
// surface point towards a point at distance %dist on the emissive triangle
// of area %area, seen under the cosine %cos_light, by next-event estimation.
func.func private @light_pdf(%dist: f32, %cos_light: f32, %area: f32,
                             %num_lights: i32) -> f32 {
  %n = arith.sitofp %num_lights : i32 to f32
  %d2 = arith.mulf %dist, %dist : f32
  %ca = arith.mulf %cos_light, %area : f32
  %can = arith.mulf %ca, %n : f32
  %pdf = arith.divf %d2, %can : f32
  return %pdf : f32
}

// Next-event estimation at a diffuse surface point %p (shading normal %ns,
// geometric normal %ng, both facing the incoming ray; %org is %p lifted off
// the surface): chooses an emissive triangle uniformly and a uniform point
// on it, casts a shadow ray and returns the light's contribution, MIS
// weighted against BSDF sampling, divided by the path throughput (i.e.
// albedo / pi * Le * cos * w / pdf), and the next RNG state.
func.func private @direct_light(%org: vector<3xf32>, %ns: vector<3xf32>,
                                %ng: vector<3xf32>, %albedo: vector<3xf32>,
                                %num_lights: i32, %rng: i32,
                                %tris: memref<?xf32>, %trimat: memref<?xi32>,
                                %mats: memref<?xf32>,
                                %nodesf: memref<?xf32>,
                                %nodesi: memref<?xi32>,
                                %lights: memref<?xi32>)
    -> (vector<3xf32>, i32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %i1 = arith.constant 1 : i32
  %c18 = arith.constant 18 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %invPi = arith.constant 0.318309873 : f32
  %shorten = arith.constant 0.999 : f32
  %true = arith.constant true
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  // The light and a point on it: p = v0 + s (1 - r) e1 + s r e2, s = sqrt u.
  %r1:2 = func.call @rand(%rng) : (i32) -> (f32, i32)
  %r2:2 = func.call @rand(%r1#1) : (i32) -> (f32, i32)
  %r3:2 = func.call @rand(%r2#1) : (i32) -> (f32, i32)
  %nf = arith.sitofp %num_lights : i32 to f32
  %pick0 = arith.mulf %r1#0, %nf : f32
  %pick1 = arith.fptosi %pick0 : f32 to i32
  %last = arith.subi %num_lights, %i1 : i32
  %pick = arith.minsi %pick1, %last : i32
  %picki = arith.index_cast %pick : i32 to index
  %light = memref.load %lights[%picki] : memref<?xi32>
  %base32 = arith.muli %light, %c18 : i32
  %base = arith.index_cast %base32 : i32 to index
  %v0 = func.call @load3(%tris, %base, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e1 = func.call @load3(%tris, %base, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %e2 = func.call @load3(%tris, %base, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %s = math.sqrt %r2#0 : f32
  %rr = arith.subf %f1, %r3#0 : f32
  %b1 = arith.mulf %s, %rr : f32
  %b2 = arith.mulf %s, %r3#0 : f32
  %q0 = func.call @axpy3(%v0, %b1, %e1)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %q = func.call @axpy3(%q0, %b2, %e2)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %frame:2 = func.call @triangle_frame(%tris, %light)
      : (memref<?xf32>, i32) -> (f32, vector<3xf32>)
  %lighti = arith.index_cast %light : i32 to index
  %lmat = memref.load %trimat[%lighti] : memref<?xi32>
  %m:4 = func.call @load_material(%mats, %lmat)
      : (memref<?xf32>, i32) -> (i32, vector<3xf32>, vector<3xf32>, f32)
  // The direction towards it and the cosines at both ends.
  %toL = arith.subf %q, %org : vector<3xf32>
  %dd = func.call @dot3(%toL, %toL) : (vector<3xf32>, vector<3xf32>) -> f32
  %dist = math.sqrt %dd : f32
  %invDist = arith.divf %f1, %dist : f32
  %wi = func.call @scale3(%toL, %invDist) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %cosS = func.call @dot3(%ns, %wi) : (vector<3xf32>, vector<3xf32>) -> f32
  %cosG = func.call @dot3(%ng, %wi) : (vector<3xf32>, vector<3xf32>) -> f32
  %cosL0 = func.call @dot3(%frame#1, %wi)
      : (vector<3xf32>, vector<3xf32>) -> f32
  %cosL = arith.negf %cosL0 : f32
  %ok0 = arith.cmpf ogt, %cosS, %f0 : f32
  %ok1 = arith.cmpf ogt, %cosG, %f0 : f32
  %ok2 = arith.cmpf ogt, %cosL, %f0 : f32
  %ok01 = arith.andi %ok0, %ok1 : i1
  %facing = arith.andi %ok01, %ok2 : i1
  // The shadow ray (any hit), only towards a light that faces the point.
  %visible = scf.if %facing -> (i1) {
    %tmax = arith.mulf %dist, %shorten : f32
    %h:4 = func.call @traverse(%org, %wi, %tmax, %true, %nodesf, %nodesi,
                               %tris)
        : (vector<3xf32>, vector<3xf32>, f32, i1, memref<?xf32>,
           memref<?xi32>, memref<?xf32>) -> (f32, i32, f32, f32)
    %i0 = arith.constant 0 : i32
    %blocked = arith.cmpi sge, %h#1, %i0 : i32
    %free = arith.xori %blocked, %true : i1
    scf.yield %free : i1
  } else {
    %false = arith.constant false
    scf.yield %false : i1
  }
  // albedo / pi * Le * cosS * w / pdf_light.
  %pdfL = func.call @light_pdf(%dist, %cosL, %frame#0, %num_lights)
      : (f32, f32, f32, i32) -> f32
  %pdfB = arith.mulf %cosS, %invPi : f32
  %w = func.call @power_heuristic(%pdfL, %pdfB) : (f32, f32) -> f32
  %f = func.call @scale3(%albedo, %invPi) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %fLe = arith.mulf %f, %m#2 : vector<3xf32>
  %cw = arith.mulf %cosS, %w : f32
  %k = arith.divf %cw, %pdfL : f32
  %c = func.call @scale3(%fLe, %k) : (vector<3xf32>, f32) -> vector<3xf32>
  %contrib = func.call @select3(%visible, %c, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  return %contrib, %r3#1 : vector<3xf32>, i32
}

// BSDF sampling. Each returns the new direction, the throughput factor
// (f cos / pdf), the pdf of the direction (0 for the specular-like
// conductor and dielectric, which take no next-event estimation), and the
// next RNG state. A direction below the geometric surface gets a factor of 0
// (the path ends).

// Diffuse: cosine-weighted; the factor is the albedo.
func.func private @sample_diffuse(%ns: vector<3xf32>, %ng: vector<3xf32>,
                                  %albedo: vector<3xf32>, %rng: i32)
    -> (vector<3xf32>, vector<3xf32>, f32, i32) {
  %f0 = arith.constant 0.0 : f32
  %invPi = arith.constant 0.318309873 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %r1:2 = func.call @rand(%rng) : (i32) -> (f32, i32)
  %r2:2 = func.call @rand(%r1#1) : (i32) -> (f32, i32)
  %dir = func.call @cosine_direction(%ns, %r1#0, %r2#0)
      : (vector<3xf32>, f32, f32) -> vector<3xf32>
  %cos = func.call @dot3(%dir, %ns) : (vector<3xf32>, vector<3xf32>) -> f32
  %pdf = arith.mulf %cos, %invPi : f32
  %cosG = func.call @dot3(%dir, %ng) : (vector<3xf32>, vector<3xf32>) -> f32
  %above = arith.cmpf ogt, %cosG, %f0 : f32
  %weight = func.call @select3(%above, %albedo, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  return %dir, %weight, %pdf, %r2#1 : vector<3xf32>, vector<3xf32>, f32, i32
}

// Conductor: the mirror direction perturbed by %rough times a uniform point
// on the unit sphere; the factor is Schlick's Fresnel with the albedo as f0.
func.func private @sample_conductor(%d: vector<3xf32>, %ns: vector<3xf32>,
                                    %ng: vector<3xf32>,
                                    %albedo: vector<3xf32>, %rough: f32,
                                    %rng: i32)
    -> (vector<3xf32>, vector<3xf32>, f32, i32) {
  %f0 = arith.constant 0.0 : f32
  %mtwo = arith.constant -2.0 : f32
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %r1:2 = func.call @rand(%rng) : (i32) -> (f32, i32)
  %r2:2 = func.call @rand(%r1#1) : (i32) -> (f32, i32)
  %dn = func.call @dot3(%d, %ns) : (vector<3xf32>, vector<3xf32>) -> f32
  %k = arith.mulf %dn, %mtwo : f32
  %mirror = func.call @axpy3(%d, %k, %ns)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %fuzz = func.call @sphere_point(%r1#0, %r2#0) : (f32, f32) -> vector<3xf32>
  %m1 = func.call @axpy3(%mirror, %rough, %fuzz)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %dir = func.call @normalize3(%m1) : (vector<3xf32>) -> vector<3xf32>
  // Fresnel: f0 + (1 - f0) (1 - cos)^5 per channel.
  %cos = arith.negf %dn : f32
  %one = arith.constant 1.0 : f32
  %c5 = func.call @schlick(%f0, %cos) : (f32, f32) -> f32  // (1 - cos)^5
  %rest = arith.subf %one3, %albedo : vector<3xf32>
  %fr = func.call @axpy3(%albedo, %c5, %rest)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %cosG = func.call @dot3(%dir, %ng) : (vector<3xf32>, vector<3xf32>) -> f32
  %above = arith.cmpf ogt, %cosG, %f0 : f32
  %weight = func.call @select3(%above, %fr, %zero3)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  return %dir, %weight, %f0, %r2#1 : vector<3xf32>, vector<3xf32>, f32, i32
}

// Dielectric (a smooth interface of index of refraction %ior; %front: the
// ray arrives from outside): reflection with the probability of Schlick's
// Fresnel (1 under total internal reflection), refraction otherwise; a
// refracted ray is tinted by the albedo.
func.func private @sample_dielectric(%d: vector<3xf32>, %ns: vector<3xf32>,
                                     %front: i1, %albedo: vector<3xf32>,
                                     %ior: f32, %rng: i32)
    -> (vector<3xf32>, vector<3xf32>, f32, i32) {
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %mtwo = arith.constant -2.0 : f32
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %r1:2 = func.call @rand(%rng) : (i32) -> (f32, i32)
  %invIor = arith.divf %f1, %ior : f32
  %eta = arith.select %front, %invIor, %ior : f32
  %dn = func.call @dot3(%d, %ns) : (vector<3xf32>, vector<3xf32>) -> f32
  %cosi0 = arith.negf %dn : f32
  %cosi = arith.maximumf %cosi0, %f0 : f32
  %cc = arith.mulf %cosi, %cosi : f32
  %sin2i = arith.subf %f1, %cc : f32
  %ee = arith.mulf %eta, %eta : f32
  %sin2t = arith.mulf %ee, %sin2i : f32
  %tir = arith.cmpf oge, %sin2t, %f1 : f32
  %cos2t0 = arith.subf %f1, %sin2t : f32
  %cos2t = arith.maximumf %cos2t0, %f0 : f32
  %cost = math.sqrt %cos2t : f32
  // Schlick with the cosine on the side of the thinner medium.
  %r0a = arith.subf %f1, %ior : f32
  %r0b = arith.addf %f1, %ior : f32
  %r0c = arith.divf %r0a, %r0b : f32
  %r0 = arith.mulf %r0c, %r0c : f32
  %cosF = arith.select %front, %cosi, %cost : f32
  %fr0 = func.call @schlick(%r0, %cosF) : (f32, f32) -> f32
  %fr = arith.select %tir, %f1, %fr0 : f32
  %reflect = arith.cmpf olt, %r1#0, %fr : f32
  %k = arith.mulf %dn, %mtwo : f32
  %mirror = func.call @axpy3(%d, %k, %ns)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  // eta d + (eta cosi - cost) n
  %ed = func.call @scale3(%d, %eta) : (vector<3xf32>, f32) -> vector<3xf32>
  %ec = arith.mulf %eta, %cosi : f32
  %kt = arith.subf %ec, %cost : f32
  %refr0 = func.call @axpy3(%ed, %kt, %ns)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %refr = func.call @normalize3(%refr0) : (vector<3xf32>) -> vector<3xf32>
  %dir = func.call @select3(%reflect, %mirror, %refr)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %weight = func.call @select3(%reflect, %one3, %albedo)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  return %dir, %weight, %f0, %r1#1 : vector<3xf32>, vector<3xf32>, f32, i32
}

//===----------------------------------------------------------------------===//
// The renderer
//===----------------------------------------------------------------------===//

coro.func @path_trace(%width: i32, %height: i32, %spp: i32, %max_depth: i32,
                      %rr_depth: i32, %num_lights: i32,
                      %scene: memref<?xf32>, %tris: memref<?xf32>,
                      %trimat: memref<?xi32>, %mats: memref<?xf32>,
                      %nodesf: memref<?xf32>, %nodesi: memref<?xi32>,
                      %lights: memref<?xi32>, %image: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c18 = arith.constant 18 : i32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %i3 = arith.constant 3 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %far = arith.constant 3.0e38 : f32
  %lift = arith.constant 1.0e-4 : f32           // surface offset
  %rrMax = arith.constant 0.95 : f32            // highest survival chance
  %true = arith.constant true
  %false = arith.constant false
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %golden = arith.constant -1640531527 : i32     // 0x9E3779B9 as an i32

  // The camera.
  %camPos = func.call @load3(%scene, %c0, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %forward = func.call @load3(%scene, %c0, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %right = func.call @load3(%scene, %c0, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %up = func.call @load3(%scene, %c0, %c9)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %tanHalfFov = memref.load %scene[%c12] : memref<?xf32>

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

    // The path. State: the bounce, the ray, the throughput, the radiance,
    // the RNG, whether it goes on, and the pdf of the BSDF sample that
    // produced the ray (0 for the camera ray and specular-like samples: the
    // emission they find gets no MIS weight).
    %path:8 = scf.while (%depth = %i0, %org = %camPos, %dir = %dir0,
                         %thr = %one3, %rad = %zero3, %rng = %jy#1,
                         %alive = %true, %bsdfPdf = %f0)
        : (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
           i32, i1, f32)
       -> (i32, vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>,
           i32, i1, f32) {
      scf.condition(%alive) %depth, %org, %dir, %thr, %rad, %rng, %alive,
          %bsdfPdf : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
                     vector<3xf32>, i32, i1, f32
    } do {
    ^bb0(%depth: i32, %org: vector<3xf32>, %dir: vector<3xf32>,
         %thr: vector<3xf32>, %rad: vector<3xf32>, %rng: i32, %alive: i1,
         %bsdfPdf: f32):
      // (1) Before the closest-hit intersection.
      coro.suspend "intersect"
      %hit:4 = func.call @traverse(%org, %dir, %far, %false, %nodesf,
                                   %nodesi, %tris)
          : (vector<3xf32>, vector<3xf32>, f32, i1, memref<?xf32>,
             memref<?xi32>, memref<?xf32>) -> (f32, i32, f32, f32)
      %missed = arith.cmpi slt, %hit#1, %i0 : i32
      %next:8 = scf.if %missed -> (i32, vector<3xf32>, vector<3xf32>,
                                   vector<3xf32>, vector<3xf32>, i32, i1,
                                   f32) {
        // (2) The ray escaped: add the sky.
        coro.suspend "miss"
        %sky = func.call @load3(%scene, %c13, %c0)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %skyT = arith.mulf %thr, %sky : vector<3xf32>
        %rad1 = arith.addf %rad, %skyT : vector<3xf32>
        scf.yield %depth, %org, %dir, %thr, %rad1, %rng, %false, %bsdfPdf
            : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
              vector<3xf32>, i32, i1, f32
      } else {
        // The hit record: point, normals (facing the ray), material.
        %p = func.call @axpy3(%org, %hit#0, %dir)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %frame:2 = func.call @triangle_frame(%tris, %hit#1)
            : (memref<?xf32>, i32) -> (f32, vector<3xf32>)
        %cosIn = func.call @dot3(%frame#1, %dir)
            : (vector<3xf32>, vector<3xf32>) -> f32
        %front = arith.cmpf olt, %cosIn, %f0 : f32
        %base32 = arith.muli %hit#1, %c18 : i32
        %base = arith.index_cast %base32 : i32 to index
        %c15 = arith.constant 15 : index
        %n0 = func.call @load3(%tris, %base, %c9)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %n1 = func.call @load3(%tris, %base, %c12)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %n2 = func.call @load3(%tris, %base, %c15)
            : (memref<?xf32>, index, index) -> vector<3xf32>
        %uv = arith.addf %hit#2, %hit#3 : f32
        %w0 = arith.subf %f1, %uv : f32
        %ns0 = func.call @scale3(%n0, %w0) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %ns1 = func.call @axpy3(%ns0, %hit#2, %n1)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %ns2 = func.call @axpy3(%ns1, %hit#3, %n2)
            : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
        %ns3 = func.call @normalize3(%ns2) : (vector<3xf32>) -> vector<3xf32>
        %mone = arith.constant -1.0 : f32
        %flip = arith.select %front, %f1, %mone : f32
        %ng = func.call @scale3(%frame#1, %flip) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %ns = func.call @scale3(%ns3, %flip) : (vector<3xf32>, f32)
            -> vector<3xf32>
        %trii = arith.index_cast %hit#1 : i32 to index
        %matId = memref.load %trimat[%trii] : memref<?xi32>
        %mat:4 = func.call @load_material(%mats, %matId)
            : (memref<?xf32>, i32) -> (i32, vector<3xf32>, vector<3xf32>,
                                       f32)
        // The material type, in a frame field that the wavefront scheduler
        // can sort its queues by (--sort-by=material --hint-buckets=4).
        coro.promise "material", %mat#0 : i32
        %emissive = arith.cmpi eq, %mat#0, %i3 : i32
        %r:8 = scf.if %emissive -> (i32, vector<3xf32>, vector<3xf32>,
                                    vector<3xf32>, vector<3xf32>, i32, i1,
                                    f32) {
          // A light: its emission (front side only), MIS weighted against
          // next-event estimation when a diffuse BSDF sample found it.
          %cosL = arith.negf %cosIn : f32
          %pdfL = func.call @light_pdf(%hit#0, %cosL, %frame#0, %num_lights)
              : (f32, f32, f32, i32) -> f32
          %wMis = func.call @power_heuristic(%bsdfPdf, %pdfL)
              : (f32, f32) -> f32
          %sampled = arith.cmpf ogt, %bsdfPdf, %f0 : f32
          %w = arith.select %sampled, %wMis, %f1 : f32
          %le = func.call @scale3(%mat#2, %w) : (vector<3xf32>, f32)
              -> vector<3xf32>
          %leF = func.call @select3(%front, %le, %zero3)
              : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
          %leT = arith.mulf %thr, %leF : vector<3xf32>
          %rad1 = arith.addf %rad, %leT : vector<3xf32>
          scf.yield %depth, %org, %dir, %thr, %rad1, %rng, %false, %bsdfPdf
              : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
                vector<3xf32>, i32, i1, f32
        } else {
          %pUp = func.call @axpy3(%p, %lift, %ng)
              : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
          %diffuse = arith.cmpi eq, %mat#0, %i0 : i32
          %nee:2 = scf.if %diffuse -> (vector<3xf32>, i32) {
            // (3) Before next-event estimation.
            coro.suspend "light"
            %l:2 = func.call @direct_light(%pUp, %ns, %ng, %mat#1,
                                           %num_lights, %rng, %tris,
                                           %trimat, %mats, %nodesf,
                                           %nodesi, %lights)
                : (vector<3xf32>, vector<3xf32>, vector<3xf32>,
                   vector<3xf32>, i32, i32, memref<?xf32>, memref<?xi32>,
                   memref<?xf32>, memref<?xf32>, memref<?xi32>,
                   memref<?xi32>) -> (vector<3xf32>, i32)
            %lt = arith.mulf %thr, %l#0 : vector<3xf32>
            %rad1 = arith.addf %rad, %lt : vector<3xf32>
            scf.yield %rad1, %l#1 : vector<3xf32>, i32
          } else {
            scf.yield %rad, %rng : vector<3xf32>, i32
          }
          // (4) Before the surface's BSDF is sampled.
          coro.suspend "surface"
          %conductor = arith.cmpi eq, %mat#0, %i1 : i32
          %b:4 = scf.if %diffuse -> (vector<3xf32>, vector<3xf32>, f32, i32) {
            %sd:4 = func.call @sample_diffuse(%ns, %ng, %mat#1, %nee#1)
                : (vector<3xf32>, vector<3xf32>, vector<3xf32>, i32)
                  -> (vector<3xf32>, vector<3xf32>, f32, i32)
            scf.yield %sd#0, %sd#1, %sd#2, %sd#3
                : vector<3xf32>, vector<3xf32>, f32, i32
          } else {
            %sc:4 = scf.if %conductor
                -> (vector<3xf32>, vector<3xf32>, f32, i32) {
              %sm:4 = func.call @sample_conductor(%dir, %ns, %ng, %mat#1,
                                                  %mat#3, %nee#1)
                  : (vector<3xf32>, vector<3xf32>, vector<3xf32>,
                     vector<3xf32>, f32, i32)
                    -> (vector<3xf32>, vector<3xf32>, f32, i32)
              scf.yield %sm#0, %sm#1, %sm#2, %sm#3
                  : vector<3xf32>, vector<3xf32>, f32, i32
            } else {
              %sdl:4 = func.call @sample_dielectric(%dir, %ns, %front,
                                                   %mat#1, %mat#3, %nee#1)
                  : (vector<3xf32>, vector<3xf32>, i1, vector<3xf32>, f32,
                     i32) -> (vector<3xf32>, vector<3xf32>, f32, i32)
              scf.yield %sdl#0, %sdl#1, %sdl#2, %sdl#3
                  : vector<3xf32>, vector<3xf32>, f32, i32
            }
            scf.yield %sc#0, %sc#1, %sc#2, %sc#3
                : vector<3xf32>, vector<3xf32>, f32, i32
          }
          %thr1 = arith.mulf %thr, %b#1 : vector<3xf32>
          // The next ray starts off the surface, on the side it leaves to.
          %side = func.call @dot3(%b#0, %ng)
              : (vector<3xf32>, vector<3xf32>) -> f32
          %out = arith.cmpf oge, %side, %f0 : f32
          %mlift = arith.negf %lift : f32
          %off = arith.select %out, %lift, %mlift : f32
          %org1 = func.call @axpy3(%p, %off, %ng)
              : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
          // Russian roulette from bounce %rr_depth on: survive with the
          // probability of the largest throughput component (at most 0.95).
          %depth1 = arith.addi %depth, %i1 : i32
          %rr:2 = func.call @rand(%b#3) : (i32) -> (f32, i32)
          %tmax = vector.reduction <maximumf>, %thr1 : vector<3xf32> into f32
          %q = arith.minimumf %tmax, %rrMax : f32
          %rrOn = arith.cmpi sge, %depth1, %rr_depth : i32
          %lucky = arith.cmpf olt, %rr#0, %q : f32
          %notOn = arith.xori %rrOn, %true : i1
          %survive = arith.ori %notOn, %lucky : i1
          %invQ = arith.divf %f1, %q : f32
          %thrQ = func.call @scale3(%thr1, %invQ) : (vector<3xf32>, f32)
              -> vector<3xf32>
          %applyQ = arith.andi %rrOn, %survive : i1
          %thr2 = func.call @select3(%applyQ, %thrQ, %thr1)
              : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
          %deeper = arith.cmpi slt, %depth1, %max_depth : i32
          %nonZero = arith.cmpf ogt, %tmax, %f0 : f32
          %go0 = arith.andi %survive, %deeper : i1
          %go = arith.andi %go0, %nonZero : i1
          scf.yield %depth1, %org1, %b#0, %thr2, %nee#0, %rr#1, %go, %b#2
              : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
                vector<3xf32>, i32, i1, f32
        }
        scf.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7
            : i32, vector<3xf32>, vector<3xf32>, vector<3xf32>,
              vector<3xf32>, i32, i1, f32
      }
      scf.yield %next#0, %next#1, %next#2, %next#3, %next#4, %next#5,
          %next#6, %next#7 : i32, vector<3xf32>, vector<3xf32>,
                             vector<3xf32>, vector<3xf32>, i32, i1, f32
    }
    %acc1 = arith.addf %acc, %path#4 : vector<3xf32>
    scf.yield %acc1 : vector<3xf32>
  }

  // The average of the samples, as linear RGB at image[3 id .. 3 id + 2].
  %sppf = arith.uitofp %spp : i32 to f32
  %sppv = vector.broadcast %sppf : f32 to vector<3xf32>
  %color = arith.divf %sum, %sppv : vector<3xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rbase = arith.muli %id, %c3 : index
  %gi = arith.addi %rbase, %c1 : index
  %bi = arith.addi %rbase, %c2 : index
  %cr = vector.extract %color[0] : f32 from vector<3xf32>
  %cg = vector.extract %color[1] : f32 from vector<3xf32>
  %cb = vector.extract %color[2] : f32 from vector<3xf32>
  memref.store %cr, %image[%rbase] : memref<?xf32>
  memref.store %cg, %image[%gi] : memref<?xf32>
  memref.store %cb, %image[%bi] : memref<?xf32>
  coro.return
}

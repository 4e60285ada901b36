// A small path tracer written as one coroutine: per pixel, up to %bounces
// bounces between a mirror-ish sphere and a checkered floor under a sky. It
// suspends before each intersection ("trace") and before each shading step
// ("shade"), so its frame holds what a real path tracer keeps: the ray, the
// throughput and the radiance (vector<3xf32> each), an RNG state, the bounce
// counter, a liveness flag, and across "shade" the hit record (distance,
// normal, material id, whether anything was hit). The frame report of this
// program is compared with a hand-packed frame in docs/frames.md; it
// reaches the lower bound the report computes.
// RUN: coro-opt %s --coro-normalize-control-flow --coro-megakernel-to-func %lower_to_llvm | %run_cpu | grep -v base@ > %t.megakernel
// RUN: coro-opt %s --coro-normalize-control-flow --coro-split --coro-materialize-frame --coro-state-machine-to-func %lower_to_llvm | %run_cpu | grep -v base@ > %t.split
// RUN: diff %t.megakernel %t.split
// RUN: coro-opt %s --coro-normalize-control-flow --coro-split --coro-materialize-frame --coro-frame-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: @trace_paths: frame of [[BYTES:[0-9]+]] bytes
// REPORT: naive
// REPORT: final{{ +}}[[BYTES]] bytes
// REPORT-NEXT: lower bound{{ +}}[[BYTES]] bytes

func.func private @printMemrefF32(memref<*xf32>)

coro.func @trace_paths(%bounces: i32, %image: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %scale = arith.constant 0.0625 : f32
  %true = arith.constant true
  %false = arith.constant false
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>

  // Camera ray through pixel (x, y) of a 16-wide image.
  %x = arith.remui %id, %c16 : index
  %y = arith.divui %id, %c16 : index
  %xi = arith.index_cast %x : index to i32
  %yi = arith.index_cast %y : index to i32
  %xf = arith.sitofp %xi : i32 to f32
  %yf = arith.sitofp %yi : i32 to f32
  %u = arith.mulf %xf, %scale : f32
  %v = arith.mulf %yf, %scale : f32
  %du = arith.subf %u, %half : f32
  %dv = arith.subf %half, %v : f32
  %dir0 = vector.from_elements %du, %dv, %f1 : vector<3xf32>
  %org0 = arith.constant dense<[0.0, 1.0, -3.0]> : vector<3xf32>
  %seed = arith.muli %xi, %yi : i32
  %rng0 = arith.addi %seed, %xi : i32

  %res:6 = scf.for %b = %i0 to %bounces step %i1
      iter_args(%org = %org0, %dir = %dir0, %thr = %one3, %rad = %zero3,
                %rng = %rng0, %alive = %true)
      -> (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, i32, i1) : i32 {
    coro.suspend "trace"
    // Sphere of radius 1 at (0, 1, 0): t = -b - sqrt(b^2 - c).
    %center = arith.constant dense<[0.0, 1.0, 0.0]> : vector<3xf32>
    %oc = arith.subf %org, %center : vector<3xf32>
    %dd = vector.reduction <add>, %dir : vector<3xf32> into f32
    %dirsq = arith.mulf %dir, %dir : vector<3xf32>
    %a = vector.reduction <add>, %dirsq : vector<3xf32> into f32
    %ocd = arith.mulf %oc, %dir : vector<3xf32>
    %bb = vector.reduction <add>, %ocd : vector<3xf32> into f32
    %ocsq = arith.mulf %oc, %oc : vector<3xf32>
    %cc0 = vector.reduction <add>, %ocsq : vector<3xf32> into f32
    %cc = arith.subf %cc0, %f1 : f32
    %bbsq = arith.mulf %bb, %bb : f32
    %acc = arith.mulf %a, %cc : f32
    %disc = arith.subf %bbsq, %acc : f32
    %hasRoot = arith.cmpf ogt, %disc, %f0 : f32
    %sq = math.sqrt %disc : f32
    %nb = arith.negf %bb : f32
    %num = arith.subf %nb, %sq : f32
    %ts = arith.divf %num, %a : f32
    %front = arith.cmpf ogt, %ts, %f0 : f32
    %hitSphere = arith.andi %hasRoot, %front : i1
    // Floor y = 0, reached when the ray goes down.
    %oy = vector.extract %org[1] : f32 from vector<3xf32>
    %dy = vector.extract %dir[1] : f32 from vector<3xf32>
    %down = arith.cmpf olt, %dy, %f0 : f32
    %noy = arith.negf %oy : f32
    %tp = arith.divf %noy, %dy : f32
    %tpFront = arith.cmpf ogt, %tp, %f0 : f32
    %hitFloor = arith.andi %down, %tpFront : i1
    %sphereFirst = arith.cmpf olt, %ts, %tp : f32
    %pickSphere0 = arith.ori %sphereFirst, %down : i1
    %notFloor = arith.xori %hitFloor, %true : i1
    %pickSphere1 = arith.ori %sphereFirst, %notFloor : i1
    %pickSphere = arith.andi %hitSphere, %pickSphere1 : i1
    %t = arith.select %pickSphere, %ts, %tp : f32
    %hit = arith.ori %hitSphere, %hitFloor : i1
    %tv = vector.broadcast %t : f32 to vector<3xf32>
    %step = arith.mulf %tv, %dir : vector<3xf32>
    %p = arith.addf %org, %step : vector<3xf32>
    %ns = arith.subf %p, %center : vector<3xf32>
    %up = arith.constant dense<[0.0, 1.0, 0.0]> : vector<3xf32>
    %pickMask = vector.broadcast %pickSphere : i1 to vector<3xi1>
    %normal = arith.select %pickMask, %ns, %up : vector<3xi1>, vector<3xf32>
    // Material: 0 sphere, 1 or 2 checker squares.
    %px = vector.extract %p[0] : f32 from vector<3xf32>
    %pz = vector.extract %p[2] : f32 from vector<3xf32>
    %pxi = arith.fptosi %px : f32 to i32
    %pzi = arith.fptosi %pz : f32 to i32
    %sum = arith.addi %pxi, %pzi : i32
    %parity = arith.andi %sum, %i1 : i32
    %checker = arith.addi %parity, %i1 : i32
    %material = arith.select %pickSphere, %i0, %checker : i32
    %dummy = arith.addf %dd, %f0 : f32
    coro.suspend "shade"
    %live = arith.andi %alive, %hit : i1
    %sky = vector.broadcast %dummy : f32 to vector<3xf32>
    %skyThr = arith.mulf %thr, %sky : vector<3xf32>
    %missRad = arith.addf %rad, %skyThr : vector<3xf32>
    %escaped = arith.xori %hit, %true : i1
    %addSky = arith.andi %alive, %escaped : i1
    %addMask = vector.broadcast %addSky : i1 to vector<3xi1>
    %rad1 = arith.select %addMask, %missRad, %rad : vector<3xi1>, vector<3xf32>
    // Albedo by material; the RNG jitters the bounce direction.
    %isSphere = arith.cmpi eq, %material, %i0 : i32
    %isDark = arith.cmpi eq, %material, %i1 : i32
    %albedoS = arith.constant dense<[0.9, 0.8, 0.7]> : vector<3xf32>
    %albedoD = arith.constant dense<[0.2, 0.2, 0.2]> : vector<3xf32>
    %albedoL = arith.constant dense<[0.7, 0.7, 0.7]> : vector<3xf32>
    %darkMask = vector.broadcast %isDark : i1 to vector<3xi1>
    %albedoF = arith.select %darkMask, %albedoD, %albedoL : vector<3xi1>, vector<3xf32>
    %sphereMask = vector.broadcast %isSphere : i1 to vector<3xi1>
    %albedo = arith.select %sphereMask, %albedoS, %albedoF : vector<3xi1>, vector<3xf32>
    %thrHit = arith.mulf %thr, %albedo : vector<3xf32>
    %liveMask = vector.broadcast %live : i1 to vector<3xi1>
    %thr1 = arith.select %liveMask, %thrHit, %thr : vector<3xi1>, vector<3xf32>
    %ndot = arith.mulf %normal, %dir : vector<3xf32>
    %dn = vector.reduction <add>, %ndot : vector<3xf32> into f32
    %two = arith.constant 2.0 : f32
    %dn2 = arith.mulf %dn, %two : f32
    %dn2v = vector.broadcast %dn2 : f32 to vector<3xf32>
    %proj = arith.mulf %dn2v, %normal : vector<3xf32>
    %refl = arith.subf %dir, %proj : vector<3xf32>
    %lcgA = arith.constant 1103515245 : i32
    %lcgC = arith.constant 12345 : i32
    %rngM = arith.muli %rng, %lcgA : i32
    %rng1 = arith.addi %rngM, %lcgC : i32
    %bits = arith.andi %rng1, %i1 : i32
    %jf = arith.sitofp %bits : i32 to f32
    %jit = arith.mulf %jf, %scale : f32
    %jitv = vector.broadcast %jit : f32 to vector<3xf32>
    %dirJ = arith.addf %refl, %jitv : vector<3xf32>
    %dir1 = arith.select %liveMask, %dirJ, %dir : vector<3xi1>, vector<3xf32>
    %tv2 = vector.broadcast %t : f32 to vector<3xf32>
    %move = arith.mulf %tv2, %dir : vector<3xf32>
    %hitP = arith.addf %org, %move : vector<3xf32>
    %eps = arith.constant dense<0.001> : vector<3xf32>
    %lift = arith.mulf %normal, %eps : vector<3xf32>
    %hitP1 = arith.addf %hitP, %lift : vector<3xf32>
    %org1 = arith.select %liveMask, %hitP1, %org : vector<3xi1>, vector<3xf32>
    scf.yield %org1, %dir1, %thr1, %rad1, %rng1, %live
        : vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, i32, i1
  }
  %r = vector.reduction <add>, %res#3 : vector<3xf32> into f32
  %mask = arith.constant 255 : i32
  %rngLow = arith.andi %res#4, %mask : i32
  %rngF = arith.sitofp %rngLow : i32 to f32
  %alivef = arith.select %res#5, %f1, %f0 : f32
  %mix = arith.mulf %rngF, %scale : f32
  %mix2 = arith.mulf %mix, %scale : f32
  %tot0 = arith.addf %r, %alivef : f32
  %tot = arith.addf %tot0, %mix2 : f32
  memref.store %tot, %image[%id] : memref<?xf32>
  coro.return
}

func.func @main() {
  %n = arith.constant 48 : index
  %bounces = arith.constant 4 : i32
  %image = memref.alloc(%n) : memref<?xf32>
  coro.launch @trace_paths[%n](%bounces, %image) : (i32, memref<?xf32>) -> ()
  %cast = memref.cast %image : memref<?xf32> to memref<*xf32>
  func.call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  return
}

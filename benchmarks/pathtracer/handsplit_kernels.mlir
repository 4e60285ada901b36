//===----------------------------------------------------------------------===//
// The hand-split wavefront path tracer: kernels written by hand
//===----------------------------------------------------------------------===//
//
// This is a FRAGMENT: ../make_handsplit.py puts pathtracer.mlir's helpers
// and a copy of @path_trace (renamed @path_trace_hand, the mega-kernel
// reference for --check) in front of it, expands the named frame accesses
// below, inlines the helper calls of the kernels with `coro-opt --inline`
// (so the kernels read as what runs) and writes handsplit.mlir.
//
// One kernel per stage of a wavefront path tracer, the same stages as the
// automatic split (entry, intersect, miss, light, surface), the same random
// numbers and the same math in the same order. The path state is packed by
// hand into the frame (words 0 and 1: target token and coro_id). Frame
// fields are scalars, so a vector<3xf32> is three f32 fields NAME_x, _y, _z;
// `coro.frame.load %frame["NAME"] : T` and `coro.frame.store %v,
// %frame["NAME"] : T` name a field (or three) of this table, which
// make_handsplit.py (PATHTRACER_LAYOUT) turns into field indices and the
// coro.split's `fields`:
//
//   name      type           words  live across
//   org       vector<3xf32>  2-4    intersect: the ray origin;
//                                   light, surface: the hit point p
//   dir       vector<3xf32>  5-7    intersect, surface
//   thr       vector<3xf32>  8-10   all but entry
//   rad       vector<3xf32>  11-13  all but entry
//   acc       vector<3xf32>  14-16  all but entry (the sum of the samples)
//   depth     i32            17     intersect, light, surface
//   rng       i32            18     intersect, light, surface
//   sample    i32            19     all but entry
//   bsdf_pdf  f32            20     intersect
//   param     f32            20     light, surface (bsdf_pdf's word: dead there)
//   ns        vector<3xf32>  21-23  light, surface
//   ng        vector<3xf32>  24-26  light, surface
//   albedo    vector<3xf32>  27-29  light, surface
//   material  i32, promise   30     light, surface (--sort-by=material)
//   front     i1             31:0   surface
//
// 32 words, 128 bytes. The end of a path (miss, an emissive hit, a path that
// stops in surface) is handled where it happens: the radiance is added to
// the sum and the next sample's camera ray is generated (back to intersect),
// or the pixel is written (done).

// The camera ray of sample %s of pixel %pixel and its RNG state (the code of
// @path_trace, per sample).
func.func private @pth_camera_ray(%s: i32, %pixel: i32, %width: i32,
                                  %height: i32, %scene: memref<?xf32>)
    -> (vector<3xf32>, vector<3xf32>, i32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %f2 = arith.constant 2.0 : f32
  %golden = arith.constant -1640531527 : i32     // 0x9E3779B9 as an i32
  %camPos = func.call @load3(%scene, %c0, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %forward = func.call @load3(%scene, %c0, %c3)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %right = func.call @load3(%scene, %c0, %c6)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %up = func.call @load3(%scene, %c0, %c9)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %tanHalfFov = memref.load %scene[%c12] : memref<?xf32>
  %x = arith.remui %pixel, %width : i32
  %y = arith.divui %pixel, %width : i32
  %xf = arith.uitofp %x : i32 to f32
  %yf = arith.uitofp %y : i32 to f32
  %wf = arith.uitofp %width : i32 to f32
  %hf = arith.uitofp %height : i32 to f32
  %pixelSeed = func.call @pcg_hash(%pixel) : (i32) -> i32
  %sg = arith.muli %s, %golden : i32
  %sx = arith.xori %pixelSeed, %sg : i32
  %rng0 = func.call @pcg_hash(%sx) : (i32) -> i32
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
  return %camPos, %dir0, %jy#1 : vector<3xf32>, vector<3xf32>, i32
}

// The average of the samples, as linear RGB at image[3 id .. 3 id + 2].
func.func private @pth_write_pixel(%sum: vector<3xf32>, %spp: i32,
                                   %id: index, %image: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %sppf = arith.uitofp %spp : i32 to f32
  %sppv = vector.broadcast %sppf : f32 to vector<3xf32>
  %color = arith.divf %sum, %sppv : vector<3xf32>
  %rbase = arith.muli %id, %c3 : index
  %gi = arith.addi %rbase, %c1 : index
  %bi = arith.addi %rbase, %c2 : index
  %cr = vector.extract %color[0] : f32 from vector<3xf32>
  %cg = vector.extract %color[1] : f32 from vector<3xf32>
  %cb = vector.extract %color[2] : f32 from vector<3xf32>
  memref.store %cr, %image[%rbase] : memref<?xf32>
  memref.store %cg, %image[%gi] : memref<?xf32>
  memref.store %cb, %image[%bi] : memref<?xf32>
  return
}

// entry: the first sample's camera ray (or, with no samples, the pixel).
func.func @path_trace_hand__entry(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %trimat: memref<?xi32>, %mats: memref<?xf32>, %nodesf: memref<?xf32>,
    %nodesi: memref<?xi32>, %lights: memref<?xi32>, %image: memref<?xf32>) {
  %i0 = arith.constant 0 : i32
  %f0 = arith.constant 0.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %id = coro.frame.id %frame : index
  %pixel = arith.index_cast %id : index to i32
  %any = arith.cmpi slt, %i0, %spp : i32
  scf.if %any {
    %cam:3 = func.call @pth_camera_ray(%i0, %pixel, %width, %height, %scene)
        : (i32, i32, i32, i32, memref<?xf32>) -> (vector<3xf32>, vector<3xf32>, i32)
    coro.frame.store %cam#0, %frame["org"] : vector<3xf32>
    coro.frame.store %cam#1, %frame["dir"] : vector<3xf32>
    coro.frame.store %one3, %frame["thr"] : vector<3xf32>
    coro.frame.store %zero3, %frame["rad"] : vector<3xf32>
    coro.frame.store %zero3, %frame["acc"] : vector<3xf32>
    coro.frame.store %i0, %frame["depth"] : i32
    coro.frame.store %cam#2, %frame["rng"] : i32
    coro.frame.store %i0, %frame["sample"] : i32
    coro.frame.store %f0, %frame["bsdf_pdf"] : f32
    coro.frame.set_target %frame, 1
  } else {
    func.call @pth_write_pixel(%zero3, %spp, %id, %image)
        : (vector<3xf32>, i32, index, memref<?xf32>) -> ()
    coro.frame.set_target %frame, -1
  }
  return
}

// intersect: the closest hit; a miss goes to miss, an emissive hit ends the
// path, any other hit stores the hit record and goes to light (diffuse) or
// surface.
func.func @path_trace_hand__intersect(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %trimat: memref<?xi32>, %mats: memref<?xf32>, %nodesf: memref<?xf32>,
    %nodesi: memref<?xi32>, %lights: memref<?xi32>, %image: memref<?xf32>) {
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %c15 = arith.constant 15 : index
  %c18 = arith.constant 18 : i32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i3 = arith.constant 3 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %mone = arith.constant -1.0 : f32
  %far = arith.constant 3.0e38 : f32
  %false = arith.constant false
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %org = coro.frame.load %frame["org"] : vector<3xf32>
  %dir = coro.frame.load %frame["dir"] : vector<3xf32>
  %hit:4 = func.call @traverse(%org, %dir, %far, %false, %nodesf,
                               %nodesi, %tris)
      : (vector<3xf32>, vector<3xf32>, f32, i1, memref<?xf32>,
         memref<?xi32>, memref<?xf32>) -> (f32, i32, f32, f32)
  %missed = arith.cmpi slt, %hit#1, %i0 : i32
  scf.if %missed {
    coro.frame.set_target %frame, 2
  } else {
    %p = func.call @axpy3(%org, %hit#0, %dir)
        : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
    %tf:2 = func.call @triangle_frame(%tris, %hit#1)
        : (memref<?xf32>, i32) -> (f32, vector<3xf32>)
    %cosIn = func.call @dot3(%tf#1, %dir)
        : (vector<3xf32>, vector<3xf32>) -> f32
    %front = arith.cmpf olt, %cosIn, %f0 : f32
    %base32 = arith.muli %hit#1, %c18 : i32
    %base = arith.index_cast %base32 : i32 to index
    %n0 = func.call @load3(%tris, %base, %c9)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %n1 = func.call @load3(%tris, %base, %c12)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %n2 = func.call @load3(%tris, %base, %c15)
        : (memref<?xf32>, index, index) -> vector<3xf32>
    %uv = arith.addf %hit#2, %hit#3 : f32
    %w0 = arith.subf %f1, %uv : f32
    %ns0 = func.call @scale3(%n0, %w0) : (vector<3xf32>, f32) -> vector<3xf32>
    %ns1 = func.call @axpy3(%ns0, %hit#2, %n1)
        : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
    %ns2 = func.call @axpy3(%ns1, %hit#3, %n2)
        : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
    %ns3 = func.call @normalize3(%ns2) : (vector<3xf32>) -> vector<3xf32>
    %flip = arith.select %front, %f1, %mone : f32
    %ng = func.call @scale3(%tf#1, %flip) : (vector<3xf32>, f32) -> vector<3xf32>
    %ns = func.call @scale3(%ns3, %flip) : (vector<3xf32>, f32) -> vector<3xf32>
    %trii = arith.index_cast %hit#1 : i32 to index
    %matId = memref.load %trimat[%trii] : memref<?xi32>
    %mat:4 = func.call @load_material(%mats, %matId)
        : (memref<?xf32>, i32) -> (i32, vector<3xf32>, vector<3xf32>, f32)
    coro.frame.store %mat#0, %frame["material"] : i32
    %emissive = arith.cmpi eq, %mat#0, %i3 : i32
    scf.if %emissive {
      // A light: its emission (front side only), MIS weighted; the path ends.
      %bsdfPdf = coro.frame.load %frame["bsdf_pdf"] : f32
      %thr = coro.frame.load %frame["thr"] : vector<3xf32>
      %rad = coro.frame.load %frame["rad"] : vector<3xf32>
      %cosL = arith.negf %cosIn : f32
      %pdfL = func.call @light_pdf(%hit#0, %cosL, %tf#0, %num_lights)
          : (f32, f32, f32, i32) -> f32
      %wMis = func.call @power_heuristic(%bsdfPdf, %pdfL) : (f32, f32) -> f32
      %sampled = arith.cmpf ogt, %bsdfPdf, %f0 : f32
      %w = arith.select %sampled, %wMis, %f1 : f32
      %le = func.call @scale3(%mat#2, %w) : (vector<3xf32>, f32) -> vector<3xf32>
      %leF = func.call @select3(%front, %le, %zero3)
          : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
      %leT = arith.mulf %thr, %leF : vector<3xf32>
      %rad1 = arith.addf %rad, %leT : vector<3xf32>
      // The end of the path.
      %acc = coro.frame.load %frame["acc"] : vector<3xf32>
      %acc1 = arith.addf %acc, %rad1 : vector<3xf32>
      %s = coro.frame.load %frame["sample"] : i32
      %s1 = arith.addi %s, %i1 : i32
      %more = arith.cmpi slt, %s1, %spp : i32
      scf.if %more {
        %id = coro.frame.id %frame : index
        %pixel = arith.index_cast %id : index to i32
        %cam:3 = func.call @pth_camera_ray(%s1, %pixel, %width, %height, %scene)
            : (i32, i32, i32, i32, memref<?xf32>) -> (vector<3xf32>, vector<3xf32>, i32)
        coro.frame.store %cam#0, %frame["org"] : vector<3xf32>
        coro.frame.store %cam#1, %frame["dir"] : vector<3xf32>
        coro.frame.store %one3, %frame["thr"] : vector<3xf32>
        coro.frame.store %zero3, %frame["rad"] : vector<3xf32>
        coro.frame.store %acc1, %frame["acc"] : vector<3xf32>
        coro.frame.store %i0, %frame["depth"] : i32
        coro.frame.store %cam#2, %frame["rng"] : i32
        coro.frame.store %s1, %frame["sample"] : i32
        coro.frame.store %f0, %frame["bsdf_pdf"] : f32
        coro.frame.set_target %frame, 1
      } else {
        %id = coro.frame.id %frame : index
        func.call @pth_write_pixel(%acc1, %spp, %id, %image)
            : (vector<3xf32>, i32, index, memref<?xf32>) -> ()
        coro.frame.set_target %frame, -1
      }
    } else {
      // The hit record.
      coro.frame.store %p, %frame["org"] : vector<3xf32>
      coro.frame.store %ns, %frame["ns"] : vector<3xf32>
      coro.frame.store %ng, %frame["ng"] : vector<3xf32>
      coro.frame.store %mat#1, %frame["albedo"] : vector<3xf32>
      coro.frame.store %front, %frame["front"] : i1
      coro.frame.store %mat#3, %frame["param"] : f32
      %diffuse = arith.cmpi eq, %mat#0, %i0 : i32
      scf.if %diffuse {
        coro.frame.set_target %frame, 3
      } else {
        coro.frame.set_target %frame, 4
      }
    }
  }
  return
}

// miss: the sky; the path ends.
func.func @path_trace_hand__miss(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %trimat: memref<?xi32>, %mats: memref<?xf32>, %nodesf: memref<?xf32>,
    %nodesi: memref<?xi32>, %lights: memref<?xi32>, %image: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c13 = arith.constant 13 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %thr = coro.frame.load %frame["thr"] : vector<3xf32>
  %rad = coro.frame.load %frame["rad"] : vector<3xf32>
  %sky = func.call @load3(%scene, %c13, %c0)
      : (memref<?xf32>, index, index) -> vector<3xf32>
  %skyT = arith.mulf %thr, %sky : vector<3xf32>
  %rad1 = arith.addf %rad, %skyT : vector<3xf32>
  // The end of the path.
  %acc = coro.frame.load %frame["acc"] : vector<3xf32>
  %acc1 = arith.addf %acc, %rad1 : vector<3xf32>
  %s = coro.frame.load %frame["sample"] : i32
  %s1 = arith.addi %s, %i1 : i32
  %more = arith.cmpi slt, %s1, %spp : i32
  scf.if %more {
    %id = coro.frame.id %frame : index
    %pixel = arith.index_cast %id : index to i32
    %cam:3 = func.call @pth_camera_ray(%s1, %pixel, %width, %height, %scene)
        : (i32, i32, i32, i32, memref<?xf32>) -> (vector<3xf32>, vector<3xf32>, i32)
    coro.frame.store %cam#0, %frame["org"] : vector<3xf32>
    coro.frame.store %cam#1, %frame["dir"] : vector<3xf32>
    coro.frame.store %one3, %frame["thr"] : vector<3xf32>
    coro.frame.store %zero3, %frame["rad"] : vector<3xf32>
    coro.frame.store %acc1, %frame["acc"] : vector<3xf32>
    coro.frame.store %i0, %frame["depth"] : i32
    coro.frame.store %cam#2, %frame["rng"] : i32
    coro.frame.store %s1, %frame["sample"] : i32
    coro.frame.store %f0, %frame["bsdf_pdf"] : f32
    coro.frame.set_target %frame, 1
  } else {
    %id = coro.frame.id %frame : index
    func.call @pth_write_pixel(%acc1, %spp, %id, %image)
        : (vector<3xf32>, i32, index, memref<?xf32>) -> ()
    coro.frame.set_target %frame, -1
  }
  return
}

// light: next-event estimation at a diffuse hit (a shadow ray); then surface.
func.func @path_trace_hand__light(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %trimat: memref<?xi32>, %mats: memref<?xf32>, %nodesf: memref<?xf32>,
    %nodesi: memref<?xi32>, %lights: memref<?xi32>, %image: memref<?xf32>) {
  %lift = arith.constant 1.0e-4 : f32
  %p = coro.frame.load %frame["org"] : vector<3xf32>
  %ns = coro.frame.load %frame["ns"] : vector<3xf32>
  %ng = coro.frame.load %frame["ng"] : vector<3xf32>
  %albedo = coro.frame.load %frame["albedo"] : vector<3xf32>
  %rng = coro.frame.load %frame["rng"] : i32
  %pUp = func.call @axpy3(%p, %lift, %ng)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %l:2 = func.call @direct_light(%pUp, %ns, %ng, %albedo, %num_lights, %rng,
                                 %tris, %trimat, %mats, %nodesf, %nodesi,
                                 %lights)
      : (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, i32, i32,
         memref<?xf32>, memref<?xi32>, memref<?xf32>, memref<?xf32>,
         memref<?xi32>, memref<?xi32>) -> (vector<3xf32>, i32)
  %thr = coro.frame.load %frame["thr"] : vector<3xf32>
  %rad = coro.frame.load %frame["rad"] : vector<3xf32>
  %lt = arith.mulf %thr, %l#0 : vector<3xf32>
  %rad1 = arith.addf %rad, %lt : vector<3xf32>
  coro.frame.store %rad1, %frame["rad"] : vector<3xf32>
  coro.frame.store %l#1, %frame["rng"] : i32
  coro.frame.set_target %frame, 4
  return
}

// surface: samples the BSDF, Russian roulette; the next bounce (intersect),
// or the end of the path.
func.func @path_trace_hand__surface(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %trimat: memref<?xi32>, %mats: memref<?xf32>, %nodesf: memref<?xf32>,
    %nodesi: memref<?xi32>, %lights: memref<?xi32>, %image: memref<?xf32>) {
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %lift = arith.constant 1.0e-4 : f32
  %rrMax = arith.constant 0.95 : f32
  %true = arith.constant true
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %matType = coro.frame.load %frame["material"] : i32
  %ns = coro.frame.load %frame["ns"] : vector<3xf32>
  %ng = coro.frame.load %frame["ng"] : vector<3xf32>
  %albedo = coro.frame.load %frame["albedo"] : vector<3xf32>
  %rng = coro.frame.load %frame["rng"] : i32
  %diffuse = arith.cmpi eq, %matType, %i0 : i32
  %conductor = arith.cmpi eq, %matType, %i1 : i32
  %b:4 = scf.if %diffuse -> (vector<3xf32>, vector<3xf32>, f32, i32) {
    %sd:4 = func.call @sample_diffuse(%ns, %ng, %albedo, %rng)
        : (vector<3xf32>, vector<3xf32>, vector<3xf32>, i32)
          -> (vector<3xf32>, vector<3xf32>, f32, i32)
    scf.yield %sd#0, %sd#1, %sd#2, %sd#3 : vector<3xf32>, vector<3xf32>, f32, i32
  } else {
    %dir = coro.frame.load %frame["dir"] : vector<3xf32>
    %param = coro.frame.load %frame["param"] : f32
    %sc:4 = scf.if %conductor -> (vector<3xf32>, vector<3xf32>, f32, i32) {
      %sm:4 = func.call @sample_conductor(%dir, %ns, %ng, %albedo, %param, %rng)
          : (vector<3xf32>, vector<3xf32>, vector<3xf32>, vector<3xf32>, f32,
             i32) -> (vector<3xf32>, vector<3xf32>, f32, i32)
      scf.yield %sm#0, %sm#1, %sm#2, %sm#3 : vector<3xf32>, vector<3xf32>, f32, i32
    } else {
      %front = coro.frame.load %frame["front"] : i1
      %sdl:4 = func.call @sample_dielectric(%dir, %ns, %front, %albedo, %param,
                                            %rng)
          : (vector<3xf32>, vector<3xf32>, i1, vector<3xf32>, f32, i32)
            -> (vector<3xf32>, vector<3xf32>, f32, i32)
      scf.yield %sdl#0, %sdl#1, %sdl#2, %sdl#3 : vector<3xf32>, vector<3xf32>, f32, i32
    }
    scf.yield %sc#0, %sc#1, %sc#2, %sc#3 : vector<3xf32>, vector<3xf32>, f32, i32
  }
  %thr = coro.frame.load %frame["thr"] : vector<3xf32>
  %thr1 = arith.mulf %thr, %b#1 : vector<3xf32>
  // The next ray starts off the surface, on the side it leaves to.
  %p = coro.frame.load %frame["org"] : vector<3xf32>
  %side = func.call @dot3(%b#0, %ng) : (vector<3xf32>, vector<3xf32>) -> f32
  %out = arith.cmpf oge, %side, %f0 : f32
  %mlift = arith.negf %lift : f32
  %off = arith.select %out, %lift, %mlift : f32
  %org1 = func.call @axpy3(%p, %off, %ng)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  // Russian roulette.
  %depth = coro.frame.load %frame["depth"] : i32
  %depth1 = arith.addi %depth, %i1 : i32
  %rr:2 = func.call @rand(%b#3) : (i32) -> (f32, i32)
  %tmax = vector.reduction <maximumf>, %thr1 : vector<3xf32> into f32
  %q = arith.minimumf %tmax, %rrMax : f32
  %rrOn = arith.cmpi sge, %depth1, %rr_depth : i32
  %lucky = arith.cmpf olt, %rr#0, %q : f32
  %notOn = arith.xori %rrOn, %true : i1
  %survive = arith.ori %notOn, %lucky : i1
  %invQ = arith.divf %f1, %q : f32
  %thrQ = func.call @scale3(%thr1, %invQ) : (vector<3xf32>, f32) -> vector<3xf32>
  %applyQ = arith.andi %rrOn, %survive : i1
  %thr2 = func.call @select3(%applyQ, %thrQ, %thr1)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %deeper = arith.cmpi slt, %depth1, %max_depth : i32
  %nonZero = arith.cmpf ogt, %tmax, %f0 : f32
  %go0 = arith.andi %survive, %deeper : i1
  %go = arith.andi %go0, %nonZero : i1
  scf.if %go {
    // The next bounce.
    coro.frame.store %org1, %frame["org"] : vector<3xf32>
    coro.frame.store %b#0, %frame["dir"] : vector<3xf32>
    coro.frame.store %thr2, %frame["thr"] : vector<3xf32>
    coro.frame.store %depth1, %frame["depth"] : i32
    coro.frame.store %rr#1, %frame["rng"] : i32
    coro.frame.store %b#2, %frame["bsdf_pdf"] : f32
    coro.frame.set_target %frame, 1
  } else {
    // The end of the path.
    %rad = coro.frame.load %frame["rad"] : vector<3xf32>
    %acc = coro.frame.load %frame["acc"] : vector<3xf32>
    %acc1 = arith.addf %acc, %rad : vector<3xf32>
    %s = coro.frame.load %frame["sample"] : i32
    %s1 = arith.addi %s, %i1 : i32
    %more = arith.cmpi slt, %s1, %spp : i32
    scf.if %more {
      %id = coro.frame.id %frame : index
      %pixel = arith.index_cast %id : index to i32
      %cam:3 = func.call @pth_camera_ray(%s1, %pixel, %width, %height, %scene)
          : (i32, i32, i32, i32, memref<?xf32>) -> (vector<3xf32>, vector<3xf32>, i32)
      coro.frame.store %cam#0, %frame["org"] : vector<3xf32>
      coro.frame.store %cam#1, %frame["dir"] : vector<3xf32>
      coro.frame.store %one3, %frame["thr"] : vector<3xf32>
      coro.frame.store %zero3, %frame["rad"] : vector<3xf32>
      coro.frame.store %acc1, %frame["acc"] : vector<3xf32>
      coro.frame.store %i0, %frame["depth"] : i32
      coro.frame.store %cam#2, %frame["rng"] : i32
      coro.frame.store %s1, %frame["sample"] : i32
      coro.frame.store %f0, %frame["bsdf_pdf"] : f32
      coro.frame.set_target %frame, 1
    } else {
      %id = coro.frame.id %frame : index
      func.call @pth_write_pixel(%acc1, %spp, %id, %image)
          : (vector<3xf32>, i32, index, memref<?xf32>) -> ()
      coro.frame.set_target %frame, -1
    }
  }
  return
}

coro.split @path_trace_hand
    subroutines [@path_trace_hand__entry, @path_trace_hand__intersect,
                 @path_trace_hand__miss, @path_trace_hand__light,
                 @path_trace_hand__surface]
    names ["entry", "intersect", "miss", "light", "surface"]
    fields @FIELDS@
    transitions [array<i32: 0, 1>, array<i32: 0, -1>,
                 array<i32: 1, 1>, array<i32: 1, 2>, array<i32: 1, 3>,
                 array<i32: 1, 4>, array<i32: 1, -1>,
                 array<i32: 2, 1>, array<i32: 2, -1>,
                 array<i32: 3, 4>,
                 array<i32: 4, 1>, array<i32: 4, -1>]

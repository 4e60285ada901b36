//===----------------------------------------------------------------------===//
// The hand-split wavefront shading-heavy path tracer: kernels written by hand
//===----------------------------------------------------------------------===//
//
// This is a FRAGMENT: make_handsplit.py (--workload=heavy) puts heavy.mlir's
// helpers and a copy of @path_trace_heavy (renamed @path_trace_heavy_hand,
// the mega-kernel reference for --check) in front of it, expands the named
// frame accesses below, inlines the helper calls of the kernels with
// `coro-opt --inline` (so the kernels read as what runs) and writes
// handsplit.mlir.
//
// One kernel per stage, the same stages as the automatic split (entry,
// intersect, miss, surface, light, in its order, so the wavefront kernels
// are numbered alike), the same random numbers and the same math in the
// same order. The path state is packed by hand into the frame (words 0 and
// 1: target token and coro_id). Frame fields are scalars, so a
// vector<3xf32> is three f32 fields NAME_x, _y, _z; `coro.frame.load
// %frame["NAME"] : T` and `coro.frame.store %v, %frame["NAME"] : T` name a
// field (or three) of this table, which make_handsplit.py (its LAYOUT for
// the heavy workload) turns into field indices and the coro.split's
// `fields`:
//
//   name        type           words  live across
//   org         vector<3xf32>  2-4    intersect: the ray origin;
//                                     surface: the hit point p;
//                                     light: the next ray's origin
//   dir         vector<3xf32>  5-7    intersect, miss, surface;
//                                     light: the next ray's direction
//   thr         vector<3xf32>  8-10   intersect, miss, surface;
//                                     light: the next ray's throughput
//   rad         vector<3xf32>  11-13  all but entry
//   depth       i32            14     intersect, surface; light: the next
//                                     bounce, or -1 if the path ends there
//   rng         i32            15     intersect, surface, light
//   bsdf_pdf    f32            16     intersect, light (the next ray's)
//   tri         i32            16     surface (bsdf_pdf's word: dead there)
//   cone_w      f32            17     intersect: the cone's width at the
//                                     origin; surface, light: at the hit
//   cone_s      f32            18     intersect, surface; light: the next
//                                     ray's spread
//   material    i32, promise   19     surface (--sort-by=material)
//   b1, b2      f32            20, 21 surface (the hit's barycentrics)
//   shadow_org  vector<3xf32>  20-22  light (b1's and b2's words: dead there)
//   shadow_dir  vector<3xf32>  23-25  light
//   shadow_max  f32            26     light
//   contrib     vector<3xf32>  27-29  light (next-event estimation's
//                                     contribution if the light is seen)
//
// 30 words, 120 bytes (the automatic split: 124; the hand split needs no
// word for whether the path goes on after light: depth says it). intersect
// computes the hit point and the cone's width there, so surface gets them
// instead of the distance; surface writes the next ray where intersect
// reads it, so light only adds to the radiance. The end of a path (miss,
// an emissive hit, a path that stops in surface or light) writes the
// sample right where it happens.

// This sample's radiance at samples[3 id ..], 0 for a NaN or infinite
// component (the end of @path_trace_heavy).
func.func private @heavy_write_sample(%rad: vector<3xf32>, %id: index,
                                      %samples: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %big = arith.constant dense<1.0e30> : vector<3xf32>
  %arad = math.absf %rad : vector<3xf32>
  %finite = arith.cmpf olt, %arad, %big : vector<3xf32>
  %clean = arith.select %finite, %rad, %zero3 : vector<3xi1>, vector<3xf32>
  %rb = arith.muli %id, %c3 : index
  %gi = arith.addi %rb, %c1 : index
  %bi = arith.addi %rb, %c2 : index
  %cr = vector.extract %clean[0] : f32 from vector<3xf32>
  %cg = vector.extract %clean[1] : f32 from vector<3xf32>
  %cb = vector.extract %clean[2] : f32 from vector<3xf32>
  memref.store %cr, %samples[%rb] : memref<?xf32>
  memref.store %cg, %samples[%gi] : memref<?xf32>
  memref.store %cb, %samples[%bi] : memref<?xf32>
  return
}

// entry: the camera ray through a jittered point of the pixel, and the
// ray cone's spread.
func.func @path_trace_heavy_hand__entry(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %attrs: memref<?xf32>, %trimat: memref<?xi32>, %mats: memref<?xf32>,
    %nodesf: memref<?xf32>, %nodesi: memref<?xi32>, %lights: memref<?xi32>,
    %texinfo: memref<?xi32>, %texels: memref<?xi32>,
    %samples: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %i0 = arith.constant 0 : i32
  %f0 = arith.constant 0.0 : f32
  %f2 = arith.constant 2.0 : f32
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %one3 = arith.constant dense<1.0> : vector<3xf32>
  %golden = arith.constant -1640531527 : i32     // 0x9E3779B9 as an i32
  // The instance is sample %sample of pixel %pixel.
  %id = coro.frame.id %frame : index
  %inst = arith.index_cast %id : index to i32
  %pixel = arith.divui %inst, %spp : i32
  %sample = arith.remui %inst, %spp : i32
  %x = arith.remui %pixel, %width : i32
  %y = arith.divui %pixel, %width : i32
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
  %th2 = arith.mulf %tanHalf, %f2 : f32
  %spread0 = arith.divf %th2, %hf : f32
  coro.frame.store %camPos, %frame["org"] : vector<3xf32>
  coro.frame.store %dir0, %frame["dir"] : vector<3xf32>
  coro.frame.store %one3, %frame["thr"] : vector<3xf32>
  coro.frame.store %zero3, %frame["rad"] : vector<3xf32>
  coro.frame.store %i0, %frame["depth"] : i32
  coro.frame.store %jy#1, %frame["rng"] : i32
  coro.frame.store %f0, %frame["bsdf_pdf"] : f32
  coro.frame.store %f0, %frame["cone_w"] : f32
  coro.frame.store %spread0, %frame["cone_s"] : f32
  coro.frame.set_target %frame, 1
  return
}

// intersect: the closest hit; a miss goes to miss, an emissive hit ends the
// path, any other hit stores the hit record and goes to surface.
func.func @path_trace_heavy_hand__intersect(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %attrs: memref<?xf32>, %trimat: memref<?xi32>, %mats: memref<?xf32>,
    %nodesf: memref<?xf32>, %nodesi: memref<?xi32>, %lights: memref<?xi32>,
    %texinfo: memref<?xi32>, %texels: memref<?xi32>,
    %samples: memref<?xf32>) {
  %c4 = arith.constant 4 : index
  %i0 = arith.constant 0 : i32
  %i6 = arith.constant 6 : i32
  %i32 = arith.constant 32 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %far = arith.constant 3.0e38 : f32
  %false = arith.constant false
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %org = coro.frame.load %frame["org"] : vector<3xf32>
  %dir = coro.frame.load %frame["dir"] : vector<3xf32>
  %hit:4 = func.call @traverse(%org, %dir, %far, %false, %nodesf, %nodesi,
                               %tris)
      : (vector<3xf32>, vector<3xf32>, f32, i1, memref<?xf32>,
         memref<?xi32>, memref<?xf32>) -> (f32, i32, f32, f32)
  %missed = arith.cmpi slt, %hit#1, %i0 : i32
  scf.if %missed {
    coro.frame.set_target %frame, 2
  } else {
    %tri = arith.index_cast %hit#1 : i32 to index
    %matId = memref.load %trimat[%tri] : memref<?xi32>
    %mb32 = arith.muli %matId, %i32 : i32
    %mb = arith.index_cast %mb32 : i32 to index
    %kindf = memref.load %mats[%mb] : memref<?xf32>
    %kind = arith.fptosi %kindf : f32 to i32
    coro.frame.store %matId, %frame["material"] : i32
    %emissive = arith.cmpi eq, %kind, %i6 : i32
    scf.if %emissive {
      // A light: its emission (front side only), MIS weighted against
      // next-event estimation when a BSDF sample found it; the path ends.
      %bsdfPdf = coro.frame.load %frame["bsdf_pdf"] : f32
      %thr = coro.frame.load %frame["thr"] : vector<3xf32>
      %rad = coro.frame.load %frame["rad"] : vector<3xf32>
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
      %le = func.call @load3(%mats, %mb, %c4)
          : (memref<?xf32>, index, index) -> vector<3xf32>
      %front = arith.cmpf ogt, %cosL, %f0 : f32
      %lw = func.call @scale3(%le, %w) : (vector<3xf32>, f32)
          -> vector<3xf32>
      %lwf = func.call @select3(%front, %lw, %zero3)
          : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
      %lt = arith.mulf %thr, %lwf : vector<3xf32>
      %rad1 = arith.addf %rad, %lt : vector<3xf32>
      %id = coro.frame.id %frame : index
      func.call @heavy_write_sample(%rad1, %id, %samples)
          : (vector<3xf32>, index, memref<?xf32>) -> ()
      coro.frame.set_target %frame, -1
    } else {
      // The hit record: the point, the cone's width there, the triangle
      // and the barycentrics.
      %coneW = coro.frame.load %frame["cone_w"] : f32
      %coneS = coro.frame.load %frame["cone_s"] : f32
      %p = func.call @axpy3(%org, %hit#0, %dir)
          : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
      %coneHit = math.fma %coneS, %hit#0, %coneW : f32
      coro.frame.store %p, %frame["org"] : vector<3xf32>
      coro.frame.store %coneHit, %frame["cone_w"] : f32
      coro.frame.store %hit#1, %frame["tri"] : i32
      coro.frame.store %hit#2, %frame["b1"] : f32
      coro.frame.store %hit#3, %frame["b2"] : f32
      coro.frame.set_target %frame, 3
    }
  }
  return
}

// miss: the sky (found by BSDF sampling only); the path ends.
func.func @path_trace_heavy_hand__miss(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %attrs: memref<?xf32>, %trimat: memref<?xi32>, %mats: memref<?xf32>,
    %nodesf: memref<?xf32>, %nodesi: memref<?xi32>, %lights: memref<?xi32>,
    %texinfo: memref<?xi32>, %texels: memref<?xi32>,
    %samples: memref<?xf32>) {
  %dir = coro.frame.load %frame["dir"] : vector<3xf32>
  %thr = coro.frame.load %frame["thr"] : vector<3xf32>
  %rad = coro.frame.load %frame["rad"] : vector<3xf32>
  %sky = func.call @sky(%scene, %dir)
      : (memref<?xf32>, vector<3xf32>) -> vector<3xf32>
  %skyT = arith.mulf %thr, %sky : vector<3xf32>
  %rad1 = arith.addf %rad, %skyT : vector<3xf32>
  %id = coro.frame.id %frame : index
  func.call @heavy_write_sample(%rad1, %id, %samples)
      : (vector<3xf32>, index, memref<?xf32>) -> ()
  coro.frame.set_target %frame, -1
  return
}

// surface: the hit record (normal, uv, dp/du, dp/dv), the pattern (textures,
// noise, bump), the shading frame, next-event estimation's light sample and
// the BSDF's value towards it, the BSDF sample that makes the next ray, and
// Russian roulette. Then light (the shadow ray), the next bounce
// (intersect), or the end of the path.
func.func @path_trace_heavy_hand__surface(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %attrs: memref<?xf32>, %trimat: memref<?xi32>, %mats: memref<?xf32>,
    %nodesf: memref<?xf32>, %nodesi: memref<?xi32>, %lights: memref<?xi32>,
    %texinfo: memref<?xi32>, %texels: memref<?xi32>,
    %samples: memref<?xf32>) {
  %c0 = arith.constant 0 : index
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
  %i9 = arith.constant 9 : i32
  %i15 = arith.constant 15 : i32
  %i32 = arith.constant 32 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %lift = arith.constant 1.0e-4 : f32           // ray offset off a surface
  %rrMax = arith.constant 0.95 : f32            // highest survival chance
  %smooth = arith.constant 0.02 : f32           // specular below this roughness
  %shorten = arith.constant 0.999 : f32
  %tiny = arith.constant 1.0e-12 : f32
  %cosMin = arith.constant 1.0e-4 : f32
  %true = arith.constant true
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %p = coro.frame.load %frame["org"] : vector<3xf32>
  %dir = coro.frame.load %frame["dir"] : vector<3xf32>
  %tri = coro.frame.load %frame["tri"] : i32
  %b1 = coro.frame.load %frame["b1"] : f32
  %b2 = coro.frame.load %frame["b2"] : f32
  %matId = coro.frame.load %frame["material"] : i32
  %mb32 = arith.muli %matId, %i32 : i32
  %mb = arith.index_cast %mb32 : i32 to index
  %tf:2 = func.call @triangle_frame(%tris, %tri)
      : (memref<?xf32>, i32) -> (f32, vector<3xf32>)
  %cosIn = func.call @dot3(%tf#1, %dir)
      : (vector<3xf32>, vector<3xf32>) -> f32
  %front = arith.cmpf olt, %cosIn, %f0 : f32
  %mone = arith.constant -1.0 : f32
  %flip = arith.select %front, %f1, %mone : f32
  %ng = func.call @scale3(%tf#1, %flip) : (vector<3xf32>, f32)
      -> vector<3xf32>
  // Interpolated normal and texture coordinates.
  %a32 = arith.muli %tri, %i15 : i32
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
  %bu = arith.addf %b1, %b2 : f32
  %b0 = arith.subf %f1, %bu : f32
  %ns0 = func.call @scale3(%n0, %b0) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %ns1 = func.call @axpy3(%ns0, %b1, %n1)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %ns2 = func.call @axpy3(%ns1, %b2, %n2)
      : (vector<3xf32>, f32, vector<3xf32>) -> vector<3xf32>
  %ns3 = func.call @normalize3(%ns2) : (vector<3xf32>) -> vector<3xf32>
  %ns = func.call @scale3(%ns3, %flip) : (vector<3xf32>, f32)
      -> vector<3xf32>
  %tu0 = arith.mulf %ua, %b0 : f32
  %tu1 = math.fma %ub, %b1, %tu0 : f32
  %tu = math.fma %uc, %b2, %tu1 : f32
  %tv0 = arith.mulf %va, %b0 : f32
  %tv1 = math.fma %vb, %b1, %tv0 : f32
  %tv = math.fma %vc, %b2, %tv1 : f32
  // The level of detail of a texture of one texel per unit of
  // texture space: log2 of the cone's width at the hit over the
  // cosine, plus half log2 of the triangle's texture-space area over
  // its world-space area.
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
  %coneHit = coro.frame.load %frame["cone_w"] : f32
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
  %t32 = arith.muli %tri, %i9 : i32
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
  %kindf = memref.load %mats[%mb] : memref<?xf32>
  %kind = arith.fptosi %kindf : f32 to i32
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
  %rng = coro.frame.load %frame["rng"] : i32
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
  %thr = coro.frame.load %frame["thr"] : vector<3xf32>
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
  %coneS = coro.frame.load %frame["cone_s"] : f32
  %coneS1 = math.fma %spreadA, %f2, %coneS : f32

  // Russian roulette from bounce %rr_depth on: survive with the
  // probability of the largest throughput component (at most 0.95).
  %depth = coro.frame.load %frame["depth"] : i32
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

  scf.if %go {
    // The next ray, where intersect reads it (light leaves it there).
    coro.frame.store %org1, %frame["org"] : vector<3xf32>
    coro.frame.store %wi, %frame["dir"] : vector<3xf32>
    coro.frame.store %thr2, %frame["thr"] : vector<3xf32>
    coro.frame.store %rr#1, %frame["rng"] : i32
    coro.frame.store %bs#2, %frame["bsdf_pdf"] : f32
    coro.frame.store %coneS1, %frame["cone_s"] : f32
  }
  scf.if %nee {
    // Before next-event estimation's shadow ray: light ends the path
    // (depth -1) or goes on to the next bounce.
    %ends = arith.constant -1 : i32
    %depthL = arith.select %go, %depth1, %ends : i32
    coro.frame.store %depthL, %frame["depth"] : i32
    coro.frame.store %shadowOrg, %frame["shadow_org"] : vector<3xf32>
    coro.frame.store %ls#0, %frame["shadow_dir"] : vector<3xf32>
    coro.frame.store %shadowMax, %frame["shadow_max"] : f32
    coro.frame.store %contrib, %frame["contrib"] : vector<3xf32>
    coro.frame.set_target %frame, 4
  } else {
    scf.if %go {
      coro.frame.store %depth1, %frame["depth"] : i32
      coro.frame.set_target %frame, 1
    } else {
      %rad = coro.frame.load %frame["rad"] : vector<3xf32>
      %id = coro.frame.id %frame : index
      func.call @heavy_write_sample(%rad, %id, %samples)
          : (vector<3xf32>, index, memref<?xf32>) -> ()
      coro.frame.set_target %frame, -1
    }
  }
  return
}

// light: next-event estimation's shadow ray (an any-hit traversal); then
// the next bounce, or the end of the path.
func.func @path_trace_heavy_hand__light(%frame: !coro.frame,
    %width: i32, %height: i32, %spp: i32, %max_depth: i32, %rr_depth: i32,
    %num_lights: i32, %scene: memref<?xf32>, %tris: memref<?xf32>,
    %attrs: memref<?xf32>, %trimat: memref<?xi32>, %mats: memref<?xf32>,
    %nodesf: memref<?xf32>, %nodesi: memref<?xi32>, %lights: memref<?xi32>,
    %texinfo: memref<?xi32>, %texels: memref<?xi32>,
    %samples: memref<?xf32>) {
  %i0 = arith.constant 0 : i32
  %true = arith.constant true
  %zero3 = arith.constant dense<0.0> : vector<3xf32>
  %shadowOrg = coro.frame.load %frame["shadow_org"] : vector<3xf32>
  %shadowDir = coro.frame.load %frame["shadow_dir"] : vector<3xf32>
  %shadowMax = coro.frame.load %frame["shadow_max"] : f32
  %sh:4 = func.call @traverse(%shadowOrg, %shadowDir, %shadowMax, %true,
                              %nodesf, %nodesi, %tris)
      : (vector<3xf32>, vector<3xf32>, f32, i1, memref<?xf32>,
         memref<?xi32>, memref<?xf32>) -> (f32, i32, f32, f32)
  %blocked = arith.cmpi sge, %sh#1, %i0 : i32
  %contrib = coro.frame.load %frame["contrib"] : vector<3xf32>
  %add = func.call @select3(%blocked, %zero3, %contrib)
      : (i1, vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  %rad = coro.frame.load %frame["rad"] : vector<3xf32>
  %rad1 = arith.addf %rad, %add : vector<3xf32>
  %depth = coro.frame.load %frame["depth"] : i32
  %more = arith.cmpi sge, %depth, %i0 : i32
  scf.if %more {
    coro.frame.store %rad1, %frame["rad"] : vector<3xf32>
    coro.frame.set_target %frame, 1
  } else {
    %id = coro.frame.id %frame : index
    func.call @heavy_write_sample(%rad1, %id, %samples)
        : (vector<3xf32>, index, memref<?xf32>) -> ()
    coro.frame.set_target %frame, -1
  }
  return
}

coro.split @path_trace_heavy_hand
    subroutines [@path_trace_heavy_hand__entry,
                 @path_trace_heavy_hand__intersect,
                 @path_trace_heavy_hand__miss,
                 @path_trace_heavy_hand__surface,
                 @path_trace_heavy_hand__light]
    names ["entry", "intersect", "miss", "surface", "light"]
    fields @FIELDS@
    transitions [array<i32: 0, 1>,
                 array<i32: 1, 2>, array<i32: 1, 3>, array<i32: 1, -1>,
                 array<i32: 2, -1>,
                 array<i32: 3, 1>, array<i32: 3, 4>, array<i32: 3, -1>,
                 array<i32: 4, 1>, array<i32: 4, -1>]

// Paper Sec. 7.3 (Fig. 13, Listing 8): a custom pass during suspension.
//
// @tex_path traces one path per pixel over a checkerboard ground plane and a
// mirror sphere. At every bounce it writes the hit's texture coordinates and
// surface id to two images and suspends at "surface_eval". While every path
// waits there, the host program launches @uv_derivs, an ordinary kernel that
// estimates each pixel's texture-coordinate derivatives by finite
// differences with its neighbours on the same surface (a path cannot: it
// does not see its neighbours). The paths then resume, read their
// derivatives and filter the texture anisotropically (filter = 1), or
// bilinearly without derivatives (filter = 0, the usual 2-spp aliasing).
//
// The schedule is the paper's Listing 8, written with the low-level
// interfaces: @pt_start runs every path's entry and stores its frame in a
// buffer; @pt_continue loads a frame, resumes it once (to its next
// suspension or its end) and stores it back. The host launches
// @pt_start, then max-depth times @uv_derivs and @pt_continue. A launch
// returns when every instance has returned, so when @uv_derivs runs every
// path has reached "surface_eval" (or finished): that is the ordering
// guarantee the finite differences need, and it is the host program's.
//
// @render(width, height, spp, filter, film) does it all: it builds the
// texture's mip pyramid with two more kernels, renders spp samples and
// leaves the mean radiance (linear RGB, 3 floats per pixel, rows from the
// top) in film. It returns the number of paths that had not finished after
// their max-depth continuations (0 unless the scene and the host loop
// disagree). benchmarks/texture-filtering/run.py calls it from a @main, on
// Vulkan, CUDA or the CPU (the ctest benchmark-texture-filtering-tiny and
// test/e2e/{ptx,cuda}/texture-filtering.mlir).

// The texture: 256 x 256 texels, RGB, with its 9 mip levels one after the
// other (level l is (256 >> l)^2 texels from texel (4^5 * 256 - (4^5 * 256
// >> 2l)) / 3 on).

func.func @tex_level_offset(%level: i32) -> i32 {
  %all = arith.constant 262144 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %shift = arith.muli %level, %c2 : i32
  %rest = arith.shrui %all, %shift : i32
  %used = arith.subi %all, %rest : i32
  %offset = arith.divui %used, %c3 : i32
  return %offset : i32
}

// The texel (x, y) of a level, wrapped around (the sizes are powers of 2).
func.func @tex_texel(%tex: memref<?xf32>, %level: i32, %x: i32, %y: i32) -> (f32, f32, f32) {
  %c256 = arith.constant 256 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %size = arith.shrui %c256, %level : i32
  %mask = arith.subi %size, %c1 : i32
  %xw = arith.andi %x, %mask : i32
  %yw = arith.andi %y, %mask : i32
  %offset = func.call @tex_level_offset(%level) : (i32) -> i32
  %row = arith.muli %yw, %size : i32
  %texel = arith.addi %row, %xw : i32
  %at = arith.addi %offset, %texel : i32
  %first = arith.muli %at, %c3 : i32
  %i0 = arith.index_cast %first : i32 to index
  %c1i = arith.constant 1 : index
  %c2i = arith.constant 2 : index
  %i1 = arith.addi %i0, %c1i : index
  %i2 = arith.addi %i0, %c2i : index
  %r = memref.load %tex[%i0] : memref<?xf32>
  %g = memref.load %tex[%i1] : memref<?xf32>
  %b = memref.load %tex[%i2] : memref<?xf32>
  return %r, %g, %b : f32, f32, f32
}

func.func @lerp3(%t: f32, %ar: f32, %ag: f32, %ab: f32, %br: f32, %bg: f32, %bb: f32) -> (f32, f32, f32) {
  %dr = arith.subf %br, %ar : f32
  %dg = arith.subf %bg, %ag : f32
  %db = arith.subf %bb, %ab : f32
  %r = math.fma %t, %dr, %ar : f32
  %g = math.fma %t, %dg, %ag : f32
  %b = math.fma %t, %db, %ab : f32
  return %r, %g, %b : f32, f32, f32
}

// Bilinear filtering of one level at (u, v); one texture tile per unit.
func.func @tex_bilinear(%tex: memref<?xf32>, %level: i32, %u: f32, %v: f32) -> (f32, f32, f32) {
  %c256 = arith.constant 256 : i32
  %c1 = arith.constant 1 : i32
  %half = arith.constant 0.5 : f32
  %size = arith.shrui %c256, %level : i32
  %sizef = arith.sitofp %size : i32 to f32
  // Keep only the fraction of (u, v) first: far away on the plane they
  // are large, and texel positions in f32 would lose their fraction.
  %uf = math.floor %u : f32
  %vf = math.floor %v : f32
  %ut = arith.subf %u, %uf : f32
  %vt = arith.subf %v, %vf : f32
  %xs = arith.mulf %ut, %sizef : f32
  %ys = arith.mulf %vt, %sizef : f32
  %x = arith.subf %xs, %half : f32
  %y = arith.subf %ys, %half : f32
  %x0f = math.floor %x : f32
  %y0f = math.floor %y : f32
  %fx = arith.subf %x, %x0f : f32
  %fy = arith.subf %y, %y0f : f32
  %x0 = arith.fptosi %x0f : f32 to i32
  %y0 = arith.fptosi %y0f : f32 to i32
  %x1 = arith.addi %x0, %c1 : i32
  %y1 = arith.addi %y0, %c1 : i32
  %ar, %ag, %ab = func.call @tex_texel(%tex, %level, %x0, %y0) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %br, %bg, %bb = func.call @tex_texel(%tex, %level, %x1, %y0) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %cr, %cg, %cb = func.call @tex_texel(%tex, %level, %x0, %y1) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %dr, %dg, %db = func.call @tex_texel(%tex, %level, %x1, %y1) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %er, %eg, %eb = func.call @lerp3(%fx, %ar, %ag, %ab, %br, %bg, %bb) : (f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32)
  %fr, %fg, %fb = func.call @lerp3(%fx, %cr, %cg, %cb, %dr, %dg, %db) : (f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32)
  %r, %g, %b = func.call @lerp3(%fy, %er, %eg, %eb, %fr, %fg, %fb) : (f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32)
  return %r, %g, %b : f32, f32, f32
}

// Trilinear filtering: bilinear in the two levels around `lod`, blended.
func.func @tex_trilinear(%tex: memref<?xf32>, %lod: f32, %u: f32, %v: f32) -> (f32, f32, f32) {
  %zero = arith.constant 0.0 : f32
  %top = arith.constant 8.0 : f32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %l = arith.maximumf %lod, %zero : f32
  %lc = arith.minimumf %l, %top : f32
  %l0f = math.floor %lc : f32
  %t = arith.subf %lc, %l0f : f32
  %l0 = arith.fptosi %l0f : f32 to i32
  %l1u = arith.addi %l0, %c1 : i32
  %l1 = arith.minsi %l1u, %c8 : i32
  %ar, %ag, %ab = func.call @tex_bilinear(%tex, %l0, %u, %v) : (memref<?xf32>, i32, f32, f32) -> (f32, f32, f32)
  %br, %bg, %bb = func.call @tex_bilinear(%tex, %l1, %u, %v) : (memref<?xf32>, i32, f32, f32) -> (f32, f32, f32)
  %r, %g, %b = func.call @lerp3(%t, %ar, %ag, %ab, %br, %bg, %bb) : (f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32)
  return %r, %g, %b : f32, f32, f32
}

// Anisotropic filtering from the derivatives of (u, v) along the image's x
// and y: up to 16 trilinear taps along the footprint's major axis, at the
// level its minor axis asks for (the footprint is at most 16:1).
func.func @tex_anisotropic(%tex: memref<?xf32>, %u: f32, %v: f32, %dudx: f32, %dvdx: f32, %dudy: f32, %dvdy: f32) -> (f32, f32, f32) {
  %texels = arith.constant 256.0 : f32
  %max_ratio = arith.constant 16.0 : f32
  %tiny = arith.constant 1.0e-6 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : i32
  %c1i = arith.constant 1 : i32
  %ax2 = arith.mulf %dudx, %dudx : f32
  %la2 = math.fma %dvdx, %dvdx, %ax2 : f32
  %bx2 = arith.mulf %dudy, %dudy : f32
  %lb2 = math.fma %dvdy, %dvdy, %bx2 : f32
  %la0 = math.sqrt %la2 : f32
  %lb0 = math.sqrt %lb2 : f32
  %la = arith.mulf %la0, %texels : f32
  %lb = arith.mulf %lb0, %texels : f32
  %a_major = arith.cmpf oge, %la, %lb : f32
  %major = arith.maximumf %la, %lb : f32
  %minor0 = arith.minimumf %la, %lb : f32
  %mu = arith.select %a_major, %dudx, %dudy : f32
  %mv = arith.select %a_major, %dvdx, %dvdy : f32
  %floor_ratio = arith.divf %major, %max_ratio : f32
  %minor1 = arith.maximumf %minor0, %floor_ratio : f32
  %minor = arith.maximumf %minor1, %tiny : f32
  %ratio = arith.divf %major, %minor : f32
  %taps_f = math.ceil %ratio : f32
  %taps_u = arith.fptosi %taps_f : f32 to i32
  %taps_lo = arith.maxsi %taps_u, %c1i : i32
  %taps = arith.minsi %taps_lo, %c16 : i32
  %lod = math.log2 %minor : f32
  %n = arith.index_cast %taps : i32 to index
  %nf = arith.sitofp %taps : i32 to f32
  %sum:3 = scf.for %i = %c0 to %n step %c1 iter_args(%sr = %zero, %sg = %zero, %sb = %zero) -> (f32, f32, f32) {
    %i32 = arith.index_cast %i : index to i32
    %if = arith.sitofp %i32 : i32 to f32
    %mid = arith.addf %if, %half : f32
    %frac = arith.divf %mid, %nf : f32
    %t = arith.subf %frac, %half : f32
    %tu = math.fma %t, %mu, %u : f32
    %tv = math.fma %t, %mv, %v : f32
    %r, %g, %b = func.call @tex_trilinear(%tex, %lod, %tu, %tv) : (memref<?xf32>, f32, f32, f32) -> (f32, f32, f32)
    %nr = arith.addf %sr, %r : f32
    %ng = arith.addf %sg, %g : f32
    %nb = arith.addf %sb, %b : f32
    scf.yield %nr, %ng, %nb : f32, f32, f32
  }
  %inv = arith.divf %one, %nf : f32
  %r = arith.mulf %sum#0, %inv : f32
  %g = arith.mulf %sum#1, %inv : f32
  %b = arith.mulf %sum#2, %inv : f32
  return %r, %g, %b : f32, f32, f32
}

// Level 0 of the texture: 8 x 8 squares of two colours with a thin dark
// line along every square's edge.
coro.func @make_texture(%tex: memref<?xf32>) {
  %id = coro.id : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %x = arith.remui %id, %c256 : index
  %y = arith.divui %id, %c256 : index
  %sx = arith.divui %x, %c32 : index
  %sy = arith.divui %y, %c32 : index
  %sum = arith.addi %sx, %sy : index
  %parity = arith.remui %sum, %c2 : index
  %light = arith.cmpi eq, %parity, %c0 : index
  %ex = arith.remui %x, %c32 : index
  %ey = arith.remui %y, %c32 : index
  %lx = arith.cmpi eq, %ex, %c0 : index
  %ly = arith.cmpi eq, %ey, %c0 : index
  %line = arith.ori %lx, %ly : i1
  %wr = arith.constant 0.92 : f32
  %wg = arith.constant 0.88 : f32
  %wb = arith.constant 0.78 : f32
  %dr = arith.constant 0.55 : f32
  %dg = arith.constant 0.12 : f32
  %db = arith.constant 0.08 : f32
  %ink = arith.constant 0.03 : f32
  %r0 = arith.select %light, %wr, %dr : f32
  %g0 = arith.select %light, %wg, %dg : f32
  %b0 = arith.select %light, %wb, %db : f32
  %r = arith.select %line, %ink, %r0 : f32
  %g = arith.select %line, %ink, %g0 : f32
  %b = arith.select %line, %ink, %b0 : f32
  %i0 = arith.muli %id, %c3 : index
  %i1 = arith.addi %i0, %c1 : index
  %i2 = arith.addi %i0, %c2 : index
  memref.store %r, %tex[%i0] : memref<?xf32>
  memref.store %g, %tex[%i1] : memref<?xf32>
  memref.store %b, %tex[%i2] : memref<?xf32>
  coro.return
}

// Level `level` (>= 1) from level - 1: each texel the mean of four.
coro.func @downsample(%level: i32, %tex: memref<?xf32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c256 = arith.constant 256 : i32
  %quarter = arith.constant 0.25 : f32
  %size = arith.shrui %c256, %level : i32
  %id32 = arith.index_cast %id : index to i32
  %x = arith.remui %id32, %size : i32
  %y = arith.divui %id32, %size : i32
  %up = arith.subi %level, %c1 : i32
  %x0 = arith.muli %x, %c2 : i32
  %y0 = arith.muli %y, %c2 : i32
  %x1 = arith.addi %x0, %c1 : i32
  %y1 = arith.addi %y0, %c1 : i32
  %ar, %ag, %ab = func.call @tex_texel(%tex, %up, %x0, %y0) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %br, %bg, %bb = func.call @tex_texel(%tex, %up, %x1, %y0) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %cr, %cg, %cb = func.call @tex_texel(%tex, %up, %x0, %y1) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %dr, %dg, %db = func.call @tex_texel(%tex, %up, %x1, %y1) : (memref<?xf32>, i32, i32, i32) -> (f32, f32, f32)
  %r0 = arith.addf %ar, %br : f32
  %r1 = arith.addf %cr, %dr : f32
  %r2 = arith.addf %r0, %r1 : f32
  %g0 = arith.addf %ag, %bg : f32
  %g1 = arith.addf %cg, %dg : f32
  %g2 = arith.addf %g0, %g1 : f32
  %b0 = arith.addf %ab, %bb : f32
  %b1 = arith.addf %cb, %db : f32
  %b2 = arith.addf %b0, %b1 : f32
  %r = arith.mulf %r2, %quarter : f32
  %g = arith.mulf %g2, %quarter : f32
  %b = arith.mulf %b2, %quarter : f32
  %offset = func.call @tex_level_offset(%level) : (i32) -> i32
  %at = arith.addi %offset, %id32 : i32
  %first = arith.muli %at, %c3 : i32
  %i0 = arith.index_cast %first : i32 to index
  %c1i = arith.constant 1 : index
  %c2i = arith.constant 2 : index
  %i1 = arith.addi %i0, %c1i : index
  %i2 = arith.addi %i0, %c2i : index
  memref.store %r, %tex[%i0] : memref<?xf32>
  memref.store %g, %tex[%i1] : memref<?xf32>
  memref.store %b, %tex[%i2] : memref<?xf32>
  coro.return
}

// The scene: the ground plane y = 0 (surface 1; texture coordinates x / 2
// and z / 2, out to a distance of 40) and a mirror sphere (surface 2) on
// it; nothing else is the sky (surface 0). Returns the nearest hit's
// distance and surface.
func.func @scene_intersect(%ox: f32, %oy: f32, %oz: f32, %dx: f32, %dy: f32, %dz: f32) -> (f32, i32) {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-4 : f32
  %far = arith.constant 40.0 : f32
  %down = arith.constant -1.0e-6 : f32
  %cx = arith.constant 1.1 : f32
  %cy = arith.constant 0.8 : f32
  %cz = arith.constant 4.0 : f32
  %r2 = arith.constant 0.64 : f32
  %sky = arith.constant 0 : i32
  %plane = arith.constant 1 : i32
  %mirror = arith.constant 2 : i32
  // The plane, seen from above.
  %falling = arith.cmpf olt, %dy, %down : f32
  %noy = arith.negf %oy : f32
  %tp = arith.divf %noy, %dy : f32
  %tp_near = arith.cmpf olt, %tp, %far : f32
  %tp_ahead = arith.cmpf ogt, %tp, %eps : f32
  %p0 = arith.andi %falling, %tp_near : i1
  %hit_plane = arith.andi %p0, %tp_ahead : i1
  // The sphere: t = -b - sqrt(b^2 - c) with b = (o - c).d, c = |o - c|^2 - r^2.
  %qx = arith.subf %ox, %cx : f32
  %qy = arith.subf %oy, %cy : f32
  %qz = arith.subf %oz, %cz : f32
  %b0 = arith.mulf %qx, %dx : f32
  %b1 = math.fma %qy, %dy, %b0 : f32
  %b = math.fma %qz, %dz, %b1 : f32
  %q0 = arith.mulf %qx, %qx : f32
  %q1 = math.fma %qy, %qy, %q0 : f32
  %q2 = math.fma %qz, %qz, %q1 : f32
  %c = arith.subf %q2, %r2 : f32
  %bb = arith.mulf %b, %b : f32
  %disc = arith.subf %bb, %c : f32
  %cuts = arith.cmpf ogt, %disc, %zero : f32
  %discp = arith.maximumf %disc, %zero : f32
  %root = math.sqrt %discp : f32
  %nb = arith.negf %b : f32
  %ts = arith.subf %nb, %root : f32
  %ts_ahead = arith.cmpf ogt, %ts, %eps : f32
  %hit_sphere = arith.andi %cuts, %ts_ahead : i1
  %sphere_first = arith.cmpf olt, %ts, %tp : f32
  %true = arith.constant true
  %not_plane = arith.xori %hit_plane, %true : i1
  %sphere_wins = arith.ori %sphere_first, %not_plane : i1
  %take_sphere = arith.andi %hit_sphere, %sphere_wins : i1
  %s0 = arith.select %hit_plane, %plane, %sky : i32
  %t0 = arith.select %hit_plane, %tp, %zero : f32
  %surface = arith.select %take_sphere, %mirror, %s0 : i32
  %t = arith.select %take_sphere, %ts, %t0 : f32
  return %t, %surface : f32, i32
}

// Whether the ray from a point of the plane toward the sun meets the sphere.
func.func @in_shadow(%px: f32, %pz: f32) -> i1 {
  %zero = arith.constant 0.0 : f32
  %lx = arith.constant -0.3478 : f32
  %ly = arith.constant 0.7950 : f32
  %lz = arith.constant -0.4969 : f32
  %cx = arith.constant 1.1 : f32
  %cy = arith.constant 0.8 : f32
  %cz = arith.constant 4.0 : f32
  %r2 = arith.constant 0.64 : f32
  %qx = arith.subf %px, %cx : f32
  %qy = arith.negf %cy : f32
  %qz = arith.subf %pz, %cz : f32
  %b0 = arith.mulf %qx, %lx : f32
  %b1 = math.fma %qy, %ly, %b0 : f32
  %b = math.fma %qz, %lz, %b1 : f32
  %q0 = arith.mulf %qx, %qx : f32
  %q1 = math.fma %qy, %qy, %q0 : f32
  %q2 = math.fma %qz, %qz, %q1 : f32
  %c = arith.subf %q2, %r2 : f32
  %bb = arith.mulf %b, %b : f32
  %disc = arith.subf %bb, %c : f32
  %cuts = arith.cmpf ogt, %disc, %zero : f32
  %toward = arith.cmpf olt, %b, %zero : f32
  %shadow = arith.andi %cuts, %toward : i1
  return %shadow : i1
}

// One path per pixel (instance id = y * width + x), `weight` times its
// radiance added to film. At each bounce the hit's texture coordinates and
// surface go to uv and surface (per pixel) before "surface_eval"; after it,
// duv holds the pixel's (du/dx, dv/dx, du/dy, dv/dy).
coro.func @tex_path(%width: i32, %height: i32, %sample: i32, %filter: i32, %weight: f32, %tex: memref<?xf32>, %uv: memref<?xf32>, %surface: memref<?xi32>, %duv: memref<?xf32>, %film: memref<?xf32>) {
  %id = coro.id : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %max_depth = arith.constant 3 : i32
  %gone = arith.constant -1 : i32
  %id32 = arith.index_cast %id : index to i32
  %px = arith.remui %id32, %width : i32
  %py = arith.divui %id32, %width : i32
  // The sample's offset in the pixel, the same for every pixel (the R2
  // sequence), so that neighbours differ by exactly one pixel.
  %sf = arith.uitofp %sample : i32 to f32
  %a1 = arith.constant 0.7548776662 : f32
  %a2 = arith.constant 0.5698402910 : f32
  %jx0 = math.fma %sf, %a1, %half : f32
  %jy0 = math.fma %sf, %a2, %half : f32
  %jxf = math.floor %jx0 : f32
  %jyf = math.floor %jy0 : f32
  %jx = arith.subf %jx0, %jxf : f32
  %jy = arith.subf %jy0, %jyf : f32
  // The camera at (0, 1.2, 0), looking down the z axis and 15 degrees down,
  // 50 degrees of vertical field of view.
  %wf = arith.uitofp %width : i32 to f32
  %hf = arith.uitofp %height : i32 to f32
  %pxf = arith.uitofp %px : i32 to f32
  %pyf = arith.uitofp %py : i32 to f32
  %sx0 = arith.addf %pxf, %jx : f32
  %sy0 = arith.addf %pyf, %jy : f32
  %sx1 = arith.divf %sx0, %wf : f32
  %sy1 = arith.divf %sy0, %hf : f32
  %sx2 = math.fma %sx1, %two, %one : f32
  %sx3 = arith.subf %sx2, %two : f32
  %sy2 = arith.mulf %sy1, %two : f32
  %sy3 = arith.subf %one, %sy2 : f32
  %tan = arith.constant 0.46631 : f32
  %aspect = arith.divf %wf, %hf : f32
  %xs = arith.mulf %aspect, %tan : f32
  %ndx = arith.mulf %sx3, %xs : f32
  %ndy = arith.mulf %sy3, %tan : f32
  %fy = arith.constant -0.26963 : f32
  %fz = arith.constant 0.96296 : f32
  %uy = arith.constant 0.96296 : f32
  %uz = arith.constant 0.26963 : f32
  %ry = math.fma %ndy, %uy, %fy : f32
  %rz = math.fma %ndy, %uz, %fz : f32
  %l0 = arith.mulf %ndx, %ndx : f32
  %l1 = math.fma %ry, %ry, %l0 : f32
  %l2 = math.fma %rz, %rz, %l1 : f32
  %len = math.sqrt %l2 : f32
  %d0x = arith.divf %ndx, %len : f32
  %d0y = arith.divf %ry, %len : f32
  %d0z = arith.divf %rz, %len : f32
  %o0y = arith.constant 1.2 : f32
  %pixel = arith.index_cast %id32 : i32 to index
  %uv_at = arith.muli %pixel, %c2 : index
  %uv_at1 = arith.addi %uv_at, %c1 : index
  %duv_at = arith.muli %pixel, %c4 : index
  %duv_at1 = arith.addi %duv_at, %c1 : index
  %duv_at2 = arith.addi %duv_at, %c2 : index
  %duv_at3 = arith.addi %duv_at, %c3 : index
  %path:11 = scf.while (%ox = %zero, %oy = %o0y, %oz = %zero, %dx = %d0x, %dy = %d0y, %dz = %d0z, %beta = %one, %lr = %zero, %lg = %zero, %lb = %zero, %depth = %i0)
      : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32) {
    %more = arith.cmpi slt, %depth, %max_depth : i32
    scf.condition(%more) %ox, %oy, %oz, %dx, %dy, %dz, %beta, %lr, %lg, %lb, %depth : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32
  } do {
  ^bb0(%ox: f32, %oy: f32, %oz: f32, %dx: f32, %dy: f32, %dz: f32, %beta: f32, %lr: f32, %lg: f32, %lb: f32, %depth: i32):
    %t, %hit = func.call @scene_intersect(%ox, %oy, %oz, %dx, %dy, %dz) : (f32, f32, f32, f32, f32, f32) -> (f32, i32)
    %hx = math.fma %t, %dx, %ox : f32
    %hy = math.fma %t, %dy, %oy : f32
    %hz = math.fma %t, %dz, %oz : f32
    %on_plane = arith.cmpi eq, %hit, %i1 : i32
    %u0 = arith.mulf %hx, %half : f32
    %v0 = arith.mulf %hz, %half : f32
    %u = arith.select %on_plane, %u0, %zero : f32
    %v = arith.select %on_plane, %v0, %zero : f32
    memref.store %u, %uv[%uv_at] : memref<?xf32>
    memref.store %v, %uv[%uv_at1] : memref<?xf32>
    memref.store %hit, %surface[%pixel] : memref<?xi32>
    coro.suspend "surface_eval"
    %next = arith.addi %depth, %i1 : i32
    %which = arith.index_cast %hit : i32 to index
    %out:11 = scf.index_switch %which -> f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32
    case 1 {
      // The plane: the texture, lit by the sun unless the sphere is in the
      // way, plus some sky.
      %dudx = memref.load %duv[%duv_at] : memref<?xf32>
      %dvdx = memref.load %duv[%duv_at1] : memref<?xf32>
      %dudy = memref.load %duv[%duv_at2] : memref<?xf32>
      %dvdy = memref.load %duv[%duv_at3] : memref<?xf32>
      %aniso = arith.cmpi ne, %filter, %i0 : i32
      %rgb:3 = scf.if %aniso -> (f32, f32, f32) {
        %r, %g, %b = func.call @tex_anisotropic(%tex, %u, %v, %dudx, %dvdx, %dudy, %dvdy) : (memref<?xf32>, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32)
        scf.yield %r, %g, %b : f32, f32, f32
      } else {
        %r, %g, %b = func.call @tex_bilinear(%tex, %i0, %u, %v) : (memref<?xf32>, i32, f32, f32) -> (f32, f32, f32)
        scf.yield %r, %g, %b : f32, f32, f32
      }
      %shadow = func.call @in_shadow(%hx, %hz) : (f32, f32) -> i1
      %sun = arith.constant 0.72 : f32
      %ambient = arith.constant 0.28 : f32
      %direct = arith.select %shadow, %zero, %sun : f32
      %light = arith.addf %direct, %ambient : f32
      %lit = arith.mulf %light, %beta : f32
      %nr = math.fma %rgb#0, %lit, %lr : f32
      %ng = math.fma %rgb#1, %lit, %lg : f32
      %nb = math.fma %rgb#2, %lit, %lb : f32
      scf.yield %hx, %hy, %hz, %dx, %dy, %dz, %beta, %nr, %ng, %nb, %max_depth : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32
    }
    case 2 {
      // The mirror: reflect about the normal, 80 % of the light.
      %cx = arith.constant 1.1 : f32
      %cy = arith.constant 0.8 : f32
      %cz = arith.constant 4.0 : f32
      %inv_r = arith.constant 1.25 : f32
      %nx0 = arith.subf %hx, %cx : f32
      %ny0 = arith.subf %hy, %cy : f32
      %nz0 = arith.subf %hz, %cz : f32
      %nx = arith.mulf %nx0, %inv_r : f32
      %ny = arith.mulf %ny0, %inv_r : f32
      %nz = arith.mulf %nz0, %inv_r : f32
      %k0 = arith.mulf %dx, %nx : f32
      %k1 = math.fma %dy, %ny, %k0 : f32
      %k = math.fma %dz, %nz, %k1 : f32
      %k2 = arith.mulf %k, %two : f32
      %nk2 = arith.negf %k2 : f32
      %rx = math.fma %nk2, %nx, %dx : f32
      %ry2 = math.fma %nk2, %ny, %dy : f32
      %rz2 = math.fma %nk2, %nz, %dz : f32
      %lift = arith.constant 1.0e-3 : f32
      %ex = math.fma %nx, %lift, %hx : f32
      %ey = math.fma %ny, %lift, %hy : f32
      %ez = math.fma %nz, %lift, %hz : f32
      %tint = arith.constant 0.8 : f32
      %nbeta = arith.mulf %beta, %tint : f32
      scf.yield %ex, %ey, %ez, %rx, %ry2, %rz2, %nbeta, %lr, %lg, %lb, %next : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32
    }
    default {
      // The sky: white at the horizon, blue up high.
      %up0 = arith.maximumf %dy, %zero : f32
      %w = arith.subf %one, %up0 : f32
      %br = arith.constant 0.45 : f32
      %bg = arith.constant 0.65 : f32
      %sg0 = arith.subf %one, %bg : f32
      %sg = math.fma %w, %sg0, %bg : f32
      %sr2 = arith.subf %one, %br : f32
      %skyr = math.fma %w, %sr2, %br : f32
      %skyr_lit = arith.mulf %skyr, %beta : f32
      %skyg_lit = arith.mulf %sg, %beta : f32
      %nr = arith.addf %lr, %skyr_lit : f32
      %ng = arith.addf %lg, %skyg_lit : f32
      %nb = arith.addf %lb, %beta : f32
      scf.yield %ox, %oy, %oz, %dx, %dy, %dz, %beta, %nr, %ng, %nb, %max_depth : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32
    }
    scf.yield %out#0, %out#1, %out#2, %out#3, %out#4, %out#5, %out#6, %out#7, %out#8, %out#9, %out#10 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32
  }
  // This pixel no longer has a surface for its neighbours' differences.
  memref.store %gone, %surface[%pixel] : memref<?xi32>
  %f0 = arith.muli %pixel, %c3 : index
  %f1 = arith.addi %f0, %c1 : index
  %f2 = arith.addi %f0, %c2 : index
  %a = memref.load %film[%f0] : memref<?xf32>
  %b = memref.load %film[%f1] : memref<?xf32>
  %cc = memref.load %film[%f2] : memref<?xf32>
  %na = math.fma %path#7, %weight, %a : f32
  %nb = math.fma %path#8, %weight, %b : f32
  %nc = math.fma %path#9, %weight, %cc : f32
  memref.store %na, %film[%f0] : memref<?xf32>
  memref.store %nb, %film[%f1] : memref<?xf32>
  memref.store %nc, %film[%f2] : memref<?xf32>
  coro.return
}

// The external pass: each pixel's texture-coordinate derivatives by finite
// differences with its right (else left) and lower (else upper) neighbour,
// if that neighbour's path is on the same surface; zero otherwise.
coro.func @uv_derivs(%width: i32, %height: i32, %uv: memref<?xf32>, %surface: memref<?xi32>, %duv: memref<?xf32>) {
  %id = coro.id : index
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %id32 = arith.index_cast %id : index to i32
  %px = arith.remui %id32, %width : i32
  %py = arith.divui %id32, %width : i32
  %s = memref.load %surface[%id] : memref<?xi32>
  %w = arith.index_cast %width : i32 to index
  %xlast = arith.subi %width, %i1 : i32
  %ylast = arith.subi %height, %i1 : i32
  %has_right = arith.cmpi ult, %px, %xlast : i32
  %has_below = arith.cmpi ult, %py, %ylast : i32
  %has_left = arith.cmpi ugt, %px, %i0 : i32
  %has_above = arith.cmpi ugt, %py, %i0 : i32
  %dx:2 = func.call @uv_difference(%id, %c1, %s, %has_right, %has_left, %uv, %surface) : (index, index, i32, i1, i1, memref<?xf32>, memref<?xi32>) -> (f32, f32)
  %dy:2 = func.call @uv_difference(%id, %w, %s, %has_below, %has_above, %uv, %surface) : (index, index, i32, i1, i1, memref<?xf32>, memref<?xi32>) -> (f32, f32)
  %at = arith.muli %id, %c4 : index
  %at1 = arith.addi %at, %c1 : index
  %at2 = arith.addi %at, %c2 : index
  %at3 = arith.addi %at, %c3 : index
  memref.store %dx#0, %duv[%at] : memref<?xf32>
  memref.store %dx#1, %duv[%at1] : memref<?xf32>
  memref.store %dy#0, %duv[%at2] : memref<?xf32>
  memref.store %dy#1, %duv[%at3] : memref<?xf32>
  coro.return
}

// uv(pixel + step) - uv(pixel) if that pixel exists and is on `surface`,
// else uv(pixel) - uv(pixel - step) if that one is, else zero.
func.func @uv_difference(%pixel: index, %step: index, %surface: i32, %has_next: i1, %has_prev: i1, %uv: memref<?xf32>, %surfaces: memref<?xi32>) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %next = arith.addi %pixel, %step : index
  %prev = arith.subi %pixel, %step : index
  // Clamped indices, so that a pixel on the border loads nothing outside.
  %next_in = arith.select %has_next, %next, %pixel : index
  %prev_in = arith.select %has_prev, %prev, %pixel : index
  %sn = memref.load %surfaces[%next_in] : memref<?xi32>
  %sp = memref.load %surfaces[%prev_in] : memref<?xi32>
  %same_n = arith.cmpi eq, %sn, %surface : i32
  %same_p = arith.cmpi eq, %sp, %surface : i32
  %use_n = arith.andi %has_next, %same_n : i1
  %use_p0 = arith.andi %has_prev, %same_p : i1
  %a = arith.select %use_n, %next_in, %pixel : index
  %b = arith.select %use_n, %pixel, %prev_in : index
  %any = arith.ori %use_n, %use_p0 : i1
  %a2 = arith.muli %a, %c2 : index
  %a21 = arith.addi %a2, %c1 : index
  %b2 = arith.muli %b, %c2 : index
  %b21 = arith.addi %b2, %c1 : index
  %ua = memref.load %uv[%a2] : memref<?xf32>
  %va = memref.load %uv[%a21] : memref<?xf32>
  %ub = memref.load %uv[%b2] : memref<?xf32>
  %vb = memref.load %uv[%b21] : memref<?xf32>
  %du = arith.subf %ua, %ub : f32
  %dv = arith.subf %va, %vb : f32
  %ru = arith.select %any, %du, %zero : f32
  %rv = arith.select %any, %dv, %zero : f32
  return %ru, %rv : f32, f32
}

// Listing 8's entry kernel: every path runs to its first suspension and
// its frame goes to frames (SoA, one frame per pixel).
coro.func @pt_start(%width: i32, %height: i32, %sample: i32, %filter: i32, %weight: f32, %tex: memref<?xf32>, %uv: memref<?xf32>, %surface: memref<?xi32>, %duv: memref<?xf32>, %film: memref<?xf32>, %frames: memref<?xi32>) {
  %id = coro.id : index
  %pixels32 = arith.muli %width, %height : i32
  %pixels = arith.index_cast %pixels32 : i32 to index
  %h = coro.handle.create @tex_path[%id] : !coro.handle<@tex_path>
  coro.handle.resume %h(%width, %height, %sample, %filter, %weight, %tex, %uv, %surface, %duv, %film) : !coro.handle<@tex_path>, (i32, i32, i32, i32, f32, memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xf32>, memref<?xf32>) -> ()
  coro.handle.store %h, %frames[%id] of %pixels : !coro.handle<@tex_path>, memref<?xi32>
  coro.return
}

// Listing 8's continuation kernel: a path not yet done resumes where it
// suspended and runs to its next suspension (or its end).
coro.func @pt_continue(%width: i32, %height: i32, %sample: i32, %filter: i32, %weight: f32, %tex: memref<?xf32>, %uv: memref<?xf32>, %surface: memref<?xi32>, %duv: memref<?xf32>, %film: memref<?xf32>, %frames: memref<?xi32>) {
  %id = coro.id : index
  %true = arith.constant true
  %pixels32 = arith.muli %width, %height : i32
  %pixels = arith.index_cast %pixels32 : i32 to index
  %h = coro.handle.load @tex_path %frames[%id] of %pixels : memref<?xi32> -> !coro.handle<@tex_path>
  %done = coro.handle.done %h : !coro.handle<@tex_path>
  %running = arith.xori %done, %true : i1
  scf.if %running {
    coro.handle.resume %h(%width, %height, %sample, %filter, %weight, %tex, %uv, %surface, %duv, %film) : !coro.handle<@tex_path>, (i32, i32, i32, i32, f32, memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xf32>, memref<?xf32>) -> ()
    coro.handle.store %h, %frames[%id] of %pixels : !coro.handle<@tex_path>, memref<?xi32>
  }
  coro.return
}

// The host program: the texture and its mip levels, then `spp` samples,
// each Listing 8's launches. filter: 0 bilinear, 1 anisotropic (with the
// finite-difference pass). film (3 floats per pixel) gets the mean. Every
// path marks its pixel with surface -1 when it returns; the result counts
// the pixels not so marked after a sample's continuations.
func.func @render(%width: index, %height: index, %spp: index, %filter: i32, %film: memref<?xf32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c256 = arith.constant 256 : index
  %c65536 = arith.constant 65536 : index
  %texels3 = arith.constant 262143 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %i0 = arith.constant 0 : i32
  %depth = arith.constant 3 : index
  %tex = memref.alloc(%texels3) : memref<?xf32>
  coro.launch @make_texture[%c65536](%tex) {scheduler = "megakernel"} : (memref<?xf32>) -> ()
  scf.for %level = %c1 to %c9 step %c1 {
    %size = arith.shrui %c256, %level : index
    %count = arith.muli %size, %size : index
    %l32 = arith.index_cast %level : index to i32
    coro.launch @downsample[%count](%l32, %tex) {scheduler = "megakernel"} : (i32, memref<?xf32>) -> ()
  }
  %pixels = arith.muli %width, %height : index
  %uv_n = arith.muli %pixels, %c2 : index
  %duv_n = arith.muli %pixels, %c4 : index
  %film_n = arith.muli %pixels, %c3 : index
  %uv = memref.alloc(%uv_n) : memref<?xf32>
  %surface = memref.alloc(%pixels) : memref<?xi32>
  %duv = memref.alloc(%duv_n) : memref<?xf32>
  scf.for %i = %c0 to %duv_n step %c1 {
    memref.store %zero, %duv[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %film_n step %c1 {
    memref.store %zero, %film[%i] : memref<?xf32>
  }
  %words = coro.handle.frame_words @tex_path : index
  %frame_n = arith.muli %words, %pixels : index
  %frames = memref.alloc(%frame_n) : memref<?xi32>
  %w32 = arith.index_cast %width : index to i32
  %h32 = arith.index_cast %height : index to i32
  %spp32 = arith.index_cast %spp : index to i32
  %sppf = arith.uitofp %spp32 : i32 to f32
  %weight = arith.divf %one, %sppf : f32
  %aniso = arith.cmpi ne, %filter, %i0 : i32
  %gone = arith.constant -1 : i32
  %unfinished = scf.for %s = %c0 to %spp step %c1 iter_args(%before = %i0) -> (i32) {
    %s32 = arith.index_cast %s : index to i32
    coro.launch @pt_start[%pixels](%w32, %h32, %s32, %filter, %weight, %tex, %uv, %surface, %duv, %film, %frames) {scheduler = "megakernel"} : (i32, i32, i32, i32, f32, memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xf32>, memref<?xf32>, memref<?xi32>) -> ()
    scf.for %d = %c0 to %depth step %c1 {
      scf.if %aniso {
        coro.launch @uv_derivs[%pixels](%w32, %h32, %uv, %surface, %duv) {scheduler = "megakernel"} : (i32, i32, memref<?xf32>, memref<?xi32>, memref<?xf32>) -> ()
      }
      coro.launch @pt_continue[%pixels](%w32, %h32, %s32, %filter, %weight, %tex, %uv, %surface, %duv, %film, %frames) {scheduler = "megakernel"} : (i32, i32, i32, i32, f32, memref<?xf32>, memref<?xf32>, memref<?xi32>, memref<?xf32>, memref<?xf32>, memref<?xi32>) -> ()
    }
    %left = scf.for %p = %c0 to %pixels step %c1 iter_args(%count = %before) -> (i32) {
      %mark = memref.load %surface[%p] : memref<?xi32>
      %running = arith.cmpi ne, %mark, %gone : i32
      %running32 = arith.extui %running : i1 to i32
      %more = arith.addi %count, %running32 : i32
      scf.yield %more : i32
    }
    scf.yield %left : i32
  }
  memref.dealloc %frames : memref<?xi32>
  memref.dealloc %duv : memref<?xf32>
  memref.dealloc %surface : memref<?xi32>
  memref.dealloc %uv : memref<?xf32>
  memref.dealloc %tex : memref<?xf32>
  return %unfinished : i32
}

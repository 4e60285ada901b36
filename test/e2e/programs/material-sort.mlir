// material_sort: a shading loop whose integer promise "material" changes at
// every bounce (a hash of the instance and the bounce), for the wavefront
// scheduler's --sort-by=material: each queue is ordered by material, which
// must not change any result. Instance i bounces 1 + i mod 5 times; each
// bounce suspends before shading and shades with a material-dependent
// branch. Writes out[i] = the accumulated radiance, and histogram[m] += 1
// for each material m shaded (atomics: order-independent).
coro.func @material_sort(%out: memref<?xf32>, %histogram: memref<8xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c3 = arith.constant 3 : i32
  %one = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %rest = arith.remui %id, %c5 : index
  %bounces = arith.addi %rest, %c1 : index
  %id32 = arith.index_cast %id : index to i32
  %result:2 = scf.for %b = %c0 to %bounces step %c1
      iter_args(%radiance = %f0, %throughput = %f1) -> (f32, f32) {
    %b32 = arith.index_cast %b : index to i32
    %mix = arith.muli %id32, %c7 : i32
    %mix2 = arith.addi %mix, %b32 : i32
    %mix3 = arith.muli %mix2, %c3 : i32
    %material = arith.remui %mix3, %c8 : i32
    coro.promise "material", %material : i32
    coro.suspend "shade"
    %m = arith.index_cast %material : i32 to index
    %old = memref.atomic_rmw addi %one, %histogram[%m] : (i32, memref<8xi32>) -> i32
    %mf = arith.uitofp %material : i32 to f32
    %emissive = arith.cmpi eq, %material, %c3 : i32
    %next:2 = scf.if %emissive -> (f32, f32) {
      %add = arith.mulf %throughput, %mf : f32
      %r2 = arith.addf %radiance, %add : f32
      scf.yield %r2, %f0 : f32, f32
    } else {
      %c8f = arith.constant 8.0 : f32
      %albedo = arith.divf %mf, %c8f : f32
      %t2 = arith.mulf %throughput, %albedo : f32
      %t3 = arith.addf %t2, %half : f32
      %r2 = arith.addf %radiance, %t2 : f32
      scf.yield %r2, %t3 : f32, f32
    }
    scf.yield %next#0, %next#1 : f32, f32
  }
  memref.store %result#0, %out[%id] : memref<?xf32>
  coro.return
}

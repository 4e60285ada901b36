// A sort key: the promise "material" (an integer) lets the wavefront
// scheduler order its queues so that instances of one material run
// together (--sort-by=material); the results do not change.
// out[id] = cost of material id % 5, computed after the suspension.
coro.func @sort_key(%out: memref<?xf32>) {
  %id = coro.id : index
  %c5 = arith.constant 5 : index
  %m = arith.remui %id, %c5 : index
  %mi = arith.index_cast %m : index to i32
  coro.promise "material", %mi : i32
  coro.suspend "shade"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %step = arith.constant 0.5 : f32
  // Material m loops m times: a divergent cost.
  %cost = scf.for %k = %c0 to %m step %c1 iter_args(%acc = %zero) -> (f32) {
    %next = arith.addf %acc, %step : f32
    scf.yield %next : f32
  }
  memref.store %cost, %out[%id] : memref<?xf32>
  coro.return
}

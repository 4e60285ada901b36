// A local array (memref.alloca) that lives across suspension points: it
// goes into the frame. Each instance keeps the last 4 values of a running
// sum and writes their total: out[id] = sum of (id + k) for k in 2..5.
coro.func @local_array(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0 : i32
  %window = memref.alloca() : memref<4xi32>
  scf.for %k = %c0 to %c6 step %c1 {
    %v = arith.addi %id, %k : index
    %vi = arith.index_cast %v : index to i32
    %slot = arith.remui %k, %c4 : index
    memref.store %vi, %window[%slot] : memref<4xi32>
    coro.suspend "step"
  }
  %total = scf.for %s = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (i32) {
    %w = memref.load %window[%s] : memref<4xi32>
    %next = arith.addi %acc, %w : i32
    scf.yield %next : i32
  }
  memref.store %total, %out[%id] : memref<?xi32>
  coro.return
}

// atomic_histogram: atomics into buffers shared by all instances, between
// suspensions. Each instance runs a loop of 1 + id % 7 iterations that
// suspends ("hash") and updates an i32 hash; after one more suspension
// ("bin") it adds 1 to the bin hash % 8 of an i32 histogram
// (memref.atomic_rmw addi) and its number of iterations to a shared counter
// (addi), and after another ("count") it adds the low 16 bits of its hash to
// the same bin of a second histogram (addi) and raises a shared maximum to
// its hash (maxs). All results are independent of the order of the atomics.
// Notes: atomic_rmw addf is left out, as the upstream MemRef-to-SPIR-V
// conversion rejects floating-point atomic_rmw ("unimplemented
// floating-point case"). The grid is a multiple of the workgroup size (64):
// in a partially filled workgroup, lavapipe (Mesa 22.3.6) can drop atomics
// that the state-machine kernel issues after an instance's first subroutine
// (the SPIR-V is valid, and the CPU state machine gets them all).
// Output (grid 128): hist[0..7] (i32) = instances per bin (they add up to
// 128); sums[0..7] = sum of the low 16 bits of the hashes per bin;
// shared[0] = the iterations of all instances (507), shared[1] = the
// largest hash.
coro.func @atomic_histogram(%hist: memref<?xi32>, %sums: memref<?xi32>, %shared: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %id32 = arith.index_cast %id : index to i32
  %rem = arith.remui %id, %c7 : index
  %n = arith.addi %rem, %c1 : index
  %k = arith.constant 2654435 : i32
  %h = scf.for %i = %c0 to %n step %c1 iter_args(%x = %id32) -> (i32) {
    coro.suspend "hash"
    %m = arith.muli %x, %k : i32
    %i32 = arith.index_cast %i : index to i32
    %a = arith.addi %m, %i32 : i32
    %s13 = arith.constant 13 : i32
    %sh = arith.shrui %a, %s13 : i32
    %y = arith.xori %a, %sh : i32
    scf.yield %y : i32
  }
  coro.suspend "bin"
  %mask = arith.constant 7 : i32
  %bin32 = arith.andi %h, %mask : i32
  %bin = arith.index_cast %bin32 : i32 to index
  %one = arith.constant 1 : i32
  %old = memref.atomic_rmw addi %one, %hist[%bin] : (i32, memref<?xi32>) -> i32
  %n32 = arith.index_cast %n : index to i32
  %oldn = memref.atomic_rmw addi %n32, %shared[%c0] : (i32, memref<?xi32>) -> i32
  coro.suspend "count"
  %low = arith.constant 65535 : i32
  %hl = arith.andi %h, %low : i32
  %olds = memref.atomic_rmw addi %hl, %sums[%bin] : (i32, memref<?xi32>) -> i32
  %oldm = memref.atomic_rmw maxs %h, %shared[%c1] : (i32, memref<?xi32>) -> i32
  coro.return
}

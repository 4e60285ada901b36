// trip_counts: loops whose suspension runs 0 times, exactly once, or many
// times, chosen per instance from data, so instances diverge. Instance id
// reads n = counts[id] (the buffer is initialized with iota, so n = id) and
// picks trips = 0, 1 or 2 + n / 3 for n % 3 = 0, 1, 2. Then
//   an scf.for over k < trips suspends once per iteration ("body") and
//     updates an f32 product and an i32 hash kept in a local array,
//   an scf.while with iter_args runs the same number of times, suspending
//     in its "after" region ("again"),
//   an scf.for with a constant trip count of 1 suspends ("once"),
//   an scf.for from n to n (never runs) would suspend ("never") and
//     overwrite the results.
// (The data-dependent loop carries its state in memory rather than in
// scf.for iter_args: a zero-trip scf.for with iter_args yields an undefined
// value in SPIR-V with this LLVM, see llvm/llvm-project#211981; the
// scf.while carries iter_args instead.)
// Output (grid 50): counts[id] (i32) = 1000 * trips + the hash + the
// scf.while's sum; out[id] (f32) = the product + 0.5, a value that records
// every trip.
coro.func @trip_counts(%counts: memref<?xi32>, %out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n32 = memref.load %counts[%id] : memref<?xi32>
  %n = arith.index_cast %n32 : i32 to index
  %mod = arith.remui %n, %c3 : index
  %div = arith.divui %n, %c3 : index
  %many = arith.addi %div, %c2 : index
  %is0 = arith.cmpi eq, %mod, %c0 : index
  %is1 = arith.cmpi eq, %mod, %c1 : index
  %one_or_many = arith.select %is1, %c1, %many : index
  %trips = arith.select %is0, %c0, %one_or_many : index
  %f1 = arith.constant 1.0 : f32
  %i7 = arith.constant 7 : i32
  %prod = memref.alloca() : memref<1xf32>
  %hash = memref.alloca() : memref<1xi32>
  memref.store %f1, %prod[%c0] : memref<1xf32>
  memref.store %i7, %hash[%c0] : memref<1xi32>
  scf.for %k = %c0 to %trips step %c1 {
    coro.suspend "body"
    %k32 = arith.index_cast %k : index to i32
    %k2 = arith.addi %k32, %i7 : i32
    %kf = arith.sitofp %k2 : i32 to f32
    %scale = arith.constant 0.125 : f32
    %ks = arith.mulf %kf, %scale : f32
    %p = memref.load %prod[%c0] : memref<1xf32>
    %p2 = arith.mulf %p, %ks : f32
    memref.store %p2, %prod[%c0] : memref<1xf32>
    %s = memref.load %hash[%c0] : memref<1xi32>
    %s3 = arith.muli %s, %i7 : i32
    %s2 = arith.addi %s3, %k32 : i32
    memref.store %s2, %hash[%c0] : memref<1xi32>
  }
  %i0 = arith.constant 0 : i32
  %i100 = arith.constant 100 : i32
  %w:2 = scf.while (%k = %c0, %sum = %i100) : (index, i32) -> (index, i32) {
    %more = arith.cmpi ult, %k, %trips : index
    scf.condition(%more) %k, %sum : index, i32
  } do {
  ^bb0(%k: index, %sum: i32):
    coro.suspend "again"
    %k32 = arith.index_cast %k : index to i32
    %sq = arith.muli %k32, %k32 : i32
    %sum2 = arith.addi %sum, %sq : i32
    %k_next = arith.addi %k, %c1 : index
    scf.yield %k_next, %sum2 : index, i32
  }
  scf.for %k = %c0 to %c1 step %c1 {
    coro.suspend "once"
    %p = memref.load %prod[%c0] : memref<1xf32>
    %half = arith.constant 0.5 : f32
    %p2 = arith.addf %p, %half : f32
    memref.store %p2, %prod[%c0] : memref<1xf32>
  }
  scf.for %k = %n to %n step %c1 {
    coro.suspend "never"
    %bad = arith.constant -1.0 : f32
    memref.store %bad, %prod[%c0] : memref<1xf32>
    %badi = arith.constant -1 : i32
    memref.store %badi, %hash[%c0] : memref<1xi32>
  }
  %t32 = arith.index_cast %trips : index to i32
  %k1000 = arith.constant 1000 : i32
  %t1000 = arith.muli %t32, %k1000 : i32
  %h = memref.load %hash[%c0] : memref<1xi32>
  %r0 = arith.addi %t1000, %h : i32
  %res = arith.addi %r0, %w#1 : i32
  memref.store %res, %counts[%id] : memref<?xi32>
  %p = memref.load %prod[%c0] : memref<1xf32>
  memref.store %p, %out[%id] : memref<?xf32>
  coro.return
}

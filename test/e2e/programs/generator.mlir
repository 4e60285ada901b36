// digit_generator: a generator (`yields i32`) that produces the decimal
// digits of v = id * 7919 + %seed, least significant first, with coro.yield
// inside the body of an scf.while; the number of yields (the number of
// digits, 2 to 6 here) differs per instance. Between yields the generator
// keeps the remaining value, the digit count and the digits reversed so far,
// and it records every digit in a local array that is live across the
// yields.
// Output (grid 100, --arg=13): out[3 id] (i32) = the digits reversed as a
// number, out[3 id + 1] = the digit count, out[3 id + 2] = sum over the
// local array of digit * (position + 1).
coro.func @digit_generator(%seed: i32, %out: memref<?xi32>) yields i32 {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i10 = arith.constant 10 : i32
  %prime = arith.constant 7919 : i32
  %digits = memref.alloca() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %i0, %digits[%i] : memref<8xi32>
  }
  %id32 = arith.index_cast %id : index to i32
  %m = arith.muli %id32, %prime : i32
  %v0 = arith.addi %m, %seed : i32
  %res:3 = scf.while (%v = %v0, %count = %i0, %rev = %i0) : (i32, i32, i32) -> (i32, i32, i32) {
    %more = arith.cmpi ne, %v, %i0 : i32
    %first = arith.cmpi eq, %count, %i0 : i32
    %go = arith.ori %more, %first : i1
    scf.condition(%go) %v, %count, %rev : i32, i32, i32
  } do {
  ^bb0(%v: i32, %count: i32, %rev: i32):
    %d = arith.remui %v, %i10 : i32
    %at = arith.index_cast %count : i32 to index
    memref.store %d, %digits[%at] : memref<8xi32>
    coro.yield %d : i32
    %v2 = arith.divui %v, %i10 : i32
    %count2 = arith.addi %count, %i1 : i32
    %r10 = arith.muli %rev, %i10 : i32
    %rev2 = arith.addi %r10, %d : i32
    scf.yield %v2, %count2, %rev2 : i32, i32, i32
  }
  %weighted = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %i0) -> (i32) {
    %d = memref.load %digits[%i] : memref<8xi32>
    %i_1 = arith.addi %i, %c1 : index
    %w = arith.index_cast %i_1 : index to i32
    %dw = arith.muli %d, %w : i32
    %acc2 = arith.addi %acc, %dw : i32
    scf.yield %acc2 : i32
  }
  %base = arith.muli %id, %c3 : index
  memref.store %res#2, %out[%base] : memref<?xi32>
  %at1 = arith.addi %base, %c1 : index
  memref.store %res#1, %out[%at1] : memref<?xi32>
  %at2 = arith.addi %base, %c2 : index
  memref.store %weighted, %out[%at2] : memref<?xi32>
  coro.return
}

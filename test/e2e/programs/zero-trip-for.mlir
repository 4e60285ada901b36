// zero_trip_for: an scf.for with iter_args whose suspending body runs 0, 1
// or 2 times (id mod 3), so its result is its initial value for a third of
// the instances. Regression test for the SPIR-V pipeline: LLVM 22's SCF to
// SPIR-V conversion leaves such a result undefined when the loop does not
// run (llvm/llvm-project#211981); coro-to-spirv rewrites scf.for as
// scf.while first. Writes counts[id] = 7, 49 or 344.
coro.func @zero_trip_for(%counts: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n32 = memref.load %counts[%id] : memref<?xi32>
  %n = arith.index_cast %n32 : i32 to index
  %trips = arith.remui %n, %c3 : index
  %i7 = arith.constant 7 : i32
  %r = scf.for %k = %c0 to %trips step %c1 iter_args(%s = %i7) -> (i32) {
    coro.suspend "body"
    %k32 = arith.index_cast %k : index to i32
    %s3 = arith.muli %s, %i7 : i32
    %s2 = arith.addi %s3, %k32 : i32
    scf.yield %s2 : i32
  }
  memref.store %r, %counts[%id] : memref<?xi32>
  coro.return
}

// promised_values: values that a promise field holds across suspensions,
// which coro-split reads back from the promise field instead of saving
// twice: %kind, promised once per iteration of a loop (1 + id % 5
// iterations) and used after the suspensions "shade" (taken by odd kinds
// only) and "next" of the same iteration. %count is promised twice per
// iteration, so it needs a field of its own. %row, a division by the %width
// argument, is not speculatable but is recomputed after each suspension.
// The kinds come from %table[0..15], which the coroutine also writes (at
// 16 + id), so the loads cannot be redone after a suspension.
// Output (grid 90, width 7): out[id] (i32) = the sum over the iterations of
// kind * (k + 1) + (odd kind ? kind : 0) + row + the count, plus table
// entries 16 + id written with the final count.
coro.func @promised_values(%width: i32, %table: memref<?xi32>,
                           %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i15 = arith.constant 15 : i32
  %mult = arith.constant 1103515245 : i32
  %id32 = arith.index_cast %id : index to i32
  %row = arith.divui %id32, %width : i32
  %rem = arith.remui %id, %c5 : index
  %n = arith.addi %rem, %c1 : index
  %res:2 = scf.for %k = %c0 to %n step %c1
      iter_args(%acc = %i0, %count = %i0) -> (i32, i32) {
    %k32 = arith.index_cast %k : index to i32
    %mix = arith.addi %id32, %k32 : i32
    %hash = arith.muli %mix, %mult : i32
    %slot = arith.andi %hash, %i15 : i32
    %slotIndex = arith.index_cast %slot : i32 to index
    %kind = memref.load %table[%slotIndex] : memref<?xi32>
    coro.promise "kind", %kind : i32
    %count1 = arith.addi %count, %i1 : i32
    coro.promise "count", %count1 : i32
    %parity = arith.andi %kind, %i1 : i32
    %odd = arith.cmpi eq, %parity, %i1 : i32
    %extra = scf.if %odd -> (i32) {
      coro.suspend "shade"
      scf.yield %kind : i32
    } else {
      scf.yield %i0 : i32
    }
    %count2 = arith.addi %count1, %i1 : i32
    coro.promise "count", %count2 : i32
    coro.suspend "next"
    %k1 = arith.addi %k32, %i1 : i32
    %scaled = arith.muli %kind, %k1 : i32
    %a1 = arith.addi %acc, %scaled : i32
    %a2 = arith.addi %a1, %extra : i32
    %a3 = arith.addi %a2, %row : i32
    %a4 = arith.addi %a3, %count2 : i32
    scf.yield %a4, %count2 : i32, i32
  }
  %mine = arith.addi %id, %c16 : index
  memref.store %res#1, %table[%mine] : memref<?xi32>
  memref.store %res#0, %out[%id] : memref<?xi32>
  coro.return
}

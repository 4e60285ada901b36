// cf_break_continue: two nested loops written with cf.br / cf.cond_br only,
// each with a break and a continue, and suspensions in both bodies. The
// outer loop runs i = 0 .. 9 and suspends at the top of its body ("outer");
// it skips (continue) the i with (i + id) % 3 == 0 and leaves (break) once
// its accumulator passes 60 + id % 13. The inner loop runs j = 0 .. i and
// suspends ("inner"); it skips odd j + id (continue) and leaves when
// i * j > 20 (break). Iteration counts and exits differ per instance.
// Output (grid 37): out[3 id] (i32) = accumulator, out[3 id + 1] = number
// of inner bodies run past the continue, out[3 id + 2] = i at exit * 100 +
// the last j reached.
coro.func @cf_break_continue(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %c13 = arith.constant 13 : index
  %c20 = arith.constant 20 : index
  %c60 = arith.constant 60 : index
  %idm = arith.remui %id, %c13 : index
  %limit = arith.addi %c60, %idm : index
  cf.br ^outer(%c0, %c0, %c0, %c0 : index, index, index, index)
^outer(%i: index, %acc: index, %count: index, %lastj: index):
  %more = arith.cmpi slt, %i, %c10 : index
  cf.cond_br %more, ^outer_body, ^exit(%i, %acc, %count, %lastj : index, index, index, index)
^outer_body:
  coro.suspend "outer"
  %i_next = arith.addi %i, %c1 : index
  %s = arith.addi %i, %id : index
  %sm = arith.remui %s, %c3 : index
  %skip = arith.cmpi eq, %sm, %c0 : index
  // continue the outer loop
  cf.cond_br %skip, ^outer(%i_next, %acc, %count, %lastj : index, index, index, index), ^inner(%c0, %acc, %count, %lastj : index, index, index, index)
^inner(%j: index, %acc_in: index, %count_in: index, %lj: index):
  %jmore = arith.cmpi sle, %j, %i : index
  cf.cond_br %jmore, ^inner_body, ^after_inner(%acc_in, %count_in, %lj : index, index, index)
^inner_body:
  coro.suspend "inner"
  %j_next = arith.addi %j, %c1 : index
  %ij = arith.muli %i, %j : index
  %too_big = arith.cmpi ugt, %ij, %c20 : index
  // break out of the inner loop
  cf.cond_br %too_big, ^after_inner(%acc_in, %count_in, %j : index, index, index), ^inner_test
^inner_test:
  %jid = arith.addi %j, %id : index
  %jbit = arith.andi %jid, %c1 : index
  %odd = arith.cmpi eq, %jbit, %c1 : index
  // continue the inner loop
  cf.cond_br %odd, ^inner(%j_next, %acc_in, %count_in, %j : index, index, index, index), ^inner_work
^inner_work:
  %w = arith.addi %ij, %c2 : index
  %acc2 = arith.addi %acc_in, %w : index
  %count2 = arith.addi %count_in, %c1 : index
  cf.br ^inner(%j_next, %acc2, %count2, %j : index, index, index, index)
^after_inner(%acc3: index, %count3: index, %lj3: index):
  %done = arith.cmpi ugt, %acc3, %limit : index
  // break out of the outer loop
  cf.cond_br %done, ^exit(%i, %acc3, %count3, %lj3 : index, index, index, index), ^outer(%i_next, %acc3, %count3, %lj3 : index, index, index, index)
^exit(%ie: index, %acc_e: index, %count_e: index, %lj_e: index):
  %at = arith.muli %id, %c3 : index
  %a32 = arith.index_cast %acc_e : index to i32
  memref.store %a32, %out[%at] : memref<?xi32>
  %at1 = arith.addi %at, %c1 : index
  %n32 = arith.index_cast %count_e : index to i32
  memref.store %n32, %out[%at1] : memref<?xi32>
  %at2 = arith.addi %at1, %c1 : index
  %k100 = arith.constant 100 : index
  %ie100 = arith.muli %ie, %k100 : index
  %pos = arith.addi %ie100, %lj_e : index
  %p32 = arith.index_cast %pos : index to i32
  memref.store %p32, %out[%at2] : memref<?xi32>
  coro.return
}

// early_returns: coro.return from three places of unstructured (cf)
// control flow: from inside an inner loop nested in an outer loop, from the
// outer loop after the inner one, and at the end. Instance id scans a 6x5
// table of values t(r, c) = (r * 7 + c * 3 + id) % 17, suspending at every
// cell ("cell") and at every row ("row"): it returns as soon as it finds
// t == 16 (code 1), or when a row sum passes 40 (code 2, after one more
// suspension, "heavy"), else after the whole table (code 3). Instances stop
// at different places (the pattern repeats every 17 instances).
// Output (grid 100): out[id] (i32) = 10000 + 100 r + c (found at row r,
// column c), 20000 + 100 r + the row sum (heavy row r), or 30000 + the sum
// of the table.
coro.func @early_returns(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c17 = arith.constant 17 : index
  %c16 = arith.constant 16 : index
  %c40 = arith.constant 40 : index
  %k100 = arith.constant 100 : index
  %k10000 = arith.constant 10000 : index
  cf.br ^outer(%c0, %c0 : index, index)
^outer(%r: index, %total: index):
  %more_rows = arith.cmpi slt, %r, %c6 : index
  cf.cond_br %more_rows, ^row_start, ^end(%total : index)
^row_start:
  coro.suspend "row"
  cf.br ^inner(%c0, %c0 : index, index)
^inner(%c: index, %rowsum: index):
  %more_cols = arith.cmpi slt, %c, %c5 : index
  cf.cond_br %more_cols, ^cell, ^row_end(%rowsum : index)
^cell:
  coro.suspend "cell"
  %r7 = arith.muli %r, %c7 : index
  %c3c = arith.muli %c, %c3 : index
  %s0 = arith.addi %r7, %c3c : index
  %s1 = arith.addi %s0, %id : index
  %t = arith.remui %s1, %c17 : index
  %hit = arith.cmpi eq, %t, %c16 : index
  %c_next = arith.addi %c, %c1 : index
  %rowsum2 = arith.addi %rowsum, %t : index
  cf.cond_br %hit, ^found, ^inner(%c_next, %rowsum2 : index, index)
^found:
  %f0 = arith.muli %r, %k100 : index
  %f1 = arith.addi %f0, %c : index
  %f2 = arith.addi %f1, %k10000 : index
  %f32 = arith.index_cast %f2 : index to i32
  memref.store %f32, %out[%id] : memref<?xi32>
  coro.return
^row_end(%sum: index):
  %heavy = arith.cmpi ugt, %sum, %c40 : index
  %r_next = arith.addi %r, %c1 : index
  %total2 = arith.addi %total, %sum : index
  cf.cond_br %heavy, ^heavy_row, ^outer(%r_next, %total2 : index, index)
^heavy_row:
  coro.suspend "heavy"
  %h0 = arith.muli %r, %k100 : index
  %h1 = arith.addi %h0, %sum : index
  %k20000 = arith.constant 20000 : index
  %h2 = arith.addi %h1, %k20000 : index
  %h32 = arith.index_cast %h2 : index to i32
  memref.store %h32, %out[%id] : memref<?xi32>
  coro.return
^end(%all: index):
  %k30000 = arith.constant 30000 : index
  %e = arith.addi %all, %k30000 : index
  %e32 = arith.index_cast %e : index to i32
  memref.store %e32, %out[%id] : memref<?xi32>
  coro.return
}

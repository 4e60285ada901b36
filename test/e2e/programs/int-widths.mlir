// int_widths: integers of every width -- i1, i8, i16, i32, i64 and index --
// carried through a loop whose body suspends ("step"), then live across one
// more suspension ("combine"). The trip count, %rounds + id % 4, differs per
// instance. i8 and i16 wrap around (x8 = 3 * x8 + 1, x16 = (x16 ^ x16 << 1)
// + 7), and both their signed and unsigned extensions are used, so a frame
// field that loses bits or sign is caught.
// Output (grid 37, --arg=2): out[id] (i32) mixes all six values; wide[id]
// (i64) = x64 + (x8 sign-extended) * 2^40, x64 = (2^33 * id + 5) * 3^trips.
coro.func @int_widths(%rounds: i32, %out: memref<?xi32>, %wide: memref<?xi64>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %id32 = arith.index_cast %id : index to i32
  %id64 = arith.index_cast %id : index to i64
  // Starting values from the instance index.
  %k37 = arith.constant 37 : i32
  %m8 = arith.muli %id32, %k37 : i32
  %a8 = arith.trunci %m8 : i32 to i8
  %k1000 = arith.constant 1000 : i32
  %m16 = arith.muli %id32, %k1000 : i32
  %a16 = arith.trunci %m16 : i32 to i16
  %k12345 = arith.constant 12345 : i32
  %a32 = arith.muli %id32, %k12345 : i32
  %big = arith.constant 8589934592 : i64
  %m64 = arith.muli %id64, %big : i64
  %five = arith.constant 5 : i64
  %a64 = arith.addi %m64, %five : i64
  %aidx = arith.addi %id, %c3 : index
  %one32 = arith.constant 1 : i32
  %bit = arith.andi %id32, %one32 : i32
  %flag = arith.cmpi eq, %bit, %one32 : i32
  %r = arith.remui %id, %c4 : index
  %rounds_idx = arith.index_cast %rounds : i32 to index
  %n = arith.addi %r, %rounds_idx : index
  %true = arith.constant true
  %k3_8 = arith.constant 3 : i8
  %k1_8 = arith.constant 1 : i8
  %k1_16 = arith.constant 1 : i16
  %k7_16 = arith.constant 7 : i16
  %k3_64 = arith.constant 3 : i64
  %res:6 = scf.for %k = %c0 to %n step %c1
      iter_args(%f = %flag, %x8 = %a8, %x16 = %a16, %x32 = %a32, %x64 = %a64, %xi = %aidx)
      -> (i1, i8, i16, i32, i64, index) {
    coro.suspend "step"
    %f2 = arith.xori %f, %true : i1
    %y8m = arith.muli %x8, %k3_8 : i8
    %y8 = arith.addi %y8m, %k1_8 : i8
    %sh = arith.shli %x16, %k1_16 : i16
    %y16x = arith.xori %x16, %sh : i16
    %y16 = arith.addi %y16x, %k7_16 : i16
    %k32 = arith.index_cast %k : index to i32
    %y32 = arith.addi %x32, %k32 : i32
    %y64 = arith.muli %x64, %k3_64 : i64
    %yi = arith.addi %xi, %c2 : index
    scf.yield %f2, %y8, %y16, %y32, %y64, %yi : i1, i8, i16, i32, i64, index
  }
  coro.suspend "combine"
  // i8 and i16 compared as signed narrow values: wrong if not wrapped.
  %z8 = arith.constant 0 : i8
  %neg8 = arith.cmpi slt, %res#1, %z8 : i8
  %s8 = arith.extsi %res#1 : i8 to i32
  %u8 = arith.extui %res#1 : i8 to i32
  %s16 = arith.extsi %res#2 : i16 to i32
  %u16 = arith.extui %res#2 : i16 to i32
  %fl = arith.extui %res#0 : i1 to i32
  %ng = arith.extui %neg8 : i1 to i32
  %xi32 = arith.index_cast %res#5 : index to i32
  %hi64 = arith.constant 32 : i64
  %top = arith.shrui %res#4, %hi64 : i64
  %top32 = arith.trunci %top : i64 to i32
  %low32 = arith.trunci %res#4 : i64 to i32
  %k31 = arith.constant 31 : i32
  %t0 = arith.muli %s8, %k31 : i32
  %t1 = arith.addi %t0, %u8 : i32
  %t2 = arith.muli %t1, %k31 : i32
  %t3 = arith.addi %t2, %s16 : i32
  %t4 = arith.muli %t3, %k31 : i32
  %t5 = arith.addi %t4, %u16 : i32
  %t6 = arith.muli %t5, %k31 : i32
  %t7 = arith.addi %t6, %res#3 : i32
  %t8 = arith.muli %t7, %k31 : i32
  %t9 = arith.addi %t8, %xi32 : i32
  %t10 = arith.muli %t9, %k31 : i32
  %t11 = arith.addi %t10, %top32 : i32
  %t12 = arith.xori %t11, %low32 : i32
  %k2 = arith.constant 2 : i32
  %g2 = arith.muli %ng, %k2 : i32
  %flags = arith.addi %fl, %g2 : i32
  %k24 = arith.constant 24 : i32
  %fsh = arith.shli %flags, %k24 : i32
  %t13 = arith.xori %t12, %fsh : i32
  memref.store %t13, %out[%id] : memref<?xi32>
  %s8w = arith.extsi %res#1 : i8 to i64
  %k40 = arith.constant 40 : i64
  %s8s = arith.shli %s8w, %k40 : i64
  %w = arith.addi %res#4, %s8s : i64
  memref.store %w, %wide[%id] : memref<?xi64>
  coro.return
}

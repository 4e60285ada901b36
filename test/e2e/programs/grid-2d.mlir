// grid_2d: a 2-D grid (13 x 7) with coro.id 0 and coro.id 1 and the linear
// coro.id. Instance (x, y) walks a loop of 1 + (x + 2 y) % 5 iterations that
// suspends ("walk") and moves a point (an i32 pair) by (y - 3, x - 6); an
// scf.if on x < y suspends in either branch ("below" / "above") before the
// result is stored. x, y and the linear id must be the same after every
// suspension as before.
// Output (grid 13,7): out[x + 13 y] (i32) = 100000 * (x < y) + 1000 * px +
// py + linear id * 10 (the point's coordinates are offset by 500 so they stay
// positive).
coro.func @grid_2d(%out: memref<?xi32>) {
  %x = coro.id 0 : index
  %y = coro.id 1 : index
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %x32 = arith.index_cast %x : index to i32
  %y32 = arith.index_cast %y : index to i32
  %i3 = arith.constant 3 : i32
  %i6 = arith.constant 6 : i32
  %dx = arith.subi %y32, %i3 : i32
  %dy = arith.subi %x32, %i6 : i32
  %y2 = arith.muli %y, %c2 : index
  %s = arith.addi %x, %y2 : index
  %m = arith.remui %s, %c5 : index
  %n = arith.addi %m, %c1 : index
  %start = arith.constant 500 : i32
  %p:2 = scf.for %k = %c0 to %n step %c1 iter_args(%px = %start, %py = %start) -> (i32, i32) {
    coro.suspend "walk"
    %px2 = arith.addi %px, %dx : i32
    %py2 = arith.addi %py, %dy : i32
    scf.yield %px2, %py2 : i32, i32
  }
  %below = arith.cmpi ult, %x, %y : index
  %tag = scf.if %below -> (i32) {
    coro.suspend "below"
    %t = arith.constant 100000 : i32
    scf.yield %t : i32
  } else {
    coro.suspend "above"
    %t = arith.constant 0 : i32
    scf.yield %t : i32
  }
  %k1000 = arith.constant 1000 : i32
  %a = arith.muli %p#0, %k1000 : i32
  %b = arith.addi %a, %p#1 : i32
  %c = arith.addi %b, %tag : i32
  %id32 = arith.index_cast %id : index to i32
  %ten = arith.constant 10 : i32
  %id10 = arith.muli %id32, %ten : i32
  %r = arith.addi %c, %id10 : i32
  %row = arith.constant 13 : index
  %yrow = arith.muli %y, %row : index
  %at = arith.addi %x, %yrow : index
  memref.store %r, %out[%at] : memref<?xi32>
  coro.return
}

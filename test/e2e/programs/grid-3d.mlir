// grid_3d: a 3-D grid (5 x 3 x 4) with coro.id 0, 1 and 2. Instance
// (x, y, z) suspends in a loop of z + 1 iterations ("layer") that
// accumulates an f32 over the layers below it and an index that encodes the
// path, then suspends in an scf.if on y ("edge" for y == 0, else "inside").
// The grid coordinates are read both before and after the suspensions.
// Output (grid 5,3,4): out[x + 5 (y + 3 z)] (f32) = 1000 z + 100 y + 10 x +
// the accumulated value + 0.5 if y == 0 + 0.0001 * the path code; a linear
// coro.id that differs from that position adds 100000 * the difference.
coro.func @grid_3d(%out: memref<?xf32>) {
  %x = coro.id 0 : index
  %y = coro.id 1 : index
  %z = coro.id 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %n = arith.addi %z, %c1 : index
  %zero = arith.constant 0.0 : f32
  %xi = arith.index_cast %x : index to i64
  %xf = arith.sitofp %xi : i64 to f32
  %acc:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero, %path = %c0) -> (f32, index) {
    coro.suspend "layer"
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %t = arith.mulf %kf, %xf : f32
    %q = arith.constant 0.25 : f32
    %tq = arith.addf %t, %q : f32
    %a2 = arith.addf %a, %tq : f32
    %p3 = arith.muli %path, %c3 : index
    %p2 = arith.addi %p3, %y : index
    scf.yield %a2, %p2 : f32, index
  }
  %edge = arith.cmpi eq, %y, %c0 : index
  %extra = scf.if %edge -> (f32) {
    coro.suspend "edge"
    %h = arith.constant 0.5 : f32
    scf.yield %h : f32
  } else {
    coro.suspend "inside"
    scf.yield %zero : f32
  }
  // Position from the components, after the suspensions.
  %x2 = coro.id 0 : index
  %y2 = coro.id 1 : index
  %z2 = coro.id 2 : index
  %id = coro.id : index
  %yz = arith.muli %z2, %c3 : index
  %yz2 = arith.addi %yz, %y2 : index
  %row = arith.muli %yz2, %c5 : index
  %at = arith.addi %row, %x2 : index
  // 1000 z + 100 y + 10 x.
  %k1000 = arith.constant 1000 : index
  %k100 = arith.constant 100 : index
  %k10 = arith.constant 10 : index
  %vz = arith.muli %z, %k1000 : index
  %vy = arith.muli %y, %k100 : index
  %vx = arith.muli %x, %k10 : index
  %v0 = arith.addi %vz, %vy : index
  %v1 = arith.addi %v0, %vx : index
  // The linear id must equal the position: add (id - at) * 100000.
  %diff = arith.subi %id, %at : index
  %big = arith.constant 100000 : index
  %d = arith.muli %diff, %big : index
  %v2 = arith.addi %v1, %d : index
  %vi = arith.index_cast %v2 : index to i64
  %vf = arith.sitofp %vi : i64 to f32
  %w = arith.addf %vf, %acc#0 : f32
  %w2 = arith.addf %w, %extra : f32
  %pi = arith.index_cast %acc#1 : index to i64
  %pf = arith.sitofp %pi : i64 to f32
  %tiny = arith.constant 0.0001 : f32
  %pt = arith.mulf %pf, %tiny : f32
  %w3 = arith.addf %w2, %pt : f32
  memref.store %w3, %out[%at] : memref<?xf32>
  coro.return
}

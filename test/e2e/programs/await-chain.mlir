// await_chain: coro.await two levels deep. @await_chain awaits @accumulate
// twice (with different arguments), and @accumulate awaits @tick in an
// scf.while loop (up to 8 times, while its running sum stays within a limit);
// every level suspends, and @accumulate takes a separate return path
// (coro.return through a cf branch) when the sum passed the limit. The
// callees communicate through a local array (memref<2xf32>, memref.alloca in
// the caller) that is live across all of their suspensions, and the caller
// keeps its own state across the awaits.
// Output (grid 37, --arg=40.0): out[2 id] (f32) = cell[0], the sum
// accumulated by both awaits; out[2 id + 1] = 1000 * (number of awaits that
// passed the limit) + the number of ticks.
coro.func @tick(%cell: memref<2xf32>) {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  coro.suspend "tick"
  %t = memref.load %cell[%c1] : memref<2xf32>
  %t2 = arith.addf %t, %one : f32
  memref.store %t2, %cell[%c1] : memref<2xf32>
  coro.return
}

coro.func @accumulate(%start: f32, %step: f32, %limit: f32, %cell: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %thousand = arith.constant 1000.0 : f32
  // Up to 8 ticks while the sum stays within the limit.
  %r:2 = scf.while (%i = %c0, %acc = %start) : (index, f32) -> (index, f32) {
    %more = arith.cmpi slt, %i, %c8 : index
    %within = arith.cmpf ole, %acc, %limit : f32
    %go = arith.andi %more, %within : i1
    scf.condition(%go) %i, %acc : index, f32
  } do {
  ^bb0(%i: index, %acc: f32):
    coro.await @tick(%cell) : (memref<2xf32>) -> ()
    %acc2 = arith.addf %acc, %step : f32
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %acc2 : index, f32
  }
  %old = memref.load %cell[%c0] : memref<2xf32>
  %new = arith.addf %old, %r#1 : f32
  memref.store %new, %cell[%c0] : memref<2xf32>
  %over = arith.cmpf ogt, %r#1, %limit : f32
  cf.cond_br %over, ^early, ^done
^early:
  // Early return: mark it in cell[1].
  %t = memref.load %cell[%c1] : memref<2xf32>
  %t2 = arith.addf %t, %thousand : f32
  memref.store %t2, %cell[%c1] : memref<2xf32>
  coro.return
^done:
  coro.return
}

coro.func @await_chain(%limit: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f32
  %cell = memref.alloca() : memref<2xf32>
  memref.store %zero, %cell[%c0] : memref<2xf32>
  memref.store %zero, %cell[%c1] : memref<2xf32>
  %r = arith.remui %id, %c7 : index
  %r64 = arith.index_cast %r : index to i64
  %step = arith.sitofp %r64 : i64 to f32
  %id64 = arith.index_cast %id : index to i64
  %start = arith.sitofp %id64 : i64 to f32
  coro.suspend "begin"
  coro.await @accumulate(%start, %step, %limit, %cell) : (f32, f32, f32, memref<2xf32>) -> ()
  %half = arith.constant 0.5 : f32
  %start2 = arith.mulf %start, %half : f32
  %two = arith.constant 2.0 : f32
  %step2 = arith.addf %step, %two : f32
  coro.await @accumulate(%start2, %step2, %limit, %cell) : (f32, f32, f32, memref<2xf32>) -> ()
  coro.suspend "end"
  %at = arith.muli %id, %c2 : index
  %sum = memref.load %cell[%c0] : memref<2xf32>
  memref.store %sum, %out[%at] : memref<?xf32>
  %at1 = arith.addi %at, %c1 : index
  %ticks = memref.load %cell[%c1] : memref<2xf32>
  memref.store %ticks, %out[%at1] : memref<?xf32>
  coro.return
}

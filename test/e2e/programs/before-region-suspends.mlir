// Suspensions in the `before` region of a do-while loop (scf.while), after
// an scf.if that suspends on odd ids only: once the region suspended, the
// subroutine must leave, and the loop must not go on to its `after` region
// there. A review found the after region (+1000) run after the suspension,
// every iteration in one subroutine: out = 3007 instead of 3028, when the
// exit lowering took the rest of the region for "must suspend" without
// making the loop condition false. `before_if_first` computes the condition
// before the scf.if, `before_if_then` between it and the unconditional
// suspension.
// Output (grid 37): out[id] = 7 per pass of the before region (4) plus 1000
// per pass of the after region (3): 3028.
coro.func @before_if_first(%out: memref<?xi32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %thousand = arith.constant 1000 : i32
  %odd = arith.andi %i, %one : i32
  %c = arith.cmpi ne, %odd, %z : i32
  %r = scf.while (%k = %z) : (i32) -> i32 {
    %more = arith.cmpi slt, %k, %three : i32
    scf.if %c {
      coro.suspend "odd"
    }
    coro.suspend "each"
    %o7 = memref.atomic_rmw addi %seven, %out[%id] : (i32, memref<?xi32>) -> i32
    scf.condition(%more) %k : i32
  } do {
  ^bb0(%k2: i32):
    %o = memref.atomic_rmw addi %thousand, %out[%id] : (i32, memref<?xi32>) -> i32
    %k3 = arith.addi %k2, %one : i32
    scf.yield %k3 : i32
  }
  coro.return
}

coro.func @before_if_then(%out: memref<?xi32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %thousand = arith.constant 1000 : i32
  %odd = arith.andi %i, %one : i32
  %c = arith.cmpi ne, %odd, %z : i32
  %r = scf.while (%k = %z) : (i32) -> i32 {
    scf.if %c {
      coro.suspend "odd"
    }
    %more = arith.cmpi slt, %k, %three : i32
    coro.suspend "each"
    %o7 = memref.atomic_rmw addi %seven, %out[%id] : (i32, memref<?xi32>) -> i32
    scf.condition(%more) %k : i32
  } do {
  ^bb0(%k2: i32):
    %o = memref.atomic_rmw addi %thousand, %out[%id] : (i32, memref<?xi32>) -> i32
    %k3 = arith.addi %k2, %one : i32
    scf.yield %k3 : i32
  }
  coro.return
}

// RUN: coro-opt %s --coro-resolve-handles --coro-check-bounds=coroutines=gen --verify-diagnostics

// Once coro-resolve-handles has split it, its split would ignore the checks.
// expected-error @+1 {{coro-check-bounds: @gen is split already (coro.handle or coro.for_each ops drive it); check the coroutine that drives it}}
coro.func @gen(%out: memref<?xi32>) yields i32 {
  %one = arith.constant 1 : i32
  coro.promise "__yielded_value", %one : i32
  coro.suspend
  coro.return
}
coro.func @consumer(%out: memref<?xi32>) {
  %id = coro.id : index
  coro.for_each @gen[%id](%out : memref<?xi32>) {
  ^bb0(%v: i32):
    %true = arith.constant true
    coro.for_each.yield %true
  }
  coro.return
}

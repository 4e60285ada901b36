// RUN: coro-opt %s --coro-resolve-handles --coro-check-bounds=coroutines=consumer | FileCheck %s

// After coro-resolve-handles, the generator's code is inlined into the
// consumer, and its store is checked like the consumer's own accesses.
coro.func @gen(%at: index, %out: memref<?xi32>) yields i32 {
  %one = arith.constant 1 : i32
  coro.promise "__yielded_value", %one : i32
  coro.suspend
  memref.store %one, %out[%at] : memref<?xi32>
  coro.return
}
// CHECK-LABEL: coro.func @consumer(
// CHECK-SAME:      %[[AT:[^:]*]]: index, %[[OUT:[^:]*]]: memref<?xi32>, %[[VIOLATIONS:[^:]*]]: memref<?xi32>)
// CHECK-SAME:      coro.bounds_check
// CHECK:         scf.index_switch
// CHECK:         case 1 {
// CHECK:           %[[OK:.*]] = arith.cmpi ult, %[[AT]], %{{.*}} : index
// CHECK:           scf.if %[[OK]] {
// CHECK-NEXT:        memref.store %{{.*}}, %[[OUT]][%[[AT]]] : memref<?xi32>
coro.func @consumer(%at: index, %out: memref<?xi32>) {
  %id = coro.id : index
  coro.for_each @gen[%id](%at, %out : index, memref<?xi32>) {
  ^bb0(%v: i32):
    %true = arith.constant true
    coro.for_each.yield %true
  }
  coro.return
}

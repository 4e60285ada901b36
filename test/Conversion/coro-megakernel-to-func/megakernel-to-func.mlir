// RUN: coro-opt %s --split-input-file --coro-megakernel-to-func | FileCheck %s

// CHECK-LABEL: func.func @kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: f32, %arg6: memref<?xf32>) {
// CHECK-NEXT:    %[[PLANE:.*]] = arith.muli %arg4, %arg2 : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.addi %arg1, %[[PLANE]] : index
// CHECK-NEXT:    %[[ROWS:.*]] = arith.muli %arg3, %[[ROW]] : index
// CHECK-NEXT:    %[[ID:.*]] = arith.addi %arg0, %[[ROWS]] : index
// CHECK-NEXT:    memref.store %arg5, %arg6[%[[ID]]] : memref<?xf32>
// CHECK-NEXT:    memref.store %arg5, %arg6[%arg1] : memref<?xf32>
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NOT:   coro.
coro.func @kernel(%v: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %y = coro.id 1 : index
  coro.suspend "a"
  memref.store %v, %out[%id] : memref<?xf32>
  coro.promise "p", %v : f32
  coro.suspend
  memref.store %v, %out[%y] : memref<?xf32>
  coro.return
}

// A 2-D launch is a loop nest, z outermost, with the missing extent 1.
// CHECK-LABEL: func.func @host(%arg0: index, %arg1: index, %arg2: f32, %arg3: memref<?xf32>) {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.for %[[Z:.*]] = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[Y:.*]] = %[[C0]] to %arg1 step %[[C1]] {
// CHECK-NEXT:        scf.for %[[X:.*]] = %[[C0]] to %arg0 step %[[C1]] {
// CHECK-NEXT:          func.call @kernel(%[[X]], %[[Y]], %[[Z]], %arg0, %arg1, %arg2, %arg3)
func.func @host(%w: index, %h: index, %v: f32, %out: memref<?xf32>) {
  coro.launch @kernel[%w, %h](%v, %out) : (f32, memref<?xf32>) -> ()
  return
}

// -----

// Multi-block bodies keep their control flow; every coro.return returns.
// CHECK-LABEL: func.func private @branches(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: i1) {
// CHECK-NEXT:    cf.cond_br %arg5, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    return
coro.func private @branches(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  coro.suspend "a"
  coro.return
^b:
  coro.return
}

// -----

// An await calls the callee's function for the same instance; a yield is
// erased with its promise and suspension.
// CHECK-LABEL: func.func @callee(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: i32) {
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @caller(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: i32) {
// CHECK-NEXT:    call @callee(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (index, index, index, index, index, i32) -> ()
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @gen(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: i32) {
// CHECK-NEXT:    return
coro.func @callee(%v: i32) {
  coro.suspend
  coro.return
}
coro.func @caller(%v: i32) {
  coro.await @callee(%v) : (i32) -> ()
  coro.return
}
coro.func @gen(%v: i32) yields i32 {
  coro.yield %v : i32
  coro.return
}

// RUN: coro-opt %s --split-input-file --coro-split --coro-state-machine-to-func | FileCheck %s

// Subroutines take the frame as memrefs; the launch runs each instance until
// its token is -1, dispatching on the token.
// CHECK-LABEL: func.func @f__entry(%arg0: memref<1xi32>, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: memref<1xf32>, %arg7: f32, %arg8: memref<?xf32>) {
// CHECK:         memref.store %{{.*}}, %arg6[%{{.*}}] : memref<1xf32>
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         memref.store %[[ONE]], %arg0[%{{.*}}] : memref<1xi32>
// CHECK-LABEL: func.func @f__next(
// CHECK:         %[[V:.*]] = memref.load %arg6[%{{.*}}] : memref<1xf32>
// CHECK:         memref.store %[[V]], %arg8[%arg1] : memref<?xf32>
// CHECK:         %[[DONE:.*]] = arith.constant -1 : i32
// CHECK:         memref.store %[[DONE]], %arg0[%{{.*}}] : memref<1xi32>
// CHECK-NOT:   coro.split
// CHECK-NOT:   coro.func
// CHECK-LABEL: func.func @host(%arg0: index, %arg1: f32, %arg2: memref<?xf32>) {
// CHECK-DAG:     %[[TOKEN:.*]] = memref.alloca() : memref<1xi32>
// CHECK-DAG:     %[[SLOT:.*]] = memref.alloca() : memref<1xf32>
// CHECK:         scf.for %[[X:.*]] = %{{.*}} to %arg0
// CHECK:           memref.store %{{.*}}, %[[TOKEN]][%{{.*}}] : memref<1xi32>
// CHECK:           scf.while : () -> () {
// CHECK:             %[[T:.*]] = memref.load %[[TOKEN]][%{{.*}}]
// CHECK:             arith.cmpi ne, %[[T]], %{{.*}} : i32
// CHECK:           } do {
// CHECK:             scf.index_switch
// CHECK-NEXT:        case 0 {
// CHECK-NEXT:          func.call @f__entry(%[[TOKEN]], %[[X]], %{{.*}}, %{{.*}}, %arg0, %{{.*}}, %[[SLOT]], %arg1, %arg2)
// CHECK:             case 1 {
// CHECK-NEXT:          func.call @f__next(
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id 0 : index
  %y = arith.addf %x, %x : f32
  coro.suspend "next"
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
func.func @host(%n: index, %x: f32, %out: memref<?xf32>) {
  coro.launch @f[%n](%x, %out) : (f32, memref<?xf32>) -> ()
  return
}

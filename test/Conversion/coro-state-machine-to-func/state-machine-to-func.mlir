// RUN: coro-opt %s --split-input-file --coro-split --coro-state-machine-to-func | FileCheck %s

// Subroutines take the frame as a memref of 32-bit words (target token in
// word 0, the f32 field in word 2); the launch zeroes one frame, then runs
// each instance until its token is -1, dispatching on the token.
// CHECK-LABEL: func.func @f__entry(%arg0: memref<3xi32>, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: f32, %arg7: memref<?xf32>) {
// CHECK:         %[[Y:.*]] = memref.load %arg7[%arg1]
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[Y]] : f32 to i32
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         memref.store %[[BITS]], %arg0[%[[C2]]] : memref<3xi32>
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         memref.store %[[ONE]], %arg0[%[[C0]]] : memref<3xi32>
// CHECK-LABEL: func.func @f__next(
// CHECK:         %[[W:.*]] = memref.load %arg0[%{{.*}}] : memref<3xi32>
// CHECK:         %[[V:.*]] = arith.bitcast %[[W]] : i32 to f32
// CHECK:         memref.store %[[V]], %arg7[%arg1] : memref<?xf32>
// CHECK:         %[[DONE:.*]] = arith.constant -1 : i32
// CHECK:         memref.store %[[DONE]], %arg0[%{{.*}}] : memref<3xi32>
// CHECK-NOT:   coro.split
// CHECK-NOT:   coro.func
// CHECK-LABEL: func.func @host(%arg0: index, %arg1: f32, %arg2: memref<?xf32>) {
// CHECK:         %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// CHECK:         scf.for
// CHECK-NEXT:      memref.store %{{.*}}, %[[FRAME]][%{{.*}}] : memref<3xi32>
// CHECK:         scf.for %[[X:.*]] = %{{.*}} to %arg0
// CHECK:           memref.store %{{.*}}, %[[FRAME]][%{{.*}}] : memref<3xi32>
// CHECK:           scf.while : () -> () {
// CHECK:             %[[T:.*]] = memref.load %[[FRAME]][%{{.*}}]
// CHECK:             arith.cmpi ne, %[[T]], %{{.*}} : i32
// CHECK:           } do {
// CHECK:             scf.index_switch
// CHECK-NEXT:        case 0 {
// CHECK-NEXT:          func.call @f__entry(%[[FRAME]], %[[X]], %{{.*}}, %{{.*}}, %arg0, %{{.*}}, %arg1, %arg2)
// CHECK:             case 1 {
// CHECK-NEXT:          func.call @f__next(
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id 0 : index
  %y = memref.load %out[%id] : memref<?xf32>
  coro.suspend "next"
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
func.func @host(%n: index, %x: f32, %out: memref<?xf32>) {
  coro.launch @f[%n](%x, %out) : (f32, memref<?xf32>) -> ()
  return
}

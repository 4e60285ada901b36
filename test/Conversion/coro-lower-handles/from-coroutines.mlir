// RUN: coro-opt %s --coro-split --coro-materialize-frame --coro-lower-handles | FileCheck %s

// The whole chain from a user coroutine and the code that drives it:
// coro-split and coro-materialize-frame, then coro-lower-handles. The other
// tests here start from the split form (lower-handles.mlir from this
// coroutine's): a frame of 3 words, the subroutines inlined into a switch
// on its token, the promise read from word 2.
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  coro.promise "r", %x : f32
  coro.suspend "next"
  memref.store %x, %out[%id] : memref<?xf32>
  coro.return
}
// CHECK-LABEL: func.func @drive(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[X:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK:         %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// CHECK:         %[[TOKEN:.*]] = memref.load %[[FRAME]][%{{.*}}] : memref<3xi32>
// CHECK:         %[[CASE:.*]] = arith.index_cast %[[TOKEN]] : i32 to index
// CHECK:         scf.index_switch %[[CASE]]
// CHECK-NEXT:    case 0 {
// CHECK:           %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:           memref.store %[[BITS]], %[[FRAME]]
// CHECK:         case 1 {
// CHECK:           memref.store %[[X]], %[[OUT]]
// CHECK:         %[[R:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         return %[[R]] : f32
// CHECK-NOT:     coro.handle
func.func @drive(%i: index, %x: f32, %out: memref<?xf32>) -> f32 {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  coro.handle.resume %h(%x, %out) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
  %r = coro.handle.promise %h["r"] : !coro.handle<@f> -> f32
  return %r : f32
}

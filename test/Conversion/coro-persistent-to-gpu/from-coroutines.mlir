// RUN: coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=workgroup-size=4 batch=8" --canonicalize | FileCheck %s

// The whole chain from a user coroutine: coro-split and
// coro-materialize-frame, then the scheduler. The other tests here start
// from the split form (frame-words.mlir from this coroutine's): the plan,
// the frames and the subroutines' frame accesses come out the same.
// CHECK:       coro.persistent = {g = #coro_plan.persistent<workgroupSize = 4, tokens = 3, frameWords = 2, batch = 8, sharedSlots = 8, workgroupBytes = 240, layout = "soa", subroutines = ["entry", "s1", "s2"]>}
// CHECK-NOT:   coro.split
// CHECK-NOT:   func.func
// CHECK-LABEL: gpu.func @g__pt(
// CHECK-SAME:    %[[FRAMES:[^ ]*]] : memref<16xi32, #gpu.address_space<workgroup>>)
// CHECK:         scf.for %{{.*}} = %thread_id_x to %{{[0-9]+}} step %c4 {
// CHECK-NEXT:      %[[QUEUED:.*]] = memref.load
// CHECK-NEXT:      %[[SLOT:.*]] = arith.index_cast %[[QUEUED]] : i32 to index
// The entry stores v0 (word 2, at [slot]); s1 reads it and writes v1 (word
// 3, at [slot + 8]) on the path that suspends again.
// CHECK:           memref.store %{{.*}}, %[[FRAMES]][%[[SLOT]]]
// CHECK:         } else {
// CHECK:           %[[V0:.*]] = memref.load %[[FRAMES]][%[[SLOT]]]
// CHECK:           arith.bitcast %[[V0]] : i32 to f32
// CHECK:           scf.if
// CHECK:             %[[AT3:.*]] = arith.addi %[[SLOT]], %c8 : index
// CHECK-NEXT:        memref.store %{{.*}}, %[[FRAMES]][%[[AT3]]]
coro.func @g(%out: memref<?xf32>) {
  %i = coro.id : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %v = memref.load %out[%i] : memref<?xf32>
  coro.suspend "s1"
  %c = arith.cmpf ogt, %v, %zero : f32
  scf.if %c {
    %u = memref.load %out[%c0] : memref<?xf32>
    coro.suspend "s2"
    %s = arith.addf %u, %v : f32
    memref.store %s, %out[%i] : memref<?xf32>
  }
  coro.return
}

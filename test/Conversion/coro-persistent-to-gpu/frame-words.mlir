// RUN: coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=workgroup-size=4 batch=8" --canonicalize | FileCheck %s

// Which frame words move between a slot's frame (SoA in workgroup memory:
// word 2 at [slot], word 3 at [slot + 8]) and the private frame a thread
// runs the subroutine on. The private frame holds the words of the
// instance the thread ran before, and every word a subroutine may write is
// written back, so s1, which writes v1 (word 3) on one path only, first
// copies it in; the entry always writes v0 (word 2) and copies nothing in.
// CHECK-LABEL: gpu.func @g__pt(
// CHECK-SAME:    %[[TOKENS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<8xi32, #gpu.address_space<workgroup>>,
// CHECK-SAME:    %[[FRAMES:[^ ]*]] : memref<16xi32, #gpu.address_space<workgroup>>)
// CHECK:         %[[PRIVATE:.*]] = memref.alloca() : memref<4xi32>
// The run loop (its bound is the queue length); the entry: v0 into the
// private frame and out to the slot's word 2.
// CHECK:         scf.for %{{.*}} = %thread_id_x to %{{[0-9]+}} step %c4 {
// CHECK-NEXT:      %[[QUEUED:.*]] = memref.load
// CHECK-NEXT:      %[[SLOT:.*]] = arith.index_cast %[[QUEUED]] : i32 to index
// CHECK:         scf.if
// CHECK-NOT:       memref.load %[[FRAMES]]
// CHECK:           memref.store %{{.*}}, %[[PRIVATE]][%c2]
// CHECK:           %[[V0:.*]] = memref.load %[[PRIVATE]][%c2]
// CHECK-NEXT:      memref.store %[[V0]], %[[FRAMES]][%[[SLOT]]]
// CHECK-NOT:       memref.store %{{.*}}, %[[FRAMES]]
// CHECK:         } else {
// s1: both words in, the token it runs as, word 3 out.
// CHECK:           %[[IN2:.*]] = memref.load %[[FRAMES]][%[[SLOT]]]
// CHECK-NEXT:      memref.store %[[IN2]], %[[PRIVATE]][%c2]
// CHECK-NEXT:      %[[AT3:.*]] = arith.addi %[[SLOT]], %c8 : index
// CHECK-NEXT:      %[[IN3:.*]] = memref.load %[[FRAMES]][%[[AT3]]]
// CHECK-NEXT:      memref.store %[[IN3]], %[[PRIVATE]][%c3]
// CHECK-NEXT:      memref.store %c1_i32, %[[PRIVATE]][%c0]
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[PRIVATE]][%c3]
// CHECK:           %[[OUT3AT:.*]] = arith.addi %[[SLOT]], %c8 : index
// CHECK-NEXT:      %[[OUT3:.*]] = memref.load %[[PRIVATE]][%c3]
// CHECK-NEXT:      memref.store %[[OUT3]], %[[FRAMES]][%[[OUT3AT]]]
// CHECK-NEXT:      %[[TOKEN:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK-NEXT:      memref.store %[[TOKEN]], %[[TOKENS]][%[[SLOT]]]
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

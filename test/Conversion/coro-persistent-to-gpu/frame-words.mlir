// RUN: coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=workgroup-size=4 batch=8" --canonicalize | FileCheck %s

// A subroutine reads and writes the fields of the slot's frame itself
// (SoA in workgroup memory: word 2 at [slot], word 3 at [slot + 8]), where
// it uses them: s1 writes v1 (word 3) only on the path that suspends
// again; nothing is copied, only the token goes through a private word.
// CHECK-LABEL: gpu.func @g__pt(
// CHECK-SAME:    %[[TOKENS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<8xi32, #gpu.address_space<workgroup>>,
// CHECK-SAME:    %[[FRAMES:[^ ]*]] : memref<16xi32, #gpu.address_space<workgroup>>)
// CHECK:         %[[PRIVATE:.*]] = memref.alloca() : memref<4xi32>
// The run loop (its bound is the queue length); the entry stores v0.
// CHECK:         scf.for %{{.*}} = %thread_id_x to %{{[0-9]+}} step %c4 {
// CHECK-NEXT:      %[[QUEUED:.*]] = memref.load
// CHECK-NEXT:      %[[SLOT:.*]] = arith.index_cast %[[QUEUED]] : i32 to index
// CHECK:         scf.if
// CHECK-NOT:       memref.load %[[FRAMES]]
// CHECK:           memref.store %{{.*}}, %[[FRAMES]][%[[SLOT]]]
// CHECK-NOT:       memref.store %{{.*}}, %[[FRAMES]]
// CHECK:           %[[T0:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK-NEXT:      memref.store %[[T0]], %[[TOKENS]][%[[SLOT]]]
// CHECK:         } else {
// s1: starts as token 1, reads v0, writes v1 on one path.
// CHECK:           memref.store %c1_i32, %[[PRIVATE]][%c0]
// CHECK-NOT:       memref.load %[[FRAMES]][%{{.*}}]
// CHECK:           %[[V0:.*]] = memref.load %[[FRAMES]][%[[SLOT]]]
// CHECK:           arith.bitcast %[[V0]] : i32 to f32
// CHECK:           scf.if
// CHECK:             %[[AT3:.*]] = arith.addi %[[SLOT]], %c8 : index
// CHECK-NEXT:        memref.store %{{.*}}, %[[FRAMES]][%[[AT3]]]
// CHECK:           }
// CHECK-NOT:       memref.store %{{.*}}, %[[FRAMES]]
// CHECK:           %[[T1:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK-NEXT:      memref.store %[[T1]], %[[TOKENS]][%[[SLOT]]]
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

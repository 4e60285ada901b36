// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8" --canonicalize | FileCheck %s

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
// @g split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @g__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %i = coro.frame.id %frame : index
  %0 = memref.load %out[%i] : memref<?xf32>
  coro.frame.store %0, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @g__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = coro.frame.load %frame[0] : f32
  %1 = arith.cmpf ogt, %0, %cst : f32
  scf.if %1 {
    %2 = memref.load %out[%c0] : memref<?xf32>
    coro.frame.store %2, %frame[1] : f32
    coro.frame.set_target %frame, 2
  } else {
    coro.frame.set_target %frame, -1
  }
  return
}
func.func @g__s2(%frame: !coro.frame, %out: memref<?xf32>) {
  %i = coro.frame.id %frame : index
  %0 = coro.frame.load %frame[1] : f32
  %1 = coro.frame.load %frame[0] : f32
  %2 = arith.addf %0, %1 : f32
  memref.store %2, %out[%i] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @g subroutines [@g__entry, @g__s1, @g__s2]
    names ["entry", "s1", "s2"]
    fields [#coro.field<"v0" : f32 at 2>, #coro.field<"v1" : f32 at 3>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 1, -1>, array<i32: 2, -1>]
    {frame_bytes = {bit_packing = 16 : i64, field_liveness = 16 : i64, naive = 16 : i64, slot_sharing = 16 : i64, split = 16 : i64}, statistics = {ops_recomputed = 4 : i64, values_live = 2 : i64, values_recomputed = 0 : i64, values_stored = 2 : i64}}

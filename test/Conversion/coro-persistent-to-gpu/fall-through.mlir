// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 fall-through=true" --canonicalize | FileCheck %s
// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8" --canonicalize | FileCheck %s --check-prefix=SWITCH

// fall-through: each queued instance runs the chosen subroutine, then every
// later one it goes on to, in the same step: the cases test the token in
// the private frame in order, each on what the cases before it left. Each
// case writes the slot's token back and counts a return; the instance
// counts itself at its last token once, after all cases.

// CHECK-LABEL: gpu.func @f__pt(
// CHECK-SAME:    workgroup(%[[TOKENS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<8xi32, #gpu.address_space<workgroup>>, %[[QUEUE:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %[[COUNTS:[^ ]*]] : memref<3xi32, #gpu.address_space<workgroup>>, %[[RUNS:[^ ]*]] : memref<3xi32, #gpu.address_space<workgroup>>, %[[CONTROL:[^ ]*]] : memref<10xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[PRIVATE:.*]] = memref.alloca() : memref<2xi32>
// The refill reads the chosen token (control word 0), then the run.
// CHECK:         memref.load %[[CONTROL]][%c0]
// CHECK:         gpu.barrier
// CHECK-NEXT:    %[[CHOSEN:.*]] = memref.load %[[CONTROL]][%c0]
// CHECK-NEXT:    memref.load %[[CONTROL]][%c5]
// CHECK:         scf.for %{{.*}} = %thread_id_x to %{{.*}} step %c4 {
// CHECK:           %[[SLOTI32:.*]] = memref.load %[[QUEUE]][
// CHECK:           %[[SLOT:.*]] = arith.index_cast %[[SLOTI32]]
// CHECK-NOT:       scf.index_switch
// CHECK:           memref.store %[[CHOSEN]], %[[PRIVATE]][%c0]
// CHECK-NEXT:      %[[T0:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK-NEXT:      %[[IS0:.*]] = arith.cmpi eq, %[[T0]], %c0_i32
// CHECK-NEXT:      scf.if %[[IS0]] {
// CHECK:             memref.store %c1_i32, %[[PRIVATE]][%c0]
// CHECK:             %[[NEXT0:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK-NEXT:        memref.store %[[NEXT0]], %[[TOKENS]][%[[SLOT]]]
// CHECK:             memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c9]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T1:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK-NEXT:      %[[IS1:.*]] = arith.cmpi eq, %[[T1]], %c1_i32
// CHECK-NEXT:      scf.if %[[IS1]] {
// A run the leader did not count (not the chosen token) counts itself.
// CHECK-NEXT:        %[[LATER:.*]] = arith.cmpi ne, %[[CHOSEN]], %c1_i32
// CHECK-NEXT:        scf.if %[[LATER]] {
// CHECK-NEXT:          memref.atomic_rmw addi %c1_i32, %[[RUNS]][%c1]
// CHECK-NEXT:        }
// CHECK:             memref.store %c2_i32, %[[PRIVATE]][%c0]
// CHECK:               memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c9]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T2:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK-NEXT:      %[[IS2:.*]] = arith.cmpi eq, %[[T2]], %c2_i32
// CHECK-NEXT:      scf.if %[[IS2]] {
// CHECK:             memref.store %c-1_i32, %[[PRIVATE]][%c0]
// CHECK:               memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c9]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[LAST:.*]] = memref.load %[[TOKENS]][%[[SLOT]]]
// CHECK-NEXT:      %[[LIVE:.*]] = arith.cmpi ne, %[[LAST]], %c-1_i32
// CHECK-NEXT:      scf.if %[[LIVE]] {
// CHECK:             memref.atomic_rmw addi %c1_i32, %[[COUNTS]][

// The default: a switch on the chosen token (as nested scf.if, for the
// SPIR-V conversion), one subroutine per step.
// SWITCH-LABEL: gpu.func @f__pt(
// SWITCH:         scf.for %{{.*}} = %thread_id_x to %{{.*}} step %c4 {
// SWITCH:           %[[IS0:.*]] = arith.cmpi eq, %[[CHOSEN:[0-9]+]], %c0 : index
// SWITCH-NEXT:      scf.if %[[IS0]] {
// SWITCH:           } else {
// SWITCH-NEXT:        %[[IS1:.*]] = arith.cmpi eq, %[[CHOSEN]], %c1 : index
coro.func @f(%out: memref<?xf32>) {
  %id = coro.id 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  memref.store %one, %out[%id] : memref<?xf32>
  coro.suspend
  memref.store %two, %out[%id] : memref<?xf32>
  coro.suspend
  memref.store %one, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %cst = arith.constant 1.000000e+00 : f32
  %id = coro.frame.id %frame 0 : index
  memref.store %cst, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  %cst = arith.constant 2.000000e+00 : f32
  %id = coro.frame.id %frame 0 : index
  memref.store %cst, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, 2
  return
}
func.func @f__s2(%frame: !coro.frame, %out: memref<?xf32>) {
  %cst = arith.constant 1.000000e+00 : f32
  %id = coro.frame.id %frame 0 : index
  memref.store %cst, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__s1, @f__s2]
    names ["entry", "s1", "s2"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 4 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}

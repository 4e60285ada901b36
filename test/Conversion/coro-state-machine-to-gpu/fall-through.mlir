// RUN: coro-opt %s --split-input-file "--coro-state-machine-to-gpu=fall-through=true" --canonicalize | FileCheck %s
// RUN: coro-opt %s --split-input-file --coro-state-machine-to-gpu --canonicalize | FileCheck %s --check-prefix=SWITCH

// fall-through: each pass of the state machine tests the tokens in order,
// each on the token the cases before it left, so one pass runs the three
// subroutines of an instance that goes from one to the next; a token that
// names no subroutine still ends the instance.

// CHECK-LABEL: gpu.func @three(
// CHECK:         %[[TOKEN:.*]] = memref.alloca() : memref<2xi32>
// CHECK:         scf.while
// CHECK:         } do {
// CHECK-NOT:       scf.index_switch
// CHECK:           %[[T0:.*]] = memref.load %[[TOKEN]][%c0]
// CHECK-NEXT:      %[[IS0:.*]] = arith.cmpi eq, %[[T0]], %c0_i32
// CHECK-NEXT:      scf.if %[[IS0]] {
// CHECK-NEXT:        memref.store %cst_0, %{{.*}}[%global_id_x]
// CHECK-NEXT:        memref.store %c1_i32, %[[TOKEN]][%c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T1:.*]] = memref.load %[[TOKEN]][%c0]
// CHECK-NEXT:      %[[IS1:.*]] = arith.cmpi eq, %[[T1]], %c1_i32
// CHECK-NEXT:      scf.if %[[IS1]] {
// CHECK-NEXT:        memref.store %cst, %{{.*}}[%global_id_x]
// CHECK-NEXT:        memref.store %c2_i32, %[[TOKEN]][%c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[T2:.*]] = memref.load %[[TOKEN]][%c0]
// CHECK-NEXT:      %[[IS2:.*]] = arith.cmpi eq, %[[T2]], %c2_i32
// CHECK-NEXT:      scf.if %[[IS2]] {
// CHECK-NEXT:        memref.store %cst_0, %{{.*}}[%global_id_x]
// CHECK-NEXT:        memref.store %c-1_i32, %[[TOKEN]][%c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[LAST:.*]] = memref.load %[[TOKEN]][%c0]
// CHECK-NEXT:      %[[INVALID:.*]] = arith.cmpi uge, %[[LAST]], %c3_i32
// CHECK-NEXT:      scf.if %[[INVALID]] {
// CHECK-NEXT:        memref.store %c-1_i32, %[[TOKEN]][%c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield

// The default: a switch (as nested scf.if, for the SPIR-V conversion): one
// subroutine per pass.
// SWITCH-LABEL: gpu.func @three(
// SWITCH:         } do {
// SWITCH-NEXT:      %[[T:.*]] = memref.load
// SWITCH-NEXT:      %[[TI:.*]] = arith.index_cast %[[T]]
// SWITCH-NEXT:      %[[IS0:.*]] = arith.cmpi eq, %[[TI]], %c0 : index
// SWITCH-NEXT:      scf.if %[[IS0]] {
// SWITCH:           } else {
// SWITCH-NEXT:        %[[IS1:.*]] = arith.cmpi eq, %[[TI]], %c1 : index
// SWITCH-NEXT:        scf.if %[[IS1]] {
// SWITCH:             } else {
// SWITCH-NEXT:          %[[IS2:.*]] = arith.cmpi eq, %[[TI]], %c2 : index
coro.func @three(%out: memref<?xf32>) {
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
// @three split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @three__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %cst = arith.constant 1.000000e+00 : f32
  %id = coro.frame.id %frame 0 : index
  memref.store %cst, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, 1
  return
}
func.func @three__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  %cst = arith.constant 2.000000e+00 : f32
  %id = coro.frame.id %frame 0 : index
  memref.store %cst, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, 2
  return
}
func.func @three__s2(%frame: !coro.frame, %out: memref<?xf32>) {
  %cst = arith.constant 1.000000e+00 : f32
  %id = coro.frame.id %frame 0 : index
  memref.store %cst, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @three subroutines [@three__entry, @three__s1, @three__s2]
    names ["entry", "s1", "s2"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 4 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}

// -----

// A loop that goes back to an earlier subroutine: the pass ends there, and
// the while loop runs the next one.
// CHECK-LABEL: gpu.func @loop(
// CHECK:         scf.while
// CHECK:         } do {
// CHECK-COUNT-2:   arith.cmpi eq, %{{.*}}, %c{{[01]}}_i32 : i32
// CHECK-NOT:       scf.index_switch
// CHECK:           scf.yield
// SWITCH-LABEL: gpu.func @loop(
// SWITCH:         } do {
// SWITCH:           } else {
coro.func @loop(%out: memref<?xf32>, %n: index) {
  %id = coro.id 0 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    coro.suspend
    %v = memref.load %out[%id] : memref<?xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %out[%id] : memref<?xf32>
  }
  coro.return
}
// @loop split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @loop__entry(%frame: !coro.frame, %out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %0 = arith.cmpi sgt, %n, %c0 : index
  scf.if %0 {
    coro.frame.store %c0, %frame[0] : index
    coro.frame.set_target %frame, 1
  } else {
    coro.frame.set_target %frame, -1
  }
  return
}
func.func @loop__s1(%frame: !coro.frame, %out: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.000000e+00 : f32
  %id = coro.frame.id %frame 0 : index
  %0 = memref.load %out[%id] : memref<?xf32>
  %1 = arith.addf %0, %cst : f32
  memref.store %1, %out[%id] : memref<?xf32>
  %2 = coro.frame.load %frame[0] : index
  %3 = arith.addi %2, %c1 : index
  %4 = arith.cmpi slt, %3, %n : index
  scf.if %4 {
    coro.frame.store %3, %frame[0] : index
    coro.frame.set_target %frame, 1
  } else {
    coro.frame.set_target %frame, -1
  }
  return
}
coro.split @loop subroutines [@loop__entry, @loop__s1]
    names ["entry", "s1"]
    fields [#coro.field<"v0" : index at 2>]
    transitions [array<i32: 0, 1>, array<i32: 0, -1>, array<i32: 1, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 16 : i64, field_liveness = 16 : i64, naive = 16 : i64, slot_sharing = 16 : i64, split = 16 : i64}, statistics = {ops_recomputed = 3 : i64, values_live = 1 : i64, values_recomputed = 0 : i64, values_stored = 1 : i64}}

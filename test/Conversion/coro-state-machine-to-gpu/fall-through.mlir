// RUN: coro-opt %s --split-input-file --coro-split --coro-materialize-frame "--coro-state-machine-to-gpu=fall-through=true" --canonicalize | FileCheck %s
// RUN: coro-opt %s --split-input-file --coro-split --coro-materialize-frame --coro-state-machine-to-gpu --canonicalize | FileCheck %s --check-prefix=SWITCH

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

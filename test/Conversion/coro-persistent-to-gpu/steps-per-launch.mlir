// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 steps-per-launch=3" --canonicalize | FileCheck %s
// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8" --canonicalize | FileCheck %s --check-prefix=UNBOUNDED
// RUN: not coro-opt %s "--coro-persistent-to-gpu=steps-per-launch=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// Bounded steps: after 3 steps of a launch a workgroup stops and parks its
// slots in its park area of the extension (3 x 8 words of tokens, ids and
// frame table, then the 8 one-word frames of workgroup memory: 32 words a
// workgroup, after every workgroup's extension frames, none here). A
// launch after the first (the resume word, state word 10 = 8 + 2 tokens,
// is set) takes them back, each live slot counting itself at its token.

// CHECK:       #coro_plan.persistent<workgroupSize = 4, tokens = 2, frameWords = 1, batch = 8, sharedSlots = 8, {{.*}}stepsPerLaunch = 3>
// CHECK-LABEL: gpu.func @f__pt(
// CHECK-SAME:    %[[STATE:[^:]*]]: memref<?xi32>, %[[EXT:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xf32>) workgroup(%[[TOKENS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %[[IDS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<8xi32, #gpu.address_space<workgroup>>, %[[COUNTS:[^ ]*]] : memref<2xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<2xi32, #gpu.address_space<workgroup>>, %[[CONTROL:[^ ]*]] : memref<10xi32, #gpu.address_space<workgroup>>, %[[FRAMES:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>)
// CHECK:         gpu.barrier
// CHECK-NEXT:    %[[RESUME:.*]] = memref.load %[[STATE]][%c10]
// CHECK-NEXT:    %[[PARKED:.*]] = arith.cmpi ne, %[[RESUME]], %c0_i32
// CHECK-NEXT:    scf.if %[[PARKED]] {
// CHECK-NEXT:      %[[PARK:.*]] = arith.muli %block_id_x, %c32 : index
// CHECK-NEXT:      scf.for %[[SLOT:.*]] = %thread_id_x to %c8 step %c4 {
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[PARK]], %[[SLOT]]
// CHECK-NEXT:        %[[TOKEN:.*]] = memref.load %[[EXT]][%[[AT]]]
// CHECK-NEXT:        memref.store %[[TOKEN]], %[[TOKENS]][%[[SLOT]]]
// CHECK:             memref.store %{{.*}}, %[[IDS]][%[[SLOT]]]
// CHECK:             scf.if
// CHECK:               memref.atomic_rmw addi %c1_i32, %[[COUNTS]]
// CHECK:           %[[FRAMESAT:.*]] = arith.addi %[[PARK]], %c24 : index
// CHECK:           scf.for %[[WORD:.*]] = %thread_id_x to %c8 step %c4 {
// CHECK:             memref.store %{{.*}}, %[[FRAMES]][%[[WORD]]]
// CHECK:         gpu.barrier
// CHECK-NEXT:    scf.while
// The leader goes on while the launch's steps (control word 7) are fewer
// than 3: it takes no batch and runs nothing after them.
// CHECK:           %[[STEPS:.*]] = memref.load %[[CONTROL]][%c7]
// CHECK-NEXT:      %[[GOING:.*]] = arith.cmpi slt, %[[STEPS]], %c3_i32
// After the loop, every slot, live or free, and the frames go to the park
// area.
// CHECK:         scf.yield %{{.*}} : i1
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[PARK2:.*]] = arith.muli %block_id_x, %c32 : index
// CHECK-NEXT:  scf.for %[[SLOT2:.*]] = %thread_id_x to %c8 step %c4 {
// CHECK-NEXT:    %[[TOKEN2:.*]] = memref.load %[[TOKENS]][%[[SLOT2]]]
// CHECK-NEXT:    %[[AT2:.*]] = arith.addi %[[PARK2]], %[[SLOT2]]
// CHECK-NEXT:    memref.store %[[TOKEN2]], %[[EXT]][%[[AT2]]]
// CHECK:         memref.load %[[IDS]][%[[SLOT2]]]
// CHECK:       scf.for %{{.*}} = %thread_id_x to %c8 step %c4 {
// CHECK:         memref.load %[[FRAMES]]
// CHECK:         memref.store %{{.*}}, %[[EXT]]

// Unbounded (the default): no park area, no resume word.
// UNBOUNDED-NOT: stepsPerLaunch
// UNBOUNDED-LABEL: gpu.func @f__pt(
// UNBOUNDED-NOT:   %c10 ]
// UNBOUNDED-NOT:   arith.muli %block_id_x, %c32

// NEGATIVE: error: coro-persistent-to-gpu: steps-per-launch must be in [0, 2^31), got -1

coro.func @f(%out: memref<?xf32>) {
  %id = coro.id 0 : index
  %v = memref.load %out[%id] : memref<?xf32>
  coro.suspend
  %two = arith.constant 2.0 : f32
  %r = arith.mulf %v, %two : f32
  memref.store %r, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %id = coro.frame.id %frame 0 : index
  %0 = memref.load %out[%id] : memref<?xf32>
  coro.frame.store %0, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  %cst = arith.constant 2.000000e+00 : f32
  %0 = coro.frame.load %frame[0] : f32
  %1 = arith.mulf %0, %cst : f32
  %id = coro.frame.id %frame 0 : index
  memref.store %1, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__s1]
    names ["entry", "s1"]
    fields [#coro.field<"v0" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 1 : i64, values_recomputed = 0 : i64, values_stored = 1 : i64}}

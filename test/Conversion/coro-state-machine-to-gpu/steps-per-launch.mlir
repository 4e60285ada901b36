// RUN: coro-opt %s --coro-state-machine-to-gpu="steps-per-launch=4 count-loop-iterations=true" | FileCheck %s

// Bounded steps: the kernel takes the frame buffer after the status buffer.
// An instance whose token there is not -1 copies its frame (SoA: word w at
// w * instances + id) into private memory, runs at most 4 subroutines
// (the loop carries the steps), copies the frame back and counts itself as
// returned once its token is -1. The plan names the frame size and the
// bound.
// CHECK:       module attributes {coro.state_machine = {f = #coro_plan.state_machine<workgroupSize = 64, frameWords = 3, stepsPerLaunch = 4, subroutines = ["entry", "next"]>}
// CHECK-LABEL: gpu.func @f(
// CHECK-SAME:    %[[NX:[^:]*]]: index, %[[NY:[^:]*]]: index, %[[NZ:[^:]*]]: index, %{{[^:]*}}: f32, %{{[^:]*}}: memref<?xf32>, %[[STATUS:[^:]*]]: memref<2xi32>, %[[FRAMES:[^:]*]]: memref<?xi32>) kernel
// CHECK:         scf.if
// CHECK:           %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// CHECK-NOT:       scf.for
// CHECK:           %[[PLANE:.*]] = arith.muli %[[NX]], %[[NY]] : index
// CHECK-NEXT:      %[[INSTANCES:.*]] = arith.muli %[[PLANE]], %[[NZ]] : index
// CHECK:           %[[ID:.*]] = arith.addi %global_id_x, %{{.*}} : index
// CHECK:           %[[TOKEN:.*]] = memref.load %[[FRAMES]][%[[ID]]]
// CHECK-NEXT:      %[[RETURNED:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[UNFINISHED:.*]] = arith.cmpi ne, %[[TOKEN]], %[[RETURNED]] : i32
// CHECK-NEXT:      scf.if %[[UNFINISHED]] {
// CHECK:             memref.store %[[TOKEN]], %[[FRAME]]
// CHECK:             %[[AT1:.*]] = arith.addi %[[INSTANCES]], %[[ID]] : index
// CHECK-NEXT:        %[[WORD1:.*]] = memref.load %[[FRAMES]][%[[AT1]]]
// CHECK:             %[[W2:.*]] = arith.muli %[[INSTANCES]], %{{.*}} : index
// CHECK-NEXT:        %[[AT2:.*]] = arith.addi %[[W2]], %[[ID]] : index
// CHECK-NEXT:        %[[WORD2:.*]] = memref.load %[[FRAMES]][%[[AT2]]]
// CHECK:             memref.store %[[WORD1]], %[[FRAME]]
// CHECK:             memref.store %[[WORD2]], %[[FRAME]]
// CHECK:             %[[BOUND:.*]] = arith.constant 4 : i32
// CHECK:             scf.while (%[[STEPS:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK:               %[[RUNNING:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK:               %[[BELOW:.*]] = arith.cmpi ult, %[[STEPS]], %[[BOUND]] : i32
// CHECK:               %[[BOTH:.*]] = arith.andi %[[RUNNING]], %[[BELOW]] : i1
// CHECK:               scf.condition(%[[BOTH]]) %[[STEPS]] : i32
// CHECK:             } do {
// CHECK:               arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:               scf.yield %{{.*}} : i32
// CHECK:             }
// CHECK:             memref.store %{{.*}}, %[[FRAMES]]
// CHECK:             %[[LAST:.*]] = memref.load %[[FRAME]]
// CHECK:             %[[DONE:.*]] = arith.cmpi eq, %[[LAST]], %{{.*}} : i32
// CHECK-NEXT:        scf.if %[[DONE]] {
// CHECK:               memref.atomic_rmw addi %{{.*}}, %[[STATUS]]
// CHECK:           memref.atomic_rmw maxu %{{.*}}, %[[STATUS]]
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id 0 : index
  %y = memref.load %out[%id] : memref<?xf32>
  coro.suspend "next"
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  %id = coro.frame.id %frame 0 : index
  %0 = memref.load %out[%id] : memref<?xf32>
  coro.frame.store %0, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  %id = coro.frame.id %frame 0 : index
  %0 = coro.frame.load %frame[0] : f32
  memref.store %0, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"v0" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {naive = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 1 : i64, values_recomputed = 0 : i64, values_stored = 1 : i64}}

// RUN: coro-opt %s --coro-state-machine-to-gpu="bound-steps=true count-loop-iterations=true" | FileCheck %s
// RUN: coro-opt %s --coro-state-machine-to-gpu="bound-steps=true" | FileCheck %s --check-prefix=UNCOUNTED
// RUN: coro-opt %s --coro-state-machine-to-gpu="bound-steps=true instance-status=false" | FileCheck %s --check-prefix=NOSTATUS
// RUN: coro-opt %s --coro-state-machine-to-gpu="bound-steps=true steps-per-launch=4 count-loop-iterations=true" | FileCheck %s --check-prefix=GIVEN

// bound-steps: bounded steps (the frame buffer, the copies) by the loop
// passes a driver counts. A variable holds the thread's counted passes as
// of the last step's end; the loop goes on while they are below 16384 (and
// below 16384 steps), and each step ends by copying the counter into it.
// The plan carries the step bound, so that the host relaunches.
// CHECK:       #coro_plan.state_machine<workgroupSize = 64, frameWords = 3, stepsPerLaunch = 16384, subroutines = ["entry", "next"]>
// CHECK-LABEL: gpu.func @f(
// CHECK-SAME:    %[[STATUS:[^:]*]]: memref<2xi32>, %[[FRAMES:[^:]*]]: memref<?xi32>) kernel
// CHECK:         memref.alloca() : memref<3xi32>
// CHECK-NEXT:    %[[PASSES:.*]] = memref.alloca() : memref<1xi32>
// CHECK:         memref.store %{{.*}}, %[[PASSES]][%{{.*}}] : memref<1xi32>
// CHECK:         scf.if
// CHECK:           scf.while (%[[STEPS:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK:             %[[BELOW_STEPS:.*]] = arith.cmpi ult, %[[STEPS]], %c16384_i32 : i32
// CHECK:             %[[GOES_ON:.*]] = arith.andi %{{.*}}, %[[BELOW_STEPS]] : i1
// CHECK:             %[[MADE:.*]] = memref.load %[[PASSES]]
// CHECK:             %[[BELOW_PASSES:.*]] = arith.cmpi ult, %[[MADE]], %{{.*}} : i32
// CHECK:             %[[BOTH:.*]] = arith.andi %[[GOES_ON]], %[[BELOW_PASSES]] : i1
// CHECK:             scf.condition(%[[BOTH]])
// CHECK:           } do {
// CHECK-NEXT:        ^bb0
// CHECK-NEXT:          %[[PASS:.*]] = memref.load %[[COUNTER:[a-z_0-9]+]][
// CHECK-NEXT:          arith.addi %[[PASS]]
// CHECK:               %[[COUNT:.*]] = memref.load %[[COUNTER]][
// CHECK-NEXT:          arith.constant 0 : index
// CHECK-NEXT:          memref.store %[[COUNT]], %[[PASSES]]
// CHECK-NEXT:        scf.yield
// CHECK:           memref.store %{{.*}}, %[[FRAMES]]
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[STATUS]]

// Without counted loops: 16384 steps, no variable.
// UNCOUNTED:       stepsPerLaunch = 16384
// UNCOUNTED-LABEL: gpu.func @f(
// UNCOUNTED:         scf.while
// UNCOUNTED-NOT:     memref<1xi32>
// UNCOUNTED:         scf.condition

// Without the status buffer the host cannot tell when to stop: unbounded.
// NOSTATUS:       stepsPerLaunch = 0
// NOSTATUS-LABEL: gpu.func @f(
// NOSTATUS-NOT:     memref<?xi32>) kernel

// steps-per-launch given wins, and its bound alone holds.
// GIVEN:       stepsPerLaunch = 4
// GIVEN-LABEL: gpu.func @f(
// GIVEN-NOT:     arith.constant 16384
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

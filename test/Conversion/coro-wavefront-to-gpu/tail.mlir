// The queue design's tail kernel (tail-below): in the rounds that start with
// the grid exhausted and few instances alive, advance gives the subroutine
// kernels nothing and the tail kernel runs each queued instance through its
// subroutines, as the state machine does.
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 tail-below=10" | FileCheck %s
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 tail-below=10 grid-stride=true" | FileCheck %s --check-prefix=STRIDE
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 tail-below=10 count-loop-iterations=true" | FileCheck %s --check-prefix=BUDGET
// RUN: coro-opt %s --coro-wavefront-to-gpu=workgroup-size=32 | FileCheck %s --check-prefix=NONE

// The plan names the threshold, which the host writes to state word 15.
// CHECK: #coro_plan.wavefront<workgroupSize = 32, tokens = 3, categories = 3, frameWords = 3, layout = "aosoa", subroutines = ["entry", "a", "b"], tailBelow = 10>
// NONE: #coro_plan.wavefront<workgroupSize = 32, tokens = 3, categories = 3, frameWords = 3, layout = "aosoa", subroutines = ["entry", "a", "b"]>
// NONE-NOT: __wf_tail

// Advance: a tail round has nothing left to start (remaining 0) and fewer
// than tail-below % of the slots alive (alive x 100 < percent x capacity);
// it writes the tail's count (word 35) and workgroups (32-34), and each
// queue's count for the tail (word 3 of its words: 51 and 59) instead of
// its own.
// CHECK-LABEL: gpu.func @f__wf_advance(
// CHECK:         %[[CAP:.*]] = memref.load %{{.*}}[%c0{{.*}}]
// CHECK:         %[[PERCENT:.*]] = memref.load %{{.*}}[%c15]
// CHECK:         %[[LIMIT:.*]] = arith.muli %[[PERCENT]], %[[CAP]] : i32
// CHECK:         %[[FEW:.*]] = arith.cmpi ult, %{{.*}}, %[[LIMIT]] : i32
// CHECK:         %[[FEW_ALIVE:.*]] = arith.andi %[[FEW]], %{{.*}} : i1
// CHECK:         %[[NONE_LEFT:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32{{.*}} : i32
// CHECK:         %[[TAIL:.*]] = arith.andi %[[NONE_LEFT]], %[[FEW_ALIVE]] : i1
// CHECK:         %[[TAILCOUNT:.*]] = arith.select %[[TAIL]], %{{.*}}, %c0_i32{{.*}} : i32
// CHECK:         memref.store %[[TAILCOUNT]], %{{.*}}[%c35]
// CHECK:         memref.store %{{.*}}, %{{.*}}[%c32]
// CHECK:         %[[OWN:.*]] = arith.select %[[TAIL]], %c0_i32{{.*}}, %{{.*}} : i32
// CHECK:         memref.store %[[OWN]], %{{.*}}[%c45]
// CHECK:         %[[FOR_TAIL:.*]] = arith.select %[[TAIL]], %{{.*}}, %c0_i32{{.*}} : i32
// CHECK:         memref.store %[[FOR_TAIL]], %{{.*}}[%c43]
// CHECK:         memref.store %{{.*}}, %{{.*}}[%c53]
// CHECK:         memref.store %{{.*}}, %{{.*}}[%c51]
// CHECK:         memref.store %{{.*}}, %{{.*}}[%c61]
// CHECK:         memref.store %{{.*}}, %{{.*}}[%c59]

// The tail kernel: thread i takes the i-th instance of the queues of tokens
// 1 and 2 laid end to end, runs the state machine from its frame's token
// for at most 1024 steps, each subroutine run counted in its statistics
// word (46 + 8 x token), then appends the slot to the free ring or its
// token's queue.
// CHECK-LABEL: gpu.func @f__wf_tail(
// CHECK:         %[[I:.*]] = gpu.global_id x
// CHECK:         %[[COUNT:.*]] = memref.load %{{.*}}[%c35]
// CHECK:         scf.if
// CHECK:           memref.load %{{.*}}[%c51]
// CHECK:           memref.load %{{.*}}[%c52]
// CHECK:           memref.load %{{.*}}[%c59]
// CHECK:           memref.load %{{.*}}[%c60]
// CHECK:           %[[SLOT:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi32>
// CHECK:           scf.while (%[[STEPS:.*]] = %c0_i32{{.*}}) : (i32) -> i32 {
// CHECK:             arith.cmpi ne, %{{.*}}, %c-1_i32
// CHECK:             arith.cmpi ult, %[[STEPS]], %c1024_i32
// CHECK:             scf.condition
// The switch on the token, as a chain of scf.if (SPIR-V has no switch):
// CHECK:             memref.atomic_rmw addi %c1_i32{{.*}}, %{{.*}}[%c46]
// CHECK:             memref.atomic_rmw addi %c1_i32{{.*}}, %{{.*}}[%c54]
// CHECK:             arith.mulf
// CHECK:             memref.atomic_rmw addi %c1_i32{{.*}}, %{{.*}}[%c62]
// CHECK:             arith.addf
// CHECK:           memref.atomic_rmw addi %c1_i32{{.*}}, %{{.*}}[%{{.*}}]
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi32>
// CHECK:       gpu.return

// Grid-stride (CUDA): launched directly every round, its threads stride
// over the tail's count.
// STRIDE-LABEL: gpu.func @f__wf_tail(
// STRIDE:         %[[COUNT:.*]] = arith.index_cast
// STRIDE:         scf.for %{{.*}} = %{{.*}} to %[[COUNT]] step %{{.*}} {
// STRIDE:           scf.while

// Where the driver limits loop passes, a step starts only while the thread's
// passes, noted at each step's end, are below 16384.
// Once the budget is spent, an instance only goes back to its queue.
// BUDGET-LABEL: gpu.func @f__wf_tail(
// BUDGET:         %[[PASSES:.*]] = memref.alloca() : memref<1xi32>
// BUDGET:         %[[SPENT:.*]] = memref.load %[[PASSES]][
// BUDGET:         %[[LEFT:.*]] = arith.cmpi ult, %[[SPENT]], %c16384_i32
// BUDGET:         scf.if %[[LEFT]] {
// BUDGET:         scf.while
// BUDGET:           %[[SO_FAR:.*]] = memref.load %[[PASSES]][
// BUDGET:           arith.cmpi ult, %[[SO_FAR]], %c16384_i32
// BUDGET:           scf.condition
// BUDGET:           memref.store %{{.*}}, %[[PASSES]][
// BUDGET-NEXT:      scf.yield
coro.func @f(%k: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %out[%id] : memref<?xf32>
  coro.suspend "a"
  %y = arith.mulf %x, %k : f32
  coro.suspend "b"
  %z = arith.addf %y, %k : f32
  memref.store %z, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %k: f32, %out: memref<?xf32>) {
  %id = coro.frame.id %frame : index
  %0 = memref.load %out[%id] : memref<?xf32>
  coro.frame.store %0, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__a(%frame: !coro.frame, %k: f32, %out: memref<?xf32>) {
  %0 = coro.frame.load %frame[0] : f32
  %1 = arith.mulf %0, %k : f32
  coro.frame.store %1, %frame[0] : f32
  coro.frame.set_target %frame, 2
  return
}
func.func @f__b(%frame: !coro.frame, %k: f32, %out: memref<?xf32>) {
  %0 = coro.frame.load %frame[0] : f32
  %1 = arith.addf %0, %k : f32
  %id = coro.frame.id %frame : index
  memref.store %1, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__a, @f__b]
    names ["entry", "a", "b"]
    fields [#coro.field<"v0" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 1 : i64, values_recomputed = 0 : i64, values_stored = 1 : i64}}

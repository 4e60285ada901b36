// RUN: coro-opt %s --coro-wavefront-to-gpu=workgroup-size=32 | FileCheck %s
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 design=queues" | FileCheck %s
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 grid-stride=true" | FileCheck %s --check-prefix=STRIDE
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 subgroup-appends=true" | FileCheck %s --check-prefix=GROUP
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 subgroup-appends=true grid-stride=true" | FileCheck %s --check-prefix=GROUP-STRIDE

// Grid-stride (the PTX pipeline's form): each thread of a grid of any size
// takes every (grid size x 32)-th instance of the queue; the plan says so.
// STRIDE:       #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 3, layout = "aosoa", subroutines = ["entry", "next"], gridStride = true>
// STRIDE-LABEL: gpu.func @f__wf_1(
// STRIDE:         %[[FIRST:.*]] = gpu.global_id x
// STRIDE:         %[[COUNT:.*]] = arith.index_cast
// STRIDE:         %[[GRID:.*]] = gpu.grid_dim x
// STRIDE:         %[[THREADS:.*]] = arith.muli %[[GRID]], %c32 : index
// STRIDE:         scf.for %{{.*}} = %[[FIRST]] to %[[COUNT]] step %[[THREADS]] {
// STRIDE:           memref.atomic_rmw addi

// Subgroup appends: every lane reaches the append. Lanes past the count run
// no instance and yield bin 3 (no queue); the others yield their slot's
// bin: the token it now waits at, or 2 (the free ring) once it returned.
// @f__wf_1 sets the termination token on its only path, so only bin 2 gets
// a ballot: a sum of the lanes' bits (1 << lane id; none for lanes past the
// 32nd), uniform. A lane's place is the count of ballot bits below its own;
// the lowest lane of a bin adds the whole ballot's count with one atomic,
// and a second sum hands its result to the others.
// GROUP-LABEL: gpu.func @f__wf_1(
// GROUP:         %[[INSTANCE:.*]]:2 = scf.if %{{.*}} -> (i32, index) {
// GROUP:           %[[RETURNED:.*]] = arith.cmpi eq, %{{.*}}, %c-1_i32{{.*}} : i32
// GROUP:           %[[BIN:.*]] = arith.select %[[RETURNED]], %c2_i32{{.*}}, %{{.*}} : i32
// GROUP:           scf.yield %[[BIN]], %{{.*}} : i32, index
// GROUP:         } else {
// GROUP:           scf.yield %c3_i32{{.*}}, %c0{{.*}} : i32, index
// GROUP:         }
// GROUP:         %[[LANE:.*]] = gpu.lane_id
// GROUP:         %[[LANE32:.*]] = arith.index_cast %[[LANE]] : index to i32
// GROUP:         %[[HAS_BIT:.*]] = arith.cmpi ult, %[[LANE32]], %c32_i32 : i32
// GROUP:         %[[SHIFTED:.*]] = arith.shli %c1_i32, %[[LANE32]] : i32
// GROUP:         %[[BIT:.*]] = arith.select %[[HAS_BIT]], %[[SHIFTED]], %c0_i32 : i32
// GROUP:         %[[IN2:.*]] = arith.cmpi eq, %[[INSTANCE]]#0, %c2_i32{{.*}} : i32
// GROUP:         %[[MINE2:.*]] = arith.select %[[IN2]], %[[BIT]], %c0_i32 : i32
// GROUP:         gpu.subgroup_reduce  add %[[MINE2]] uniform : (i32) -> i32
// GROUP-NOT:     gpu.subgroup_reduce
// GROUP:         %[[FIRST:.*]] = scf.if %{{.*}} -> (i32) {
// GROUP:           memref.atomic_rmw addi
// GROUP:         } else {
// GROUP:         gpu.subgroup_reduce  add %{{.*}} uniform : (i32) -> i32
// GROUP-NOT:     gpu.subgroup_reduce
// GROUP-NOT:     memref.atomic_rmw
// GROUP:         scf.if %{{.*}} {
// GROUP:           memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi32>
// GROUP:         }
// GROUP-NEXT:    gpu.return

// Grid-stride with subgroup appends: the stride loop runs to the count
// rounded up to whole workgroups, so that every lane of a workgroup makes
// the same passes and reaches each append.
// GROUP-STRIDE-LABEL: gpu.func @f__wf_1(
// GROUP-STRIDE:         %[[FIRST:.*]] = gpu.global_id x
// GROUP-STRIDE:         %[[COUNT:.*]] = arith.index_cast
// GROUP-STRIDE:         %[[UP:.*]] = arith.addi %[[COUNT]], %c31 : index
// GROUP-STRIDE:         %[[GROUPS:.*]] = arith.divui %[[UP]], %c32{{.*}} : index
// GROUP-STRIDE:         %[[BOUND:.*]] = arith.muli %[[GROUPS]], %c32{{.*}} : index
// GROUP-STRIDE:         scf.for %[[I:.*]] = %[[FIRST]] to %[[BOUND]] step %{{.*}} {
// GROUP-STRIDE:           %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[COUNT]] : index
// GROUP-STRIDE:           scf.if %[[IN]] -> (i32, index) {
// GROUP-STRIDE:           gpu.subgroup_reduce  add %{{.*}} uniform
// GROUP-STRIDE:           memref.atomic_rmw addi

// The queue design, the default without sort-by: one queue per subroutine
// (categories = tokens), and the plan does not print its design.
// CHECK:       module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 3, layout = "aosoa", subroutines = ["entry", "next"]>}, gpu.container_module}

// Init puts every slot into the free ring, which starts after the two
// halves of the token queues (2 tokens x capacity each).
// CHECK-LABEL: gpu.func @f__wf_init(
// CHECK-SAME:    %{{[^:]*}}: index, %{{[^:]*}}: memref<?xi32>, %[[QUEUE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[STATE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: f32
// CHECK:         %[[SLOT:.*]] = gpu.global_id x
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[RING:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// CHECK:         %[[AT:.*]] = arith.addi %[[RING]], %[[SLOT]] : index
// CHECK:         memref.store %{{.*}}, %[[QUEUE]][%[[AT]]]
// CHECK-NOT:   gpu.func @f__wf_classify

// Advance (thread 0): flip the queue halves (word 27), move token 1's count
// for the next round (word 47) into this round's count (45) and start (44),
// then start new instances from the free ring (head 28, tail 29).
// CHECK-LABEL: gpu.func @f__wf_advance(
// CHECK:         %[[PARITY:.*]] = memref.load %{{.*}}[%c27{{.*}}]
// CHECK:         %[[FLIPPED:.*]] = arith.subi %{{.*}}, %[[PARITY]] : i32
// CHECK:         memref.store %[[FLIPPED]], %{{.*}}[%c27
// CHECK:         %[[NEXT:.*]] = memref.load %{{.*}}[%c55{{.*}}]
// CHECK:         memref.store %c0_i32{{.*}}, %{{.*}}[%c55
// CHECK:         memref.load %{{.*}}[%c28]
// CHECK:         memref.load %{{.*}}[%c29]
// CHECK:         arith.minui
// CHECK:         memref.store %[[NEXT]], %{{.*}}[%c53]
// Nothing alive: done (word 10).
// CHECK:         memref.store %{{.*}}, %{{.*}}[%c10]

// The entry kernel takes its slot from the ring (head + index modulo 2 x
// capacity) and starts instance first-new (word 30) + index there.
// CHECK-LABEL: gpu.func @f__wf_0(
// CHECK-SAME:    %{{[^:]*}}: index, %{{[^:]*}}: memref<?xi32>, %[[QUEUE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[STATE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: f32
// CHECK:         %[[INDEX:.*]] = gpu.global_id x
// CHECK:         scf.if
// CHECK:           %[[WRAPPED:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK:           %[[PLACE:.*]] = arith.addi %{{.*}}, %[[WRAPPED]] : index
// CHECK:           memref.load %[[QUEUE]][%[[PLACE]]]
// CHECK:           memref.load %[[STATE]][%c30]
// After the subroutine, one atomic on the queue's count for the next round
// (47 + 8 x token) or on the free ring's tail (29) once the instance
// returned, then the slot goes to that place.
// Its bin: the token, or 2 (the free ring) for the termination token.
// CHECK:           %[[RETURNED:.*]] = arith.cmpi eq, %{{.*}}, %c-1_i32 : i32
// CHECK:           %[[BIN:.*]] = arith.select %[[RETURNED]], %c2_i32, %{{.*}} : i32
// CHECK:           %[[FREED:.*]] = arith.cmpi eq, %[[BIN]], %c2_i32{{.*}} : i32
// CHECK:           %[[WORD:.*]] = arith.select %[[FREED]], %c29, %{{.*}} : index
// CHECK:           memref.atomic_rmw addi %c1_i32{{.*}}, %[[STATE]][%[[WORD]]]
// CHECK:           %[[FREED2:.*]] = arith.cmpi eq, %[[BIN]], %c2_i32{{.*}} : i32
// CHECK:           %[[WHERE:.*]] = arith.select %[[FREED2]], %{{.*}}, %{{.*}} : index
// CHECK:           memref.store %{{.*}}, %[[QUEUE]][%[[WHERE]]]
// CHECK-NOT:       gpu.barrier
// CHECK:       gpu.return

// A resumed subroutine reads its count (word 53) and start, its slot from
// its queue, and appends the same way.
// CHECK-LABEL: gpu.func @f__wf_1(
// CHECK:         memref.load %{{.*}}[%c53]
// CHECK:         memref.atomic_rmw addi
coro.func @f(%k: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %out[%id] : memref<?xf32>
  coro.suspend "next"
  %y = arith.mulf %x, %k : f32
  memref.store %y, %out[%id] : memref<?xf32>
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
func.func @f__next(%frame: !coro.frame, %k: f32, %out: memref<?xf32>) {
  %0 = coro.frame.load %frame[0] : f32
  %1 = arith.mulf %0, %k : f32
  %id = coro.frame.id %frame : index
  memref.store %1, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"v0" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 1 : i64, values_recomputed = 0 : i64, values_stored = 1 : i64}}

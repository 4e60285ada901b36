// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 sort-by=material hint-buckets=4" | FileCheck %s
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 sort-by=material hint-buckets=4 design=queues subgroup-appends=true" | FileCheck %s --check-prefixes=CHECK,GROUP
// RUN: coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=32 sort-by=material hint-buckets=4 tail-below=10" | FileCheck %s --check-prefix=TAIL

// The queue design with sort-by (the default design): 2 tokens x 4 hint
// buckets = 8 categories. State words: token t's words from 40 + 8 t (its
// count at 45 + 8 t, its tail count at 43 + 8 t), the category offsets from
// 56, their counters from 64.
// CHECK:       #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 8, frameWords = 4, layout = "aosoa", subroutines = ["entry", "next"]>
// TAIL:        #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 8, frameWords = 4, layout = "aosoa", subroutines = ["entry", "next"], tailBelow = 10>

// Advance: the categories of the tokens after the entry (4 to 8) get their
// places in the sorted region, which starts after both halves and the free
// ring, at capacity x (2 x 2 + 2); their counters are cleared. The scatter's
// workgroups (state word 20) cover the slots appended last round.
// CHECK-LABEL: gpu.func @f__wf_advance(
// CHECK:         %[[CAP:.*]] = memref.load %[[STATE:.*]][%c0{{.*}}] : memref<?xi32>
// CHECK:         %[[SORTED:.*]] = arith.muli %[[CAP]], %c6_i32 : i32
// CHECK:         scf.for %[[C:.*]] = %c4 to %c8 step %c1 iter_args(%[[PLACE:.*]] = %[[SORTED]]) -> (i32) {
// CHECK:           %[[COUNTER:.*]] = arith.addi %c64, %[[C]] : index
// CHECK:           %[[N:.*]] = memref.load %[[STATE]][%[[COUNTER]]]
// CHECK:           %[[OFFSET:.*]] = arith.addi %c56, %[[C]] : index
// CHECK:           memref.store %[[PLACE]], %[[STATE]][%[[OFFSET]]]
// CHECK:           memref.store %c0_i32{{.*}}, %[[STATE]][%[[COUNTER]]]
// CHECK:           %[[NEXT:.*]] = arith.addi %[[PLACE]], %[[N]] : i32
// CHECK:           scf.yield %[[NEXT]] : i32
// CHECK:         }
// Token 1's queue starts where its first category does.
// CHECK:         memref.load %[[STATE]][%c60]
// CHECK:         %[[GROUPS:.*]] = arith.divui
// CHECK:         memref.store %[[GROUPS]], %[[STATE]][%c20]

// Scatter: thread i takes the i-th slot appended last round (token 1's
// queue in the half advance made current), and moves it to its category's
// offset plus its rank.
// CHECK-LABEL: gpu.func @f__wf_scatter(
// CHECK-SAME:    index, %{{[^:]*}}: memref<?xi32>, %[[QUEUE:[^:]*]]: memref<?xi32>, %[[RANKS:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[STATE:[^:]*]]: memref<?xi32>
// CHECK:         %[[I:.*]] = gpu.global_id x
// CHECK:         memref.load %[[STATE]][%c53]
// CHECK:         scf.if
// CHECK:           %[[SLOT32:.*]] = memref.load %[[QUEUE]][%{{.*}}]
// CHECK:           %[[SLOT:.*]] = arith.index_cast %[[SLOT32]] : i32 to index
// CHECK:           arith.maxsi
// CHECK:           %[[CATEGORY:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:           %[[CW:.*]] = arith.index_cast %[[CATEGORY]] : i32 to index
// CHECK:           %[[OW:.*]] = arith.addi %c56, %[[CW]] : index
// CHECK:           %[[OFFSET:.*]] = memref.load %[[STATE]][%[[OW]]]
// CHECK:           %[[RANK:.*]] = memref.load %[[RANKS]][%[[SLOT]]]
// CHECK:           %[[PLACE:.*]] = arith.addi %[[OFFSET]], %[[RANK]] : i32
// CHECK:           %[[AT:.*]] = arith.index_cast %[[PLACE]] : i32 to index
// CHECK:           memref.store %{{.*}}, %[[QUEUE]][%[[AT]]]

// The entry kernel: an instance that goes on to token 1 (a bin below the
// tokens) is numbered in its category, token 1 x 4 plus the bucket of its
// material clamped to [0, 4), with one atomic on the category's counter,
// and its rank goes to `ranks`; then it is appended as without sorting
// (with subgroup appends: by the subgroup, after the instance).
// CHECK-LABEL: gpu.func @f__wf_0(
// CHECK-SAME:    index, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[RANKS:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[STATE:[^:]*]]: memref<?xi32>
// CHECK:         %[[TOSORT:.*]] = arith.cmpi ult, %[[BIN:.*]], %c2_i32{{.*}} : i32
// CHECK:         scf.if %[[TOSORT]] {
// CHECK:           arith.muli %[[BIN]], %c4_i32
// CHECK:           arith.minsi %{{.*}}, %c3_i32
// CHECK:           arith.maxsi
// CHECK:           %[[CW:.*]] = arith.addi %c64{{.*}}, %{{.*}} : index
// CHECK:           %[[RANK:.*]] = memref.atomic_rmw addi %c1_i32{{.*}}, %[[STATE]][%[[CW]]]
// CHECK:           memref.store %[[RANK]], %[[RANKS]][%{{.*}}]
// CHECK:         }
// GROUP:         scf.yield %[[BIN]], %{{.*}} : i32, index
// GROUP:         gpu.subgroup_reduce
// CHECK:         memref.atomic_rmw addi

// A tail round's counts are the tail's: the scatter adds them.
// TAIL-LABEL: gpu.func @f__wf_scatter(
// TAIL:         memref.load %{{.*}}[%c53]
// TAIL:         memref.load %{{.*}}[%c51]
// The tail kernel ranks the slots it leaves in a queue too.
// TAIL-LABEL: gpu.func @f__wf_tail(
// TAIL:         scf.while
// TAIL:         arith.cmpi ult, %{{.*}}, %c2_i32{{.*}} : i32
// TAIL:         memref.atomic_rmw addi %c1_i32{{.*}}, %{{.*}}[%{{.*}}]
// TAIL:         memref.atomic_rmw addi

coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id 0 : index
  %y = memref.load %out[%id] : memref<?xf32>
  %m = arith.constant 3 : i32
  coro.promise "material", %m : i32
  coro.suspend "next"
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
func.func @f__entry(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  %c3_i32 = arith.constant 3 : i32
  coro.frame.store %c3_i32, %frame[1] : i32
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
    fields [#coro.field<"v0" : f32 at 3>, #coro.field<"material" : i32 at 2, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 16 : i64, field_liveness = 16 : i64, naive = 16 : i64, slot_sharing = 16 : i64, split = 16 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 1 : i64, values_recomputed = 0 : i64, values_stored = 1 : i64}}

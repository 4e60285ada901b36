// RUN: coro-opt %s --split-input-file "--coro-wavefront-to-gpu=workgroup-size=32 layout=soa design=classify" | FileCheck %s --check-prefixes=CHECK,SOA
// RUN: coro-opt %s --split-input-file "--coro-wavefront-to-gpu=workgroup-size=32 layout=aos design=classify" | FileCheck %s --check-prefixes=CHECK,AOS
// RUN: coro-opt %s --split-input-file "--coro-wavefront-to-gpu=workgroup-size=32 design=classify" | FileCheck %s --check-prefixes=CHECK,AOSOA
// RUN: coro-opt %s --split-input-file "--coro-wavefront-to-gpu=workgroup-size=32 sort-by=material hint-buckets=4 design=classify" | FileCheck %s --check-prefix=SORT

// The classify design (queues.mlir has the queue design, the default).
// The plan tells the host loop the shape of the kernels: 2 subroutines, one
// queue each (no sort), 4 frame words (token, id, material, y).
// CHECK:       module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 4, layout = "{{soa|aos|aosoa}}", subroutines = ["entry", "next"], design = "classify">}, gpu.container_module}
// SORT:        module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = {{[0-9]+}}, tokens = 2, categories = 8,
// CHECK-NOT:   coro.split
// CHECK-NOT:   func.func

// Every kernel takes the grid, the six scheduler buffers, then the
// coroutine's arguments.
// CHECK-LABEL: gpu.func @f__wf_init(
// CHECK-SAME:    %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %[[FRAMES:.*]]: memref<?xi32>, %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %[[STATE:.*]]: memref<?xi32>, %{{.*}}: memref<?xi32>, %{{.*}}: f32, %{{.*}}: memref<?xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>}
// CHECK:         %[[SLOT:.*]] = gpu.global_id x
// CHECK:         %[[CAP:.*]] = arith.index_cast
// CHECK:         arith.cmpi ult, %[[SLOT]], %[[CAP]]
// CHECK:         %[[FREE:.*]] = arith.constant -1 : i32
// The token is word 0: slot (SoA), slot * 4 (AoS), or in the slot's tile of
// 32 slots, (slot / 32) * 32 * 4 + slot % 32 (AoSoA, the default).
// AOS:           %[[AT:.*]] = arith.muli %[[SLOT]], %c4
// AOS:           memref.store %[[FREE]], %[[FRAMES]][%[[AT]]]
// SOA:           memref.store %[[FREE]], %[[FRAMES]][%[[SLOT]]]
// AOSOA:         %[[TILE:.*]] = arith.divui %[[SLOT]], %c32
// AOSOA:         %[[LANE:.*]] = arith.remui %[[SLOT]], %c32
// AOSOA:         %[[START:.*]] = arith.muli %[[TILE]], %c128
// AOSOA:         %[[AT:.*]] = arith.addi %[[START]], %[[LANE]]
// AOSOA:         memref.store %[[FREE]], %[[FRAMES]][%[[AT]]]

// Classify: workgroup memory for the prefix counts of free slots, the base
// of the workgroup's instances and the packed per-category counters (2
// categories of 8 bits: one word per lane); when refilling, one atomic per
// workgroup on the next instance (state word 5); prefix sums in log2(32)
// steps.
// CHECK-LABEL: gpu.func @f__wf_classify(
// CHECK-SAME:    workgroup(%{{.*}} : memref<32xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>, %[[COUNTERS:.*]] : memref<32xi32, #gpu.address_space<workgroup>>)
// CHECK:         %[[REFILL:.*]] = arith.cmpi ne
// CHECK:         scf.if %[[REFILL]] -> (i32) {
// CHECK:           gpu.barrier
// CHECK:           memref.atomic_rmw addi %{{.*}}, %{{.*}}[%c5] : (i32, memref<?xi32>) -> i32
// CHECK:           gpu.barrier
// Free slots get the entry token.
// CHECK:           memref.store %c0_i32{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi32>
// CHECK:         } else {
// CHECK:         memref.store %{{.*}}, %[[COUNTERS]]
// CHECK:         gpu.barrier
// CHECK:         arith.cmpi uge, %{{.*}}, %c1 : index
// CHECK:         arith.cmpi uge, %{{.*}}, %c2 : index
// CHECK:         arith.cmpi uge, %{{.*}}, %c4 : index
// CHECK:         arith.cmpi uge, %{{.*}}, %c8 : index
// CHECK:         arith.cmpi uge, %{{.*}}, %c16 : index
// CHECK-NOT:     arith.cmpi uge, %{{.*}}, %c32 : index
// CHECK:         gpu.barrier
// Per category, a workgroup with slots in it reserves their places with one
// atomic on the category's counter (state words 58 and 59, after the two
// offsets at 56) and writes where they start to `blocks`.
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %c2{{.*}} step %c32
// CHECK:           %[[N:.*]] = arith.andi
// CHECK:           %[[ANY:.*]] = arith.cmpi ne, %[[N]], %c0_i32
// CHECK:           %[[FIRST:.*]] = scf.if %[[ANY]] -> (i32) {
// CHECK:             %[[CW:.*]] = arith.addi %c58, %[[C]] : index
// CHECK:             memref.atomic_rmw addi %[[N]], %[[STATE_C:.*]][%[[CW]]] : (i32, memref<?xi32>) -> i32
// CHECK:           memref.store %[[FIRST]], %{{.*}}[%{{.*}}] : memref<?xi32>
// SORT-LABEL:  gpu.func @f__wf_classify(
// 8 categories of 8 bits: two words per lane.
// SORT-SAME:     %{{.*}} : memref<64xi32, #gpu.address_space<workgroup>>)
// The category of an alive slot: token * 4 + its material, clamped to [0, 4).
// SORT:          %[[T:.*]] = arith.muli %{{.*}}, %c4_i32
// SORT:          %[[H:.*]] = memref.load
// SORT:          %[[LO:.*]] = arith.minsi %[[H]], %c3_i32
// SORT:          %[[B:.*]] = arith.maxsi %[[LO]], %c0_i32
// SORT:          arith.addi %[[T]], %[[B]]

// The scan runs in one workgroup: it takes the category totals from the
// counters into workgroup memory and clears the counters for the next
// round, then thread 0 lays the categories out (offsets at state word 56).
// CHECK-LABEL: gpu.func @f__wf_scan(
// CHECK-SAME:    workgroup(%[[TOTALS:.*]] : memref<2xi32, #gpu.address_space<workgroup>>)
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %c2 step %c32 {
// CHECK:           %[[CW:.*]] = arith.addi %c58, %[[C]] : index
// CHECK:           %[[TOTAL:.*]] = memref.load %[[ST:.*]][%[[CW]]] : memref<?xi32>
// CHECK:           memref.store %[[TOTAL]], %[[TOTALS]][%[[C]]]
// CHECK:           memref.store %c0_i32, %[[ST]][%[[CW]]] : memref<?xi32>
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:             arith.addi %c56
// CHECK-LABEL: gpu.func @f__wf_scatter(
// CHECK-LABEL: gpu.func @f__wf_compact_gather(
// CHECK-LABEL: gpu.func @f__wf_compact_scatter(

// Subroutine 0 (entry): thread i runs the i-th slot of its queue; the
// instance id comes from frame word 1, coro.id 0 from it.
// CHECK-LABEL: gpu.func @f__wf_0(
// CHECK:         %[[I:.*]] = gpu.global_id x
// CHECK:         scf.if
// Its queue starts at state word 44 (token 0's words start at 40).
// CHECK:           %[[START:.*]] = memref.load %{{.*}}[%c44]
// CHECK:           %[[START_I:.*]] = arith.index_cast %[[START]]
// CHECK:           %[[AT:.*]] = arith.addi %[[START_I]], %[[I]]
// CHECK:           memref.load %{{.*}}[%[[AT]]] : memref<?xi32>
// CHECK:           %[[X:.*]] = arith.remui %{{.*}}, %arg0 : index
// CHECK:           memref.load %arg10[%[[X]]] : memref<?xf32>
// CHECK-LABEL: gpu.func @f__wf_1(
// CHECK:           arith.bitcast %{{.*}} : i32 to f32
// CHECK:           memref.store %{{.*}} : memref<?xf32>
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id 0 : index
  %y = memref.load %out[%id] : memref<?xf32>
  %m = arith.constant 3 : i32
  coro.promise "material", %m : i32
  coro.suspend "next"
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
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

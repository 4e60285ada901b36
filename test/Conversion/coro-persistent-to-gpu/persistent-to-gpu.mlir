// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 shared-memory=208" --canonicalize | FileCheck %s --check-prefixes=CHECK,SOA
// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 shared-memory=208 layout=aos" --canonicalize | FileCheck %s --check-prefixes=CHECK,AOS
// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8" | FileCheck %s --check-prefix=ALLSHARED

// Two frame words per slot (the loaded value and the ticket). The
// scheduler's own workgroup memory is 3 x 32 + 2 x 16 + 48 = 176 bytes (the
// arrays of 8, 8, 8, 2, 2 and 10 words, each padded to 16 bytes, as the PTX
// pipeline aligns them), so 208 bytes leave room for the frames of 4 slots;
// the other 4 live in the global memory extension. With the default 16 KiB
// all 8 fit. The runtime checks the workgroup bytes (176 + 4 x 2 x 4)
// against the device.
// CHECK:     module attributes {coro.persistent = {f = #coro_plan.persistent<workgroupSize = 4, tokens = 2, frameWords = 2, batch = 8, sharedSlots = 4, workgroupBytes = 208, layout = "{{soa|aos}}", subroutines = ["entry", "s1"]>}, gpu.container_module}
// ALLSHARED: coro.persistent = {f = #coro_plan.persistent<workgroupSize = {{[0-9]+}}, tokens = 2, frameWords = 2, batch = 8, sharedSlots = 8,
// CHECK-NOT: coro.split
// CHECK-NOT: func.func

// One kernel: the grid, the state buffer, the extension, then the
// coroutine's arguments; in workgroup memory the slots' tokens, ids and
// queue, the counts and runs per subroutine, the leader's decisions and
// the frames of the first 4 slots.
// CHECK-LABEL: gpu.func @f__pt(
// CHECK-SAME:    %[[NX:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[STATE:[^:]*]]: memref<?xi32>, %[[EXT:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: memref<?xi32>)
// CHECK-SAME:    workgroup(%[[TOKENS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %[[IDS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %[[QUEUE:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %[[COUNTS:[^ ]*]] : memref<2xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<2xi32, #gpu.address_space<workgroup>>, %[[CONTROL:[^ ]*]] : memref<10xi32, #gpu.address_space<workgroup>>, %[[FRAMES:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>)
// CHECK-SAME:    kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>}
// CHECK:         %[[LANE:.*]] = gpu.thread_id x
// CHECK:         %[[BLOCK:.*]] = gpu.block_id x
// CHECK:         %[[PRIVATE:.*]] = memref.alloca() : memref<4xi32>
// Every slot starts free; no instance waits at any token.
// CHECK:         scf.for %[[S:.*]] = %[[LANE]] to %c8 step %c4 {
// CHECK-NEXT:      memref.store %c-1_i32, %[[TOKENS]][%[[S]]]
// CHECK:           memref.store %c0_i32{{.*}}, %[[COUNTS]][
// CHECK:         gpu.barrier
// The loop only tests its flag (the SPIR-V conversion wants that).
// CHECK:         scf.while (%[[GO:.*]] = %true) : (i1) -> () {
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK:         } do {
// The counts per token are kept by the steps: a step starts with the
// leader, who takes a batch from state word 0 (the next instance) and
// compares with word 1 (the grid); word 2 limits the batches per launch.
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.if
// CHECK:             memref.atomic_rmw addi %{{.*}}, %[[STATE]][%c0] : (i32, memref<?xi32>) -> i32
// CHECK:             memref.load %[[STATE]][%c1] : memref<?xi32>
// CHECK:             memref.load %[[STATE]][%c2] : memref<?xi32>
// The chosen token's instances all run: its count starts again at 0.
// CHECK:             memref.store %c0_i32{{.*}}, %[[COUNTS]][
// CHECK:           gpu.barrier
// CHECK:           %[[RUNNING:.*]] = arith.cmpi eq
// CHECK:           scf.if %[[RUNNING]] {
// Free slots take the batch's instances (ids), the chosen token's slots are
// queued.
// CHECK:             memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c4]
// CHECK:             memref.store %{{.*}}, %[[IDS]][
// CHECK:             memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c5]
// CHECK:             memref.store %{{.*}}, %[[QUEUE]][
// CHECK:             gpu.barrier
// Each thread runs queued instances a workgroup apart.
// CHECK:             scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %c4 {
// CHECK:               %[[SLOT:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:               memref.load %[[IDS]][%[[SLOT]]]
// Where the slot's frame lives, once per run: in workgroup memory below
// slot 4, in the extension above (this workgroup's 4 slots x 2 words from
// block * 8).
// CHECK:               %[[BASE:.*]] = arith.muli %[[BLOCK]], %c8 : index
// CHECK:               %[[OVER:.*]] = arith.subi %[[SLOT]], %c4 : index
// CHECK:               %[[SHARED:.*]] = arith.cmpi slt, %[[SLOT]], %c4 : index
// The entry stores the value (word 3), as soon as it is loaded, and the
// ticket (word 2) straight into the slot's frame. Word 3: SoA 4 slots
// further, AoS the next word.
// CHECK:               scf.if
// CHECK:                 scf.if %[[SHARED]] {
// SOA:                     %[[W1:.*]] = arith.addi %[[SLOT]], %c4 : index
// AOS:                     %[[W1:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK:                   memref.store %{{.*}}, %[[FRAMES]][%[[W1]]]
// CHECK:                 } else {
// CHECK:                   memref.store %{{.*}}, %[[EXT]]
// CHECK:                 }
// CHECK:                 %[[TICKET:.*]] = memref.atomic_rmw addi %c1_i32
// CHECK:                 scf.if %[[SHARED]] {
// SOA:                     memref.store %[[TICKET]], %[[FRAMES]][%[[SLOT]]]
// AOS:                     %[[W0:.*]] = arith.muli %[[SLOT]], %c2 : index
// AOS:                     memref.store %[[TICKET]], %[[FRAMES]][%[[W0]]]
// CHECK:                 } else {
// SOA:                     %[[E:.*]] = arith.addi %[[BASE]], %[[OVER]] : index
// AOS:                     %[[EW:.*]] = arith.muli %[[OVER]], %c2 : index
// AOS:                     %[[E:.*]] = arith.addi %[[BASE]], %[[EW]] : index
// CHECK:                   memref.store %[[TICKET]], %[[EXT]][%[[E]]]
// CHECK:                 }
// The token goes back to workgroup memory; a returned instance is counted.
// CHECK:                 %[[TOKEN:.*]] = memref.load %[[PRIVATE]][%c0]
// CHECK:                 memref.store %[[TOKEN]], %[[TOKENS]][%[[SLOT]]]
// CHECK:                 %[[DONE:.*]] = arith.cmpi eq, %[[TOKEN]], %c-1_i32
// CHECK:                 scf.if %[[DONE]] {
// CHECK:                   memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c9]
// The resumption reads both fields from where the slot's frame lives.
// CHECK:               } else {
// CHECK:                 scf.if %{{.*}} -> (i32) {
// CHECK:                   memref.load %[[FRAMES]]
// CHECK:                 } else {
// CHECK:                   memref.load %[[EXT]]
// After the run, the instance counts itself at its next token.
// CHECK:               %[[NEXT:.*]] = memref.load %[[TOKENS]][%[[SLOT]]]
// CHECK:               %[[ALIVE:.*]] = arith.cmpi ne, %[[NEXT]], %c-1_i32
// CHECK:               scf.if %[[ALIVE]] {
// CHECK:                 memref.atomic_rmw addi %c1_i32, %[[COUNTS]][%{{.*}}] : (i32, memref<2xi32, #gpu.address_space<workgroup>>)
// CHECK:             gpu.barrier
// CHECK:           scf.yield %[[RUNNING]] : i1
// The statistics: steps (word 3), batches (word 4), returned instances
// (word 5), runs per subroutine (words 8, 9).
// CHECK:         memref.atomic_rmw addi %{{.*}}, %[[STATE]][%c3]
// CHECK:         memref.atomic_rmw addi %{{.*}}, %[[STATE]][%c4]
// CHECK:         memref.atomic_rmw addi %{{.*}}, %[[STATE]][%c5]
// CHECK:         scf.for
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[STATE]][%{{.*}}]
// CHECK:         gpu.return
coro.func @f(%out: memref<?xf32>, %tickets: memref<?xi32>) {
  %i = coro.id : index
  %v = memref.load %out[%i] : memref<?xf32>
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %t = memref.atomic_rmw addi %one, %tickets[%c0] : (i32, memref<?xi32>) -> i32
  coro.suspend
  %f = arith.sitofp %t : i32 to f32
  %s = arith.addf %v, %f : f32
  memref.store %s, %out[%i] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>, %tickets: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %i = coro.frame.id %frame : index
  %0 = memref.load %out[%i] : memref<?xf32>
  coro.frame.store %0, %frame[1] : f32
  %1 = memref.atomic_rmw addi %c1_i32, %tickets[%c0] : (i32, memref<?xi32>) -> i32
  coro.frame.store %1, %frame[0] : i32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>, %tickets: memref<?xi32>) {
  %0 = coro.frame.load %frame[0] : i32
  %1 = arith.sitofp %0 : i32 to f32
  %2 = coro.frame.load %frame[1] : f32
  %3 = arith.addf %2, %1 : f32
  %i = coro.frame.id %frame : index
  memref.store %3, %out[%i] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__s1]
    names ["entry", "s1"]
    fields [#coro.field<"v0" : i32 at 2>, #coro.field<"v1" : f32 at 3>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 16 : i64, field_liveness = 16 : i64, naive = 16 : i64, slot_sharing = 16 : i64, split = 16 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 2 : i64, values_recomputed = 0 : i64, values_stored = 2 : i64}}

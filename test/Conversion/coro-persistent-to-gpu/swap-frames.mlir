// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 shared-memory=352 swap-frames=true" --canonicalize | FileCheck %s
// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 shared-memory=352" --canonicalize | FileCheck %s --check-prefix=FIXED
// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 swap-frames=true" --canonicalize | FileCheck %s --check-prefix=ALLSHARED
// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 shared-memory=240 swap-frames=true" --canonicalize | FileCheck %s --check-prefix=NOROOM

// Frame swapping (swap-frames). Eight frame words per slot. Without
// swapping the scheduler's arrays take 176 bytes and 352 leave room for 5
// frames; swapping adds the frame of each slot and the swap list (2 x 32
// bytes) and 3 control words (the control array 52 -> 64 bytes), 256 bytes
// in all, which leaves room for 3 frames.
// CHECK: coro.persistent = {f = #coro_plan.persistent<workgroupSize = 4, tokens = 2, frameWords = 8, batch = 8, sharedSlots = 3, workgroupBytes = 352,
// FIXED: coro.persistent = {f = #coro_plan.persistent<workgroupSize = 4, tokens = 2, frameWords = 8, batch = 8, sharedSlots = 5, workgroupBytes = 336,
// FIXED-NOT: memref<13xi32
// Every frame fits in workgroup memory: nothing to swap, no arrays for it.
// ALLSHARED: coro.persistent = {f = #coro_plan.persistent<workgroupSize = 4, tokens = 2, frameWords = 8, batch = 8, sharedSlots = 8, workgroupBytes = 432,
// ALLSHARED-NOT: memref<13xi32
// The swap's arrays would not leave room for one frame (240 < 256 + 32):
// the frames stay where they are.
// NOROOM: coro.persistent = {f = #coro_plan.persistent<workgroupSize = 4, tokens = 2, frameWords = 8, batch = 8, sharedSlots = 2, workgroupBytes = 240,
// NOROOM-NOT: memref<13xi32

// CHECK-LABEL: gpu.func @f__pt(
// CHECK-SAME:    %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[STATE:[^:]*]]: memref<?xi32>, %[[EXT:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xf32>)
// CHECK-SAME:    workgroup(%[[TOKENS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<8xi32, #gpu.address_space<workgroup>>, %[[QUEUE:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<2xi32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<2xi32, #gpu.address_space<workgroup>>, %[[CONTROL:[^ ]*]] : memref<13xi32, #gpu.address_space<workgroup>>, %[[FRAMES:[^ ]*]] : memref<24xi32, #gpu.address_space<workgroup>>, %[[FRAMEOF:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>, %[[SWAPS:[^ ]*]] : memref<8xi32, #gpu.address_space<workgroup>>)
// Each slot starts with its own frame.
// CHECK:         scf.for %[[S:.*]] = %{{.*}} to %c8 step %c4 {
// CHECK-NEXT:      memref.store %c-1_i32, %[[TOKENS]][%[[S]]]
// CHECK-NEXT:      %[[SI32:.*]] = arith.index_cast %[[S]] : index to i32
// CHECK-NEXT:      memref.store %[[SI32]], %[[FRAMEOF]][%[[S]]]
// CHECK:         scf.while
// The leader clears the step's swap counts (control words 10 and 11).
// CHECK:           memref.store %c0_i32, %[[CONTROL]][%c10]
// CHECK:           memref.store %c0_i32, %[[CONTROL]][%c11]
// CHECK:           gpu.barrier
// A queued slot whose frame is in the extension (frame 3 and above) goes to
// the front of the swap list; a slot that does not run with its frame in
// workgroup memory, to the back.
// CHECK:             memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c5]
// CHECK:             %[[FRAME:.*]] = memref.load %[[FRAMEOF]][
// CHECK:             arith.cmpi sge, %[[FRAME]], %c3_i32
// CHECK:             memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c10]
// CHECK:             memref.store %{{.*}}, %[[SWAPS]][
// CHECK:             memref.atomic_rmw addi %c1_i32, %[[CONTROL]][%c11]
// CHECK:             arith.subi %c7_i32
// CHECK:             memref.store %{{.*}}, %[[SWAPS]][
// CHECK:           gpu.barrier
// As many pairs as both ends of the list hold trade frames, word by word
// (a free slot's frame is only overwritten), then their frame numbers; a
// barrier before the run, in the steps that swap.
// CHECK-DAG:       %[[IN:.*]] = memref.load %[[CONTROL]][%c10]
// CHECK-DAG:       %[[OUT:.*]] = memref.load %[[CONTROL]][%c11]
// CHECK:           %[[PAIRS:.*]] = arith.minsi
// CHECK:           %[[SWAPPING:.*]] = arith.cmpi ne, %[[PAIRS]], %c0_i32
// CHECK:           scf.if %[[SWAPPING]] {
// CHECK:             memref.load %[[CONTROL]][%c12]
// CHECK:             scf.for
// CHECK:               %[[LIVE:.*]] = arith.cmpi ne, %{{.*}}, %c-1_i32
// CHECK:               scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK:                 %[[WORD:.*]] = memref.load %[[EXT]][
// CHECK:                 scf.if %[[LIVE]] {
// CHECK:                   memref.load %[[FRAMES]][
// CHECK:                   memref.store %{{.*}}, %[[EXT]][
// CHECK:                 }
// CHECK:                 memref.store %[[WORD]], %[[FRAMES]][
// CHECK:               }
// CHECK:               memref.store %{{.*}}, %[[FRAMEOF]][
// CHECK:               memref.store %{{.*}}, %[[FRAMEOF]][
// CHECK:             }
// CHECK:             gpu.barrier
// CHECK:           }
// The run finds each slot's frame through its frame number.
// CHECK:           scf.for
// CHECK:             memref.load %[[QUEUE]][
// CHECK:             memref.load %[[FRAMEOF]][
// CHECK:           gpu.barrier
// The swaps go to state word 7.
// CHECK:         memref.atomic_rmw addi %{{.*}}, %[[STATE]][%c7]
coro.func @f(%out: memref<?xf32>) {
  %i = coro.id : index
  %c0 = arith.constant 0 : index
  %i0 = arith.addi %i, %c0 : index
  %v0 = memref.load %out[%i0] : memref<?xf32>
  %c1 = arith.constant 1 : index
  %i1 = arith.addi %i, %c1 : index
  %v1 = memref.load %out[%i1] : memref<?xf32>
  %c2 = arith.constant 2 : index
  %i2 = arith.addi %i, %c2 : index
  %v2 = memref.load %out[%i2] : memref<?xf32>
  %c3 = arith.constant 3 : index
  %i3 = arith.addi %i, %c3 : index
  %v3 = memref.load %out[%i3] : memref<?xf32>
  %c4 = arith.constant 4 : index
  %i4 = arith.addi %i, %c4 : index
  %v4 = memref.load %out[%i4] : memref<?xf32>
  %c5 = arith.constant 5 : index
  %i5 = arith.addi %i, %c5 : index
  %v5 = memref.load %out[%i5] : memref<?xf32>
  %c6 = arith.constant 6 : index
  %i6 = arith.addi %i, %c6 : index
  %v6 = memref.load %out[%i6] : memref<?xf32>
  %c7 = arith.constant 7 : index
  %i7 = arith.addi %i, %c7 : index
  %v7 = memref.load %out[%i7] : memref<?xf32>
  coro.suspend
  %s1 = arith.addf %v0, %v1 : f32
  %s2 = arith.addf %s1, %v2 : f32
  %s3 = arith.addf %s2, %v3 : f32
  %s4 = arith.addf %s3, %v4 : f32
  %s5 = arith.addf %s4, %v5 : f32
  %s6 = arith.addf %s5, %v6 : f32
  %s7 = arith.addf %s6, %v7 : f32
  memref.store %s7, %out[%i] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %c7 = arith.constant 7 : index
  %c6 = arith.constant 6 : index
  %c5 = arith.constant 5 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %i = coro.frame.id %frame : index
  %0 = memref.load %out[%i] : memref<?xf32>
  coro.frame.store %0, %frame[0] : f32
  %1 = arith.addi %i, %c1 : index
  %2 = memref.load %out[%1] : memref<?xf32>
  coro.frame.store %2, %frame[1] : f32
  %3 = arith.addi %i, %c2 : index
  %4 = memref.load %out[%3] : memref<?xf32>
  coro.frame.store %4, %frame[2] : f32
  %5 = arith.addi %i, %c3 : index
  %6 = memref.load %out[%5] : memref<?xf32>
  coro.frame.store %6, %frame[3] : f32
  %7 = arith.addi %i, %c4 : index
  %8 = memref.load %out[%7] : memref<?xf32>
  coro.frame.store %8, %frame[4] : f32
  %9 = arith.addi %i, %c5 : index
  %10 = memref.load %out[%9] : memref<?xf32>
  coro.frame.store %10, %frame[5] : f32
  %11 = arith.addi %i, %c6 : index
  %12 = memref.load %out[%11] : memref<?xf32>
  coro.frame.store %12, %frame[6] : f32
  %13 = arith.addi %i, %c7 : index
  %14 = memref.load %out[%13] : memref<?xf32>
  coro.frame.store %14, %frame[7] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  %0 = coro.frame.load %frame[1] : f32
  %1 = coro.frame.load %frame[0] : f32
  %2 = arith.addf %1, %0 : f32
  %3 = coro.frame.load %frame[2] : f32
  %4 = arith.addf %2, %3 : f32
  %5 = coro.frame.load %frame[3] : f32
  %6 = arith.addf %4, %5 : f32
  %7 = coro.frame.load %frame[4] : f32
  %8 = arith.addf %6, %7 : f32
  %9 = coro.frame.load %frame[5] : f32
  %10 = arith.addf %8, %9 : f32
  %11 = coro.frame.load %frame[6] : f32
  %12 = arith.addf %10, %11 : f32
  %13 = coro.frame.load %frame[7] : f32
  %14 = arith.addf %12, %13 : f32
  %i = coro.frame.id %frame : index
  memref.store %14, %out[%i] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__s1]
    names ["entry", "s1"]
    fields [#coro.field<"v0" : f32 at 2>,
            #coro.field<"v1" : f32 at 3>,
            #coro.field<"v2" : f32 at 4>,
            #coro.field<"v3" : f32 at 5>,
            #coro.field<"v4" : f32 at 6>,
            #coro.field<"v5" : f32 at 7>,
            #coro.field<"v6" : f32 at 8>,
            #coro.field<"v7" : f32 at 9>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 40 : i64, field_liveness = 40 : i64, naive = 40 : i64, slot_sharing = 40 : i64, split = 40 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 8 : i64, values_recomputed = 0 : i64, values_stored = 8 : i64}}

// Bad options and sort-by fields get one clear error each.
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=sort-by=nothing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=sort-by=radiance" 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=sort-by=material hint-buckets=0" 2>&1 | FileCheck %s --check-prefix=BUCKETS
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=workgroup-size=0" 2>&1 | FileCheck %s --check-prefix=WORKGROUP
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=layout=diagonal" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=design=fast" 2>&1 | FileCheck %s --check-prefix=DESIGN
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=tail-below=101" 2>&1 | FileCheck %s --check-prefix=TAIL-PERCENT
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=tail-below=10 design=classify" 2>&1 | FileCheck %s --check-prefix=TAIL-DESIGN
// RUN: not coro-opt %s "--coro-wavefront-to-gpu=tail-below=10 sort-by=material design=classify" 2>&1 | FileCheck %s --check-prefix=TAIL-DESIGN

// MISSING: error: coro-wavefront-to-gpu: no coroutine has a promise field "nothing" to sort by (promise fields: radiance, material)
// BUCKETS: error: coro-wavefront-to-gpu: hint-buckets must be positive, got 0
// WORKGROUP: error: coro-wavefront-to-gpu: workgroup-size must be in [1, 2^31), got 0
// LAYOUT: for the --layout option: Cannot find option named 'diagonal'!
// DESIGN: for the --design option: Cannot find option named 'fast'!
// TAIL-PERCENT: error: coro-wavefront-to-gpu: tail-below is a percentage of the slots, got 101
// TAIL-DESIGN: error: coro-wavefront-to-gpu: tail-below needs the queue design; the classify design (design=classify, and in coro-run chosen by --compact-below, --order=most-first and --refill=half) has no tail kernel
coro.func @f(%out: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  coro.promise "radiance", %one : f32
  %m = arith.constant 2 : i32
  coro.promise "material", %m : i32
  coro.suspend
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %c2_i32 = arith.constant 2 : i32
  coro.frame.store %c2_i32, %frame[1] : i32
  %cst = arith.constant 1.000000e+00 : f32
  coro.frame.store %cst, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, -1
  return
}
// FLOAT: :[[# @LINE + 1]]:1: error: 'coro.split' op sort-by field "radiance" must be an integer or index, not 'f32'
coro.split @f subroutines [@f__entry, @f__s1]
    names ["entry", "s1"]
    fields [#coro.field<"radiance" : f32 at 2, promise>,
            #coro.field<"material" : i32 at 3, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 16 : i64, field_liveness = 16 : i64, naive = 16 : i64, slot_sharing = 16 : i64, split = 16 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}

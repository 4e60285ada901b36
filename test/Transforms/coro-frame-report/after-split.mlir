// RUN: coro-opt %s --coro-frame-report -o /dev/null | FileCheck %s --check-prefix=SPLIT

// Right after coro-split, before coro-materialize-frame (frame-report.mlir
// has the materialized frame): one field per value, each in its own words.
// SPLIT:      @report: frame of 24 bytes
// SPLIT-NEXT:   naive               24 bytes
// SPLIT-NEXT:   split               24 bytes
// SPLIT-NEXT:   final               24 bytes
coro.func @report(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %a = memref.load %out[%c0] : memref<?xf32>
  %n = memref.load %out[%c2] : memref<?xf32>
  %neg = arith.cmpf olt, %n, %zero : f32
  coro.suspend "first"
  %s = arith.select %neg, %zero, %a : f32
  memref.store %s, %out[%c0] : memref<?xf32>
  %b = memref.load %out[%c1] : memref<?xf32>
  coro.promise "result", %a : f32
  coro.suspend "second"
  memref.store %b, %out[%c1] : memref<?xf32>
  coro.return
}
// @report split (coro-split): its subroutines and coro.split.
func.func @report__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %0 = memref.load %out[%c0] : memref<?xf32>
  %1 = memref.load %out[%c2] : memref<?xf32>
  %2 = arith.cmpf olt, %1, %cst : f32
  coro.frame.store %2, %frame[0] : i1
  coro.frame.store %0, %frame[1] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @report__first(%frame: !coro.frame, %out: memref<?xf32>) {
  %0 = coro.frame.load %frame[1] : f32
  %1 = coro.frame.load %frame[0] : i1
  %cst = arith.constant 0.000000e+00 : f32
  %2 = arith.select %1, %cst, %0 : f32
  %c0 = arith.constant 0 : index
  memref.store %2, %out[%c0] : memref<?xf32>
  %c1 = arith.constant 1 : index
  %3 = memref.load %out[%c1] : memref<?xf32>
  coro.frame.store %0, %frame[3] : f32
  coro.frame.store %3, %frame[2] : f32
  coro.frame.set_target %frame, 2
  return
}
func.func @report__second(%frame: !coro.frame, %out: memref<?xf32>) {
  %0 = coro.frame.load %frame[2] : f32
  %c1 = arith.constant 1 : index
  memref.store %0, %out[%c1] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
// The fields' locations are the lines of @report above that define the
// values, as coro-split records them.
coro.split @report subroutines [@report__entry, @report__first, @report__second]
    names ["entry", "first", "second"]
    fields [#coro.field<"v0" : i1 at 2 loc("after-split.mlir":16:10)>,
            #coro.field<"v1" : f32 at 3 loc("after-split.mlir":14:8)>,
            #coro.field<"v2" : f32 at 4 loc("after-split.mlir":20:8)>,
            #coro.field<"result" : f32 at 5, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]
    {frame_bytes = {naive = 24 : i64, split = 24 : i64}, statistics = {ops_recomputed = 4 : i64, values_live = 3 : i64, values_recomputed = 0 : i64, values_stored = 3 : i64}}

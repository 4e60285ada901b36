// RUN: coro-opt %s --coro-frame-report -o /dev/null | FileCheck %s --check-prefix=TEXT
// RUN: coro-opt %s --coro-frame-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: not coro-opt %s --coro-frame-report=format=yaml -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not coro-opt %s --coro-frame-report=output=%t/missing/dir/report.txt -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUTPUT

// Sizes after each step, then each field in word order: the special
// fields, the promise in word 2, the two f32 values that share word 3, and
// the bits of the i1 in word 4. The values the source did not name are
// v<N>, with the line that defines them.
// TEXT:      @report: frame of 20 bytes
// TEXT-NEXT:   naive               24 bytes
// TEXT-NEXT:   split               24 bytes
// TEXT-NEXT:   field_liveness      24 bytes
// TEXT-NEXT:   slot_sharing        20 bytes
// TEXT-NEXT:   bit_packing         20 bytes
// TEXT-NEXT:   final               20 bytes
// TEXT-NEXT:   lower bound         20 bytes (what is live when a subroutine starts, packed)
// TEXT-NEXT:   word  bit  offset bits  type    field
// TEXT-NEXT:   0     0    0      32    i32     target_token (special)
// TEXT-NEXT:   1     0    4      32    i32     coro_id (special)
// TEXT-NEXT:   2     0    8      32    f32     result (promise)  store: first->second
// TEXT-NEXT:   3     0    12     32    f32     v1 ({{.*}}frame-report.mlir:64:8)  load: first  store: entry->first
// TEXT-NEXT:   3     0    12     32    f32     v2 ({{.*}}frame-report.mlir:70:8)  load: second  store: first->second
// TEXT-NEXT:   4     0    16     1     i1      v0 ({{.*}}frame-report.mlir:66:10)  load: first  store: entry->first

// JSON:      "coroutine": "report",
// JSON:      "fields": [
// JSON:        "bit": 0,
// JSON-NEXT:   "bits": 32,
// JSON-NEXT:   "kind": "special",
// JSON-NEXT:   "loaded_in": [],
// JSON-NEXT:   "name": "target_token",
// JSON:        "kind": "state",
// JSON-NEXT:   "loaded_in": [
// JSON-NEXT:     "first"
// JSON-NEXT:   ],
// JSON-NEXT:   "location": "{{.*}}frame-report.mlir:64:8",
// JSON-NEXT:   "name": "v1",
// JSON-NEXT:   "offset_bytes": 12,
// JSON-NEXT:   "stored_on": [
// JSON-NEXT:     "entry->first"
// JSON-NEXT:   ],
// JSON-NEXT:   "type": "f32",
// JSON-NEXT:   "word": 3
// JSON:        "name": "v0",
// JSON-NEXT:   "offset_bytes": 16,
// JSON:      "frame_bytes": 20,
// JSON-NEXT: "lower_bound_bytes": 20,
// JSON:      "stages": [
// JSON-NEXT:   {
// JSON-NEXT:     "bytes": 24,
// JSON-NEXT:     "stage": "naive"
// JSON:          "stage": "bit_packing"
// JSON:          "bytes": 20,
// JSON-NEXT:     "stage": "final"

// FORMAT: for the --format option: Cannot find option named 'yaml'!
// OUTPUT: error: coro-frame-report: cannot open output file
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
// @report split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @report__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %0 = memref.load %out[%c2] : memref<?xf32>
  %1 = arith.cmpf olt, %0, %cst : f32
  coro.frame.store %1, %frame[0] : i1
  %2 = memref.load %out[%c0] : memref<?xf32>
  coro.frame.store %2, %frame[1] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @report__first(%frame: !coro.frame, %out: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = coro.frame.load %frame[1] : f32
  coro.frame.store %0, %frame[3] : f32
  %1 = coro.frame.load %frame[0] : i1
  %2 = arith.select %1, %cst, %0 : f32
  memref.store %2, %out[%c0] : memref<?xf32>
  %3 = memref.load %out[%c1] : memref<?xf32>
  coro.frame.store %3, %frame[2] : f32
  coro.frame.set_target %frame, 2
  return
}
func.func @report__second(%frame: !coro.frame, %out: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %0 = coro.frame.load %frame[2] : f32
  memref.store %0, %out[%c1] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
// The fields' locations are the lines of @report above that define the
// values, as coro-split records them.
coro.split @report subroutines [@report__entry, @report__first, @report__second]
    names ["entry", "first", "second"]
    fields [#coro.field<"v0" : i1 at 4 loc("frame-report.mlir":66:10)>,
            #coro.field<"v1" : f32 at 3 loc("frame-report.mlir":64:8)>,
            #coro.field<"v2" : f32 at 3 loc("frame-report.mlir":70:8)>,
            #coro.field<"result" : f32 at 2, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]
    {frame_bytes = {bit_packing = 20 : i64, field_liveness = 24 : i64, naive = 24 : i64, slot_sharing = 20 : i64, split = 24 : i64}, statistics = {ops_recomputed = 4 : i64, values_live = 3 : i64, values_recomputed = 0 : i64, values_stored = 3 : i64}}

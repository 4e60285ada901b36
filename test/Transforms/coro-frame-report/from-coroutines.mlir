// RUN: coro-opt %s --coro-split --coro-materialize-frame --coro-frame-report -o /dev/null | FileCheck %s

// The whole chain from a user coroutine: coro-split and
// coro-materialize-frame, then the report. The other tests here start from
// the split form (frame-report.mlir from this coroutine's); the locations
// of the unnamed values are the lines here that define them.
// CHECK:      @report: frame of 20 bytes
// CHECK-NEXT:   naive               24 bytes
// CHECK-NEXT:   split               24 bytes
// CHECK-NEXT:   field_liveness      24 bytes
// CHECK-NEXT:   slot_sharing        20 bytes
// CHECK-NEXT:   bit_packing         20 bytes
// CHECK-NEXT:   final               20 bytes
// CHECK-NEXT:   lower bound         20 bytes (what is live when a subroutine starts, packed)
// CHECK-NEXT:   word  bit  offset bits  type    field
// CHECK-NEXT:   0     0    0      32    i32     target_token (special)
// CHECK-NEXT:   1     0    4      32    i32     coro_id (special)
// CHECK-NEXT:   2     0    8      32    f32     result (promise)  store: first->second
// CHECK-NEXT:   3     0    12     32    f32     v1 ({{.*}}from-coroutines.mlir:27:8)  load: first  store: entry->first
// CHECK-NEXT:   3     0    12     32    f32     v2 ({{.*}}from-coroutines.mlir:33:8)  load: second  store: first->second
// CHECK-NEXT:   4     0    16     1     i1      v0 ({{.*}}from-coroutines.mlir:29:10)  load: first  store: entry->first
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

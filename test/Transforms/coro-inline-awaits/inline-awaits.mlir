// RUN: coro-opt %s --split-input-file --coro-inline-awaits | FileCheck %s

// The callee's suspension points become the caller's, renamed after the
// callee; a second await of the same callee and a clash with a caller tag get
// numbered; promise fields are qualified with the callee's name. Callers are
// inlined after their callees, so the names do not depend on module order
// (@render comes first here).
// CHECK-LABEL: coro.func @render(%arg0: i1, %arg1: f32) {
// CHECK-NEXT:    coro.suspend "trace_hit"
// CHECK-NEXT:    coro.suspend "trace_hit_1"
// CHECK-NEXT:    coro.promise "trace.t", %arg1 : f32
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      scf.execute_region {
// CHECK-NEXT:        coro.suspend "shade_trace_hit"
// CHECK-NEXT:        coro.promise "shade.trace.t", %arg1 : f32
// CHECK-NEXT:        cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:      ^bb1:
// CHECK-NEXT:        coro.suspend "shade_emit"
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      ^bb2:
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    coro.return
// CHECK-NOT:     coro.await
// CHECK-LABEL: coro.func @trace(
// CHECK-NEXT:    coro.suspend "hit"
// CHECK-LABEL: coro.func @shade(
// CHECK-NEXT:    coro.suspend "trace_hit"
// CHECK-NEXT:    coro.promise "trace.t"
coro.func @render(%c: i1, %x: f32) {
  coro.suspend "trace_hit"
  coro.await @trace(%x) : (f32) -> ()
  scf.if %c {
    coro.await @shade(%c, %x) : (i1, f32) -> ()
  }
  coro.return
}
coro.func @trace(%x: f32) {
  coro.suspend "hit"
  coro.promise "t", %x : f32
  coro.return
}
coro.func @shade(%c: i1, %x: f32) {
  coro.await @trace(%x) : (f32) -> ()
  cf.cond_br %c, ^a, ^b
^a:
  coro.suspend "emit"
  coro.return
^b:
  coro.return
}

// -----

// Arguments are bound to the await's operands; anonymous suspensions stay
// anonymous.
// CHECK-LABEL: coro.func @caller(%arg0: index, %arg1: memref<?xf32>) {
// CHECK-NEXT:    %[[V:.*]] = memref.load %arg1[%arg0] : memref<?xf32>
// CHECK-NEXT:    coro.suspend{{$}}
// CHECK-NEXT:    memref.store %[[V]], %arg1[%arg0] : memref<?xf32>
// CHECK-NEXT:    coro.return
coro.func @copy(%i: index, %buf: memref<?xf32>) {
  %v = memref.load %buf[%i] : memref<?xf32>
  coro.suspend
  memref.store %v, %buf[%i] : memref<?xf32>
  coro.return
}
coro.func @caller(%i: index, %buf: memref<?xf32>) {
  coro.await @copy(%i, %buf) : (index, memref<?xf32>) -> ()
  coro.return
}

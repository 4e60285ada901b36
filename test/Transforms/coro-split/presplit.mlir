// A coroutine that comes with its split, written by hand (or by another
// tool), keeps it: coro-split leaves it alone and splits the others. The
// coro.func's body stays the mega-kernel reference, so --check compares the
// hand-written subroutines with it under every scheduler.
// RUN: coro-opt %s --coro-split | FileCheck %s
// RUN: coro-opt %s --coro-inline-callables | FileCheck %s --check-prefix=INLINED
// INLINED-LABEL: func.func @doubled_by_hand__store(
// INLINED-NOT:     func.call
// INLINED:         memref.store
// INLINED:         coro.frame.set_target
// REQUIRES: vulkan
// RUN: for scheduler in state-machine wavefront; do \
// RUN:   coro-run %s --coro=doubled --grid=37 --buffer=f32:37:zeros --scheduler=$scheduler --check --validate --quiet || exit 1; \
// RUN: done | FileCheck %s --check-prefix=EXEC
// EXEC-COUNT-2: check: {{.*}} matches the mega-kernel reference

// CHECK-LABEL: func.func @doubled_by_hand__entry(
// CHECK-LABEL: func.func @doubled_by_hand__store(
// CHECK:         call @store_at
// CHECK:       coro.split @doubled subroutines [@doubled_by_hand__entry, @doubled_by_hand__store] names ["entry", "store"]
// CHECK-NOT:   func.func @doubled__
// The other coroutine is split as usual.
// CHECK:       func.func @other__entry(
// CHECK:       coro.split @other
coro.func @doubled(%out: memref<?xf32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  %f = arith.sitofp %i : i32 to f32
  %two = arith.constant 2.0 : f32
  %v = arith.mulf %f, %two : f32
  coro.suspend "store"
  memref.store %v, %out[%id] : memref<?xf32>
  coro.return
}
func.func @doubled_by_hand__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %id = coro.frame.id %frame : index
  %i = arith.index_cast %id : index to i32
  %f = arith.sitofp %i : i32 to f32
  %two = arith.constant 2.0 : f32
  %v = arith.mulf %f, %two : f32
  coro.frame.store %v, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
// A hand-written subroutine may call helpers; coro-inline-callables inlines
// them as it does into coroutines.
func.func @store_at(%v: f32, %out: memref<?xf32>, %id: index) {
  memref.store %v, %out[%id] : memref<?xf32>
  return
}
func.func @doubled_by_hand__store(%frame: !coro.frame, %out: memref<?xf32>) {
  %v = coro.frame.load %frame[0] : f32
  %id = coro.frame.id %frame : index
  func.call @store_at(%v, %out, %id) : (f32, memref<?xf32>, index) -> ()
  coro.frame.set_target %frame, -1
  return
}
coro.split @doubled subroutines [@doubled_by_hand__entry, @doubled_by_hand__store]
    names ["entry", "store"]
    fields [#coro.field<"v" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]

coro.func @other(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}

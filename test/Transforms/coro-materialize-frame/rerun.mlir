// RUN: coro-opt %s --coro-materialize-frame --coro-materialize-frame | FileCheck %s

// The first run moves the store of `acc` up to just after the load of its
// old value, ahead of the load's use; a second run must not sink the load
// past it (coro-resolve-handles materializes the coroutines handles drive,
// and the pipeline every coroutine: a review found the square of the new
// value, and the entry's store of `acc` gone). A materialized split is now
// left alone by a second run; the output must stay that of the first.
// CHECK-LABEL: func.func @kept__first(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame, %[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK:         %[[NEW:.*]] = memref.load %[[OUT]]
// CHECK-NEXT:    %[[OLD:.*]] = coro.frame.load %[[FRAME]][0] : f32
// CHECK-NEXT:    coro.frame.store %[[NEW]], %[[FRAME]][0] : f32
// CHECK-NEXT:    %[[SQUARE:.*]] = arith.mulf %[[OLD]], %[[OLD]] : f32
// CHECK-LABEL: func.func @kept__entry(
// CHECK:         coro.frame.store %{{.*}}, %{{.*}}[0] : f32
coro.func @kept(%in: memref<?xf32>, %out: memref<?xf32>) {
  coro.suspend "first"
  coro.suspend "second"
  coro.return
}
func.func @kept__first(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %new = memref.load %out[%c0] : memref<?xf32>
  %old = coro.frame.load %frame[0] : f32
  %square = arith.mulf %old, %old : f32
  memref.store %square, %out[%c0] : memref<?xf32>
  coro.frame.store %new, %frame[0] : f32
  coro.frame.store %square, %frame[1] : f32
  coro.frame.set_target %frame, 2
  return
}
func.func @kept__entry(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %init = memref.load %in[%c0] : memref<?xf32>
  coro.frame.store %init, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @kept__second(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %x = coro.frame.load %frame[0] : f32
  %square = coro.frame.load %frame[1] : f32
  %sum = arith.addf %x, %square : f32
  memref.store %sum, %out[%c0] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @kept subroutines [@kept__entry, @kept__first, @kept__second]
    names ["entry", "first", "second"]
    fields [#coro.field<"acc" : f32 at 2>, #coro.field<"square" : f32 at 3>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]

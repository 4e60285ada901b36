// RUN: coro-opt %s --coro-materialize-frame | FileCheck %s
// RUN: coro-opt %s --coro-materialize-frame --coro-materialize-frame | FileCheck %s --check-prefixes=CHECK,TWICE

// `first` is live until `move` starts, `second` from then on: the layout
// gives them the same word, where `move`'s copy of one into the other would
// store the value the word holds already. The copy goes, and its load too.
// A split materialized once is left alone by a second run (the pipeline
// runs the pass again on the coroutines handles drive): `first` is no longer
// loaded anywhere, and a second run would take the entry's store of it for
// dead, though `use` reads the word it shares with `second`.
// TWICE-LABEL: func.func @copy__entry(
// TWICE:         coro.frame.store %{{.*}}, %{{.*}}[0] : f32
// CHECK-LABEL: func.func @copy__move(
// CHECK-NOT:     coro.frame.load
// CHECK-NOT:     coro.frame.store
// CHECK:         coro.frame.set_target %{{.*}}, 2
// CHECK-LABEL: func.func @copy__use(
// CHECK:         %[[V:.*]] = coro.frame.load %{{.*}}[1] : f32
// CHECK:         memref.store %[[V]]
// CHECK:         coro.split @copy
// CHECK-SAME:      #coro.field<"first" : f32 at 2>, #coro.field<"second" : f32 at 2>
coro.func @copy(%out: memref<?xf32>) {
  coro.suspend "move"
  coro.suspend "use"
  coro.return
}
func.func @copy__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %x = arith.constant 1.5 : f32
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @copy__move(%frame: !coro.frame, %out: memref<?xf32>) {
  %v = coro.frame.load %frame[0] : f32
  coro.frame.store %v, %frame[1] : f32
  coro.frame.set_target %frame, 2
  return
}
func.func @copy__use(%frame: !coro.frame, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %v = coro.frame.load %frame[1] : f32
  memref.store %v, %out[%c0] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @copy subroutines [@copy__entry, @copy__move, @copy__use] names ["entry", "move", "use"]
    fields [#coro.field<"first" : f32 at 2>, #coro.field<"second" : f32 at 3>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]

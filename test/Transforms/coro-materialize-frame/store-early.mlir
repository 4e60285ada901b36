// RUN: coro-opt %s --split-input-file --coro-materialize-frame | FileCheck %s

// A frame store rises to just after the op that makes its value, past
// computation and accesses of other memory (no other op reaches a frame),
// so the value needs no register through the code between. Stores that
// rise to one place keep their order.
// CHECK-LABEL: func.func @early__entry(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame, %[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK:         %[[X:.*]] = memref.load %[[IN]]
// CHECK-NEXT:    coro.frame.store %[[X]], %[[FRAME]][0] : f32
// CHECK-NEXT:    %[[Y:.*]] = memref.load %[[IN]]
// CHECK-NEXT:    coro.frame.store %[[Y]], %[[FRAME]][1] : f32
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    coro.frame.store %[[SUM]], %[[FRAME]][2] : f32
// CHECK-NEXT:    coro.frame.store %[[SUM]], %[[FRAME]][3] : f32
// CHECK-NEXT:    %[[PRODUCT:.*]] = arith.mulf %[[SUM]], %[[SUM]] : f32
// CHECK-NEXT:    memref.store %[[PRODUCT]], %[[OUT]]
// CHECK-NEXT:    coro.frame.set_target %[[FRAME]], 1
coro.func @early(%in: memref<?xf32>, %out: memref<?xf32>) {
  coro.suspend "use"
  coro.return
}
func.func @early__entry(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %in[%c0] : memref<?xf32>
  %y = memref.load %in[%c1] : memref<?xf32>
  %sum = arith.addf %x, %y : f32
  %product = arith.mulf %sum, %sum : f32
  memref.store %product, %out[%c0] : memref<?xf32>
  coro.frame.store %x, %frame[0] : f32
  coro.frame.store %y, %frame[1] : f32
  coro.frame.store %sum, %frame[2] : f32
  coro.frame.store %sum, %frame[3] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @early__use(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %x = coro.frame.load %frame[0] : f32
  %y = coro.frame.load %frame[1] : f32
  %sum = coro.frame.load %frame[2] : f32
  %again = coro.frame.load %frame[3] : f32
  memref.store %x, %out[%c0] : memref<?xf32>
  memref.store %y, %out[%c1] : memref<?xf32>
  memref.store %sum, %out[%c2] : memref<?xf32>
  memref.store %again, %out[%c3] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @early subroutines [@early__entry, @early__use] names ["entry", "use"]
    fields [#coro.field<"x" : f32 at 2>, #coro.field<"y" : f32 at 3>,
            #coro.field<"sum" : f32 at 4>, #coro.field<"again" : f32 at 5>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]

// -----

// A store stays after an op that reads its field, here a load in a branch
// (where sinking put it): the branch must read the old value.
// CHECK-LABEL: func.func @after_load__again(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame, %[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %[[C:.*]]: i1)
// CHECK:         %[[NEW:.*]] = memref.load %[[IN]]
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      %[[OLD:.*]] = coro.frame.load %[[FRAME]][0] : f32
// CHECK-NEXT:      memref.store %[[OLD]], %[[OUT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    coro.frame.store %[[NEW]], %[[FRAME]][0] : f32
coro.func @after_load(%in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  coro.suspend "again"
  coro.return
}
func.func @after_load__entry(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %x = arith.constant 1.0 : f32
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @after_load__again(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %new = memref.load %in[%c0] : memref<?xf32>
  %old = coro.frame.load %frame[0] : f32
  scf.if %c {
    memref.store %old, %out[%c0] : memref<?xf32>
  }
  coro.frame.store %new, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
coro.split @after_load subroutines [@after_load__entry, @after_load__again] names ["entry", "again"]
    fields [#coro.field<"x" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, 1>]

// -----

// The same store in both branches of a test becomes one store before it,
// and so does a lane extracted in both from a vector made before the test.
// A store that a branch must make after something else (here a load of its
// field) stays in the branches.
// CHECK-LABEL: func.func @branches__split(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame, %[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>, %[[C:.*]]: i1)
// CHECK:         %[[V:.*]] = vector.load %[[IN]]
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[IN]]
// CHECK-NEXT:    coro.frame.store %[[X]], %[[FRAME]][0] : f32
// CHECK-NEXT:    %[[LANE:.*]] = vector.extract %[[V]][1] : f32 from vector<2xf32>
// CHECK-NEXT:    coro.frame.store %[[LANE]], %[[FRAME]][1] : f32
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      coro.frame.store %[[X]], %[[FRAME]][2] : f32
// CHECK-NEXT:      coro.frame.set_target %[[FRAME]], 2
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[OLD:.*]] = coro.frame.load %[[FRAME]][2] : f32
// CHECK-NEXT:      coro.frame.store %[[X]], %[[FRAME]][2] : f32
// CHECK-NEXT:      memref.store %[[OLD]], %[[OUT]]
// CHECK-NEXT:      coro.frame.set_target %[[FRAME]], 3
// CHECK-NEXT:    }
coro.func @branches(%in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  coro.suspend "split"
  coro.suspend "left"
  coro.suspend "right"
  coro.return
}
func.func @branches__entry(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %x = arith.constant 1.0 : f32
  coro.frame.store %x, %frame[2] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @branches__split(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %x = memref.load %in[%c0] : memref<?xf32>
  %v = vector.load %in[%c0] : memref<?xf32>, vector<2xf32>
  scf.if %c {
    coro.frame.store %x, %frame[0] : f32
    %lane = vector.extract %v[1] : f32 from vector<2xf32>
    coro.frame.store %lane, %frame[1] : f32
    coro.frame.store %x, %frame[2] : f32
    coro.frame.set_target %frame, 2
  } else {
    %old = coro.frame.load %frame[2] : f32
    memref.store %old, %out[%c0] : memref<?xf32>
    coro.frame.store %x, %frame[0] : f32
    %lane = vector.extract %v[1] : f32 from vector<2xf32>
    coro.frame.store %lane, %frame[1] : f32
    coro.frame.store %x, %frame[2] : f32
    coro.frame.set_target %frame, 3
  }
  return
}
func.func @branches__left(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = coro.frame.load %frame[0] : f32
  %lane = coro.frame.load %frame[1] : f32
  %kept = coro.frame.load %frame[2] : f32
  memref.store %x, %out[%c0] : memref<?xf32>
  memref.store %lane, %out[%c1] : memref<?xf32>
  memref.store %kept, %out[%c2] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
func.func @branches__right(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = coro.frame.load %frame[0] : f32
  %lane = coro.frame.load %frame[1] : f32
  %kept = coro.frame.load %frame[2] : f32
  memref.store %lane, %out[%c0] : memref<?xf32>
  memref.store %x, %out[%c1] : memref<?xf32>
  memref.store %kept, %out[%c2] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @branches subroutines [@branches__entry, @branches__split, @branches__left, @branches__right]
    names ["entry", "split", "left", "right"]
    fields [#coro.field<"x" : f32 at 2>, #coro.field<"lane" : f32 at 3>,
            #coro.field<"kept" : f32 at 4>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 1, 3>,
                 array<i32: 2, -1>, array<i32: 3, -1>]

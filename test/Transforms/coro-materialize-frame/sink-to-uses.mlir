// RUN: coro-opt %s --coro-materialize-frame | FileCheck %s

// A frame load, and what is computed from it alone, moves down to the
// deepest branch that holds all its uses, just before the first: a value
// used by one branch of a test needs no register through the other. It
// does not move into a loop body (it would run once per iteration), nor
// does a load of a field the subroutine stores before it ends (a promise);
// that store rises to just after the load (store-early.mlir).
// CHECK-LABEL: func.func @sink__resume(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame, %[[OUT:.*]]: memref<?xf32>, %[[C:.*]]: i1, %[[D:.*]]: i1, %[[N:.*]]: index)
// CHECK:         %[[PROMISE:.*]] = coro.frame.load %[[FRAME]][3] : f32
// CHECK-NEXT:    coro.frame.store %{{.*}}, %[[FRAME]][3] : f32
// CHECK-NEXT:    %[[BOTH:.*]] = coro.frame.load %[[FRAME]][1] : f32
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      scf.if %[[D]] {
// CHECK-NEXT:        %[[ONE:.*]] = coro.frame.load %[[FRAME]][0] : f32
// CHECK-NEXT:        %[[SQUARE:.*]] = arith.mulf %[[ONE]], %[[ONE]] : f32
// CHECK-NEXT:        memref.store %[[SQUARE]], %[[OUT]]
// CHECK:           memref.store %[[BOTH]], %[[OUT]]
// CHECK:         } else {
// CHECK:           memref.store %[[BOTH]], %[[OUT]]
// CHECK:         %[[LOOPED:.*]] = coro.frame.load %[[FRAME]][2] : f32
// CHECK-NEXT:    scf.for
// CHECK-NOT:       coro.frame.load
// CHECK:           memref.store %[[LOOPED]], %[[OUT]]
// CHECK:         memref.store %[[PROMISE]], %[[OUT]]
coro.func @sink(%out: memref<?xf32>, %c: i1, %d: i1, %n: index) {
  coro.suspend "resume"
  coro.return
}
func.func @sink__entry(%frame: !coro.frame, %out: memref<?xf32>, %c: i1, %d: i1, %n: index) {
  %x = arith.constant 1.0 : f32
  coro.frame.store %x, %frame[0] : f32
  coro.frame.store %x, %frame[1] : f32
  coro.frame.store %x, %frame[2] : f32
  coro.frame.store %x, %frame[3] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @sink__resume(%frame: !coro.frame, %out: memref<?xf32>, %c: i1, %d: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %one = coro.frame.load %frame[0] : f32
  %both = coro.frame.load %frame[1] : f32
  %looped = coro.frame.load %frame[2] : f32
  %promise = coro.frame.load %frame[3] : f32
  %square = arith.mulf %one, %one : f32
  scf.if %c {
    scf.if %d {
      memref.store %square, %out[%c0] : memref<?xf32>
    }
    memref.store %both, %out[%c1] : memref<?xf32>
  } else {
    memref.store %both, %out[%c0] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %looped, %out[%i] : memref<?xf32>
  }
  coro.frame.store %two, %frame[3] : f32
  memref.store %promise, %out[%c1] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @sink subroutines [@sink__entry, @sink__resume] names ["entry", "resume"]
    fields [#coro.field<"one" : f32 at 2>, #coro.field<"both" : f32 at 3>,
            #coro.field<"looped" : f32 at 4>, #coro.field<"kept" : f32 at 5, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]

// A store of the value loaded from the same field is a write-back, which
// goes, wherever the load is (here in a branch, as sinking leaves loads):
// every other store of the field ends the subroutine, so the load still
// reads the value the field had on entry.
// CHECK-LABEL: func.func @write_back__again(
// CHECK:         scf.if
// CHECK-NEXT:      %[[V:.*]] = coro.frame.load %{{.*}}[0] : f32
// CHECK-NEXT:      memref.store %[[V]]
// CHECK-NOT:       coro.frame.store
// CHECK:           coro.frame.set_target %{{.*}}, 1
coro.func @write_back(%out: memref<?xf32>, %c: i1) {
  coro.suspend "again"
  coro.return
}
func.func @write_back__entry(%frame: !coro.frame, %out: memref<?xf32>, %c: i1) {
  %x = arith.constant 1.0 : f32
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @write_back__again(%frame: !coro.frame, %out: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  scf.if %c {
    %v = coro.frame.load %frame[0] : f32
    memref.store %v, %out[%c0] : memref<?xf32>
    coro.frame.store %v, %frame[0] : f32
    coro.frame.set_target %frame, 1
  } else {
    coro.frame.set_target %frame, -1
  }
  return
}
coro.split @write_back subroutines [@write_back__entry, @write_back__again] names ["entry", "again"]
    fields [#coro.field<"v" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, 1>, array<i32: 1, -1>]

// A buffer load moves too, past frame stores (the frame is no memref) but
// not past an op that may write a memref: `early` stays above the store to
// %out, `late` moves into the branch that uses it.
// CHECK-LABEL: func.func @buffers__resume(
// CHECK-SAME:      %[[FRAME:[^:]*]]: !coro.frame, %[[IN:[^:]*]]: memref<?xf32>, %[[OUT:[^:]*]]: memref<?xf32>, %[[C:[^:]*]]: i1)
// CHECK:         %[[EARLY:.*]] = memref.load %[[IN]][%c1]
// CHECK-NEXT:    memref.store %{{.*}}, %[[OUT]][%c0]
// CHECK:         coro.frame.store %{{.*}}, %[[FRAME]][0] : f32
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      %[[LATE:.*]] = memref.load %[[IN]][%c0]
// CHECK-NEXT:      memref.store %[[LATE]], %[[OUT]][%c1]
// CHECK-NEXT:      memref.store %[[EARLY]], %[[OUT]][%c2]
coro.func @buffers(%in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  coro.suspend "resume"
  coro.return
}
func.func @buffers__entry(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %zero = arith.constant 0.0 : f32
  coro.frame.store %zero, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @buffers__resume(%frame: !coro.frame, %in: memref<?xf32>, %out: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %early = memref.load %in[%c1] : memref<?xf32>
  memref.store %one, %out[%c0] : memref<?xf32>
  %late = memref.load %in[%c0] : memref<?xf32>
  %count = coro.frame.load %frame[0] : f32
  %next = arith.addf %count, %one : f32
  coro.frame.store %next, %frame[0] : f32
  scf.if %c {
    memref.store %late, %out[%c1] : memref<?xf32>
    memref.store %early, %out[%c2] : memref<?xf32>
  }
  coro.frame.set_target %frame, 1
  return
}
coro.split @buffers subroutines [@buffers__entry, @buffers__resume] names ["entry", "resume"]
    fields [#coro.field<"kept" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, 1>]

// RUN: coro-opt %s --split-input-file --coro-split --coro-materialize-frame | FileCheck %s

// A value live across two suspension points: the subroutine between them
// would load it and store it back unchanged; without that write-back the
// field simply stays in the frame (I_first and O_first->second are empty).
// CHECK-LABEL: func.func @two_suspensions__entry(
// CHECK:         coro.frame.store %{{.*}}, %arg0[0] : f32
// CHECK-LABEL: func.func @two_suspensions__first(
// CHECK-NOT:     coro.frame.{{load|store}}
// CHECK:         coro.frame.set_target %arg0, 2
// CHECK-LABEL: func.func @two_suspensions__second(
// CHECK:         coro.frame.load %arg0[0] : f32
// CHECK:       coro.split @two_suspensions {{.*}} fields [#coro.field<"v0" : f32 at 2 #loc{{[0-9]*}}>]
coro.func @two_suspensions(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.load %out[%c0] : memref<?xf32>
  coro.suspend "first"
  coro.suspend "second"
  memref.store %a, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A value stored on one path only: the entry stores it for both of its
// edges (once, before the branch between them: the split leaves the edge to
// "join" in the else branch, and the same store in both branches is
// hoisted), "then" does not touch it (K_then->join is empty), and it is live
// when "join" starts on both paths.
// CHECK-LABEL: func.func @one_path__entry(
// CHECK:         coro.frame.store %{{.*}}, %arg0[0] : f32
// CHECK-NEXT:    scf.if %arg1 {
// CHECK-NEXT:      coro.frame.set_target %arg0, 1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      coro.frame.set_target %arg0, 2
// CHECK-NEXT:    }
// CHECK-LABEL: func.func @one_path__then(
// CHECK-NOT:     coro.frame.{{load|store}}
// CHECK-LABEL: func.func @one_path__join(
// CHECK:         coro.frame.load %arg0[0] : f32
coro.func @one_path(%c: i1, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.load %out[%c0] : memref<?xf32>
  scf.if %c {
    coro.suspend "then"
  }
  coro.suspend "join"
  memref.store %a, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A partially live vector: only the lane read after the suspension point
// enters the frame.
// CHECK-LABEL: func.func @partial_vector__entry(
// CHECK:         %[[V:.*]] = vector.load
// CHECK:         %[[LANE:.*]] = vector.extract %[[V]][2]
// CHECK:         coro.frame.store %[[LANE]], %arg0[0] : f32
// CHECK-NOT:     coro.frame.store
// CHECK:       coro.split @partial_vector {{.*}} fields [#coro.field<"v0[2]" : f32 at 2 #loc{{[0-9]*}}>] {{.*}} {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 24 : i64, slot_sharing = 12 : i64, split = 24 : i64}, statistics = {{.*}}}
coro.func @partial_vector(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %out[%c0] : memref<?xf32>, vector<4xf32>
  coro.suspend "s"
  %x = vector.extract %v[2] : f32 from vector<4xf32>
  memref.store %x, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A partially live local array: element 3 is overwritten before it is
// read, elements 0 and 2 are never read; only element 1 crosses.
// CHECK-LABEL: func.func @partial_array__s(
// CHECK:         %[[E1:.*]] = coro.frame.load %arg0[0] : f32
// CHECK:         arith.addf %[[E1]], %arg1
// CHECK:       coro.split @partial_array {{.*}} fields [#coro.field<"v0[1]" : f32 at 2 #loc{{[0-9]*}}>]
coro.func @partial_array(%x: f32, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloca() : memref<4xf32>
  %l = memref.load %out[%c0] : memref<?xf32>
  memref.store %l, %a[%c1] : memref<4xf32>
  memref.store %l, %a[%c3] : memref<4xf32>
  coro.suspend "s"
  memref.store %x, %a[%c3] : memref<4xf32>
  %e1 = memref.load %a[%c1] : memref<4xf32>
  %e3 = memref.load %a[%c3] : memref<4xf32>
  %sum = arith.addf %e1, %e3 : f32
  memref.store %sum, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// i1 fields are packed as bits of one word after the wider fields; with
// pack-bits=false each takes a byte. (%p is recomputed from %a, which is in
// the frame anyway.)
// RUN: coro-opt %s --split-input-file --coro-split --coro-materialize-frame=pack-bits=false | FileCheck %s --check-prefix=BYTES
// CHECK-LABEL: func.func @bits__entry(
// CHECK:       coro.split @bits {{.*}} fields [#coro.field<"v0" : f32 at 2 #loc{{[0-9]*}}>, #coro.field<"v1" : i1 at 3 #loc{{[0-9]*}}>, #coro.field<"v2" : i1 at 3:1 #loc{{[0-9]*}}>]
// BYTES:       coro.split @bits {{.*}} fields [#coro.field<"v0" : f32 at 2 #loc{{[0-9]*}}>, #coro.field<"v1" : i1 at 3 #loc{{[0-9]*}}>, #coro.field<"v2" : i1 at 3:8 #loc{{[0-9]*}}>]
coro.func @bits(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = memref.load %out[%c0] : memref<?xf32>
  %b = memref.load %out[%c1] : memref<?xf32>
  %c = memref.load %out[%c2] : memref<?xf32>
  %p = arith.cmpf olt, %a, %zero : f32
  %q = arith.cmpf olt, %b, %zero : f32
  %r = arith.cmpf olt, %c, %zero : f32
  coro.suspend "s"
  %x = arith.select %p, %a, %one : f32
  %y = arith.select %q, %x, %zero : f32
  %z = arith.select %r, %y, %one : f32
  memref.store %z, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// Fields never live when the same subroutine starts share storage (%a
// and %b, word 3); a promise keeps its own word even though nothing reads
// it in the coroutine. share-storage=false gives %b a word of its own.
// RUN: coro-opt %s --split-input-file --coro-split --coro-materialize-frame=share-storage=false | FileCheck %s --check-prefix=NOSHARE
// CHECK-LABEL: func.func @sharing__first(
// CHECK:         %[[A:.*]] = coro.frame.load %arg0[0] : f32
// CHECK:         coro.frame.store %[[A]], %arg0[2] : f32
// CHECK:         coro.frame.store %{{.*}}, %arg0[1] : f32
// CHECK:       coro.split @sharing {{.*}} fields [#coro.field<"v0" : f32 at 3 #loc{{[0-9]*}}>, #coro.field<"v1" : f32 at 3 #loc{{[0-9]*}}>, #coro.field<"result" : f32 at 2, promise>]
// NOSHARE:     coro.split @sharing {{.*}} fields [#coro.field<"v0" : f32 at 3 #loc{{[0-9]*}}>, #coro.field<"v1" : f32 at 4 #loc{{[0-9]*}}>, #coro.field<"result" : f32 at 2, promise>]
coro.func @sharing(%out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %out[%c0] : memref<?xf32>
  coro.suspend "first"
  memref.store %a, %out[%c0] : memref<?xf32>
  %b = memref.load %out[%c1] : memref<?xf32>
  coro.promise "result", %a : f32
  coro.suspend "second"
  memref.store %b, %out[%c1] : memref<?xf32>
  coro.return
}

// -----

// A field loaded in one branch and a field stored in the other branch of the
// same scf.if never meet: they share a word (a split written by hand, kept
// by coro-split).
// CHECK-LABEL: coro.split @exclusive
// CHECK-SAME:    fields [#coro.field<"p" : f32 at 2>, #coro.field<"q" : f32 at 2>]
// CHECK-SAME:    bit_packing = 12
coro.func @exclusive(%out: memref<?xf32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  %f = arith.sitofp %i : i32 to f32
  coro.suspend "s"
  %c2 = arith.constant 2 : i32
  %c0 = arith.constant 0 : i32
  %r = arith.remui %i, %c2 : i32
  %even = arith.cmpi eq, %r, %c0 : i32
  scf.if %even {
    memref.store %f, %out[%id] : memref<?xf32>
  } else {
    %two = arith.constant 2.0 : f32
    %q = arith.mulf %f, %two : f32
    coro.suspend "t"
    memref.store %q, %out[%id] : memref<?xf32>
  }
  coro.return
}
func.func @exclusive__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %id = coro.frame.id %frame : index
  %i = arith.index_cast %id : index to i32
  %f = arith.sitofp %i : i32 to f32
  coro.frame.store %f, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @exclusive__s(%frame: !coro.frame, %out: memref<?xf32>) {
  %id = coro.frame.id %frame : index
  %i = arith.index_cast %id : index to i32
  %c2 = arith.constant 2 : i32
  %c0 = arith.constant 0 : i32
  %r = arith.remui %i, %c2 : i32
  %even = arith.cmpi eq, %r, %c0 : i32
  scf.if %even {
    %p = coro.frame.load %frame[0] : f32
    memref.store %p, %out[%id] : memref<?xf32>
    coro.frame.set_target %frame, -1
  } else {
    %f = arith.sitofp %i : i32 to f32
    %two = arith.constant 2.0 : f32
    %q = arith.mulf %f, %two : f32
    coro.frame.store %q, %frame[1] : f32
    coro.frame.set_target %frame, 2
  }
  return
}
func.func @exclusive__t(%frame: !coro.frame, %out: memref<?xf32>) {
  %q = coro.frame.load %frame[1] : f32
  %id = coro.frame.id %frame : index
  memref.store %q, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @exclusive subroutines [@exclusive__entry, @exclusive__s, @exclusive__t]
    names ["entry", "s", "t"]
    fields [#coro.field<"p" : f32 at 2>, #coro.field<"q" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>, array<i32: 1, 2>, array<i32: 2, -1>]

// -----

// Stored before the other is loaded: no sharing.
// CHECK-LABEL: coro.split @ordered
// CHECK-SAME:    fields [#coro.field<"p" : f32 at 2>, #coro.field<"q" : f32 at 3>]
coro.func @ordered(%out: memref<?xf32>) {
  coro.return
}
func.func @ordered__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  %id = coro.frame.id %frame : index
  %i = arith.index_cast %id : index to i32
  %f = arith.sitofp %i : i32 to f32
  coro.frame.store %f, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @ordered__s(%frame: !coro.frame, %out: memref<?xf32>) {
  %two = arith.constant 2.0 : f32
  coro.frame.store %two, %frame[1] : f32
  %p = coro.frame.load %frame[0] : f32
  %id = coro.frame.id %frame : index
  memref.store %p, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, 2
  return
}
func.func @ordered__t(%frame: !coro.frame, %out: memref<?xf32>) {
  %q = coro.frame.load %frame[1] : f32
  %id = coro.frame.id %frame : index
  memref.store %q, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @ordered subroutines [@ordered__entry, @ordered__s, @ordered__t]
    names ["entry", "s", "t"]
    fields [#coro.field<"p" : f32 at 2>, #coro.field<"q" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 2, -1>]

// -----

// A select on a branch condition, used in a branch on the same condition,
// is known there: where %c is false the value passed on to "else" is %v,
// whose field the layout shares, so nothing is loaded, selected or stored
// on that path; where %c is true the constant is stored before "then".
// CHECK-LABEL: func.func @select_in_branch__first(
// CHECK-NOT:     coro.frame.load
// CHECK-NOT:     arith.select
// CHECK:         scf.if %arg1 {
// CHECK-NEXT:      coro.frame.store %c7_i32, %arg0[{{[0-9]+}}] : i32
// CHECK-NEXT:      coro.frame.set_target %arg0, 2
// CHECK-NEXT:    } else {
// CHECK-NEXT:      coro.frame.set_target %arg0, 3
// CHECK-NEXT:    }
// "else" reads r (field 1), which shares its word with v.
// CHECK-LABEL: func.func @select_in_branch__else(
// CHECK:         coro.frame.load %arg0[1] : i32
// CHECK:       coro.split @select_in_branch {{.*}} fields [#coro.field<"v0" : i32 at 2 {{.*}}>, #coro.field<"v1" : i32 at 2 {{.*}}>]
coro.func @select_in_branch(%c: i1, %tickets: memref<?xi32>, %out: memref<?xi32>) {
  %i = coro.id : index
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %v = memref.atomic_rmw addi %one, %tickets[%c0] : (i32, memref<?xi32>) -> i32
  coro.suspend "first"
  %k = arith.constant 7 : i32
  %r = arith.select %c, %k, %v : i32
  scf.if %c {
    coro.suspend "then"
  } else {
    coro.suspend "else"
  }
  memref.store %r, %out[%i] : memref<?xi32>
  coro.return
}

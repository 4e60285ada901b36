// RUN: coro-opt %s --split-input-file --coro-split | FileCheck %s

// If/else: one continuation per branch; a value loaded before the split is
// saved in the frame only on the edge that needs it; the instance id is read
// from the frame, not saved. The coroutine stays as the reference.
// CHECK-LABEL: coro.func @if_else(
// CHECK:         coro.suspend "then"
// CHECK-LABEL: func.func @if_else__entry(%arg0: !coro.frame, %arg1: i1, %arg2: f32, %arg3: memref<?xf32>) {
// CHECK:         %[[Y:.*]] = memref.load %arg3
// CHECK-NEXT:    scf.if %arg1 {
// CHECK-NEXT:      coro.frame.store %[[Y]], %arg0[0] : f32
// CHECK-NEXT:      coro.frame.set_target %arg0, 1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      coro.frame.set_target %arg0, 2
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @if_else__then(
// CHECK-DAG:     %[[ID:.*]] = coro.frame.id %arg0 : index
// CHECK-DAG:     %[[V:.*]] = coro.frame.load %arg0[0] : f32
// CHECK:         memref.store %[[V]], %arg3[%[[ID]]]
// CHECK-NEXT:    coro.frame.set_target %arg0, -1
// CHECK-LABEL: func.func @if_else__else(
// CHECK-NEXT:    coro.frame.set_target %arg0, -1
// CHECK-NEXT:    return
// CHECK:       coro.split @if_else subroutines [@if_else__entry, @if_else__then, @if_else__else] names ["entry", "then", "else"] fields [#coro.field<"v0" : f32 at 2 #loc{{[0-9]*}}>] transitions [array<i32: 0, 1>, array<i32: 0, 2>, array<i32: 1, -1>, array<i32: 2, -1>]
coro.func @if_else(%c: i1, %x: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %y = memref.load %out[%id] : memref<?xf32>
  scf.if %c {
    coro.suspend "then"
    memref.store %y, %out[%id] : memref<?xf32>
  } else {
    coro.suspend "else"
  }
  coro.return
}

// -----

// A suspension in a for loop with iter_args: the loop becomes a while; the
// continuation loads each value where it first needs it, finishes the
// current iteration, then checks the loop condition for the next one. Every
// iteration suspends, so no iteration ends in the same subroutine and no
// loop is copied: the next iteration's check either suspends again or
// leaves the loop. The code after the loop runs only where the check did
// not suspend, so it moves into that branch (no "exited" flag is left).
// CHECK-LABEL: func.func @for_iter_args__entry(
// CHECK-NOT:     scf.while
// CHECK-NOT:     memref.alloca
// CHECK:         %[[MORE0:.*]] = arith.cmpi sgt, %arg1, %{{.*}} : index
// CHECK:         scf.if %[[MORE0]] {
// CHECK-NEXT:      coro.frame.store %{{.*}}, %arg0[0] : f32
// CHECK-NEXT:      coro.frame.store %{{.*}}, %arg0[1] : index
// CHECK-NEXT:      coro.frame.set_target %arg0, 1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %{{.*}}, %arg2
// CHECK-NEXT:      coro.frame.set_target %arg0, -1
// CHECK-LABEL: func.func @for_iter_args__iter(
// CHECK-NOT:     scf.while
// CHECK-NOT:     memref.alloca
// CHECK:         %[[ACC0:.*]] = coro.frame.load %arg0[0] : f32
// CHECK:         %[[ACC1:.*]] = arith.addf %[[ACC0]]
// CHECK:         %[[I0:.*]] = coro.frame.load %arg0[1] : index
// CHECK:         %[[I1:.*]] = arith.addi %[[I0]]
// CHECK:         %[[MORE:.*]] = arith.cmpi slt, %[[I1]], %arg1 : index
// The loop's result where it suspended is never read (a zero placeholder):
// CHECK:         %[[RESULT:.*]] = arith.select %[[MORE]], %{{.*}}, %[[ACC1]] : f32
// CHECK:         scf.if %[[MORE]] {
// CHECK-NEXT:      coro.frame.store %[[ACC1]], %arg0[0] : f32
// CHECK-NEXT:      coro.frame.store %[[I1]], %arg0[1] : index
// CHECK-NEXT:      coro.frame.set_target %arg0, 1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %[[RESULT]], %arg2
// CHECK-NEXT:      coro.frame.set_target %arg0, -1
// CHECK:       coro.split @for_iter_args subroutines [@for_iter_args__entry, @for_iter_args__iter] names ["entry", "iter"] fields [#coro.field<"v0" : f32 at 2 #loc{{[0-9]*}}>, #coro.field<"v1" : index at 3 #loc{{[0-9]*}}>] transitions [array<i32: 0, 1>, array<i32: 0, -1>, array<i32: 1, 1>, array<i32: 1, -1>]
coro.func @for_iter_args(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    coro.suspend "iter"
    %a = arith.addf %acc, %one : f32
    scf.yield %a : f32
  }
  memref.store %r, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A suspension in the before region of a while: the continuation replays the
// condition, runs the after region once if it holds, then a copy of the loop.
// In the entry the loop must leave at the suspension: its condition is false.
// CHECK-LABEL: func.func @while_before__entry(
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK:         scf.while
// CHECK:           coro.frame.set_target %arg0, 1
// CHECK-NEXT:      scf.condition(%[[FALSE]])
// CHECK-LABEL: func.func @while_before__cond(
// CHECK:         %[[I:.*]] = coro.frame.load %arg0[0] : index
// CHECK:         %[[MORE:.*]] = arith.cmpi slt, %[[I]], %arg1
// CHECK-NEXT:    scf.if %[[MORE]] {
// CHECK:           %[[NEXT:.*]] = arith.addi %[[I]]
// CHECK-NEXT:      scf.while (%{{.*}} = %[[NEXT]])
// CHECK:         } else {
// CHECK-NEXT:      coro.frame.set_target %arg0, -1
coro.func @while_before(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    coro.suspend "cond"
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  coro.return
}

// -----

// A loop whose iterations do not all suspend is copied whole after the
// iteration the continuation finishes; leaving from inside the copy sets the
// "exited" flag, which makes its condition false and guards the rest.
// CHECK-LABEL: func.func @some_iterations__odd(
// CHECK:         %[[FLAG:.*]] = memref.alloca() : memref<1xi32>
// CHECK:         scf.while
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:           scf.if
// CHECK:             coro.frame.set_target %arg0, 1
// CHECK:             memref.store %{{.*}}, %[[FLAG]]
// CHECK:         memref.load %[[FLAG]]
// CHECK:         coro.frame.set_target %arg0, -1
coro.func @some_iterations(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %parity = arith.remui %i, %c2 : index
    %odd = arith.cmpi eq, %parity, %c1 : index
    scf.if %odd {
      coro.suspend "odd"
    }
    %a = arith.addf %acc, %one : f32
    scf.yield %a : f32
  }
  memref.store %r, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// `while (alive)` that starts with alive = true runs at least once, so with a
// suspension at the top of its body the loop must suspend: the entry stops
// there, and the continuation checks the condition for the next iteration
// instead of copying the loop; code after the loop is not copied into the
// entry.
// CHECK-LABEL: func.func @while_alive__entry(
// CHECK-NOT:     scf.while
// CHECK-NOT:     memref.store %{{.*}}, %arg2
// CHECK:         coro.frame.set_target %arg0, 1
// CHECK-NOT:     memref.store %{{.*}}, %arg2
// CHECK:         return
// CHECK-LABEL: func.func @while_alive__step(
// CHECK-NOT:     scf.while
// CHECK:         %[[GO:.*]] = arith.cmpi slt
// CHECK:         scf.if %[[GO]]
// CHECK:           coro.frame.set_target %arg0, 1
// CHECK:         memref.store
// CHECK:         coro.frame.set_target %arg0, -1
coro.func @while_alive(%n: i32, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %true = arith.constant true
  %r:2 = scf.while (%k = %i0, %alive = %true) : (i32, i1) -> (i32, i1) {
    scf.condition(%alive) %k, %alive : i32, i1
  } do {
  ^bb0(%k: i32, %alive: i1):
    coro.suspend "step"
    %k1 = arith.addi %k, %i1 : i32
    %go = arith.cmpi slt, %k1, %n : i32
    scf.yield %k1, %go : i32, i1
  }
  memref.store %r#0, %out[%c0] : memref<?xi32>
  coro.return
}

// -----

// Back-to-back anonymous suspensions get positional names that do not clash
// with tags; code before a suspension is not copied into its continuation.
// CHECK-LABEL: func.func @names__entry(
// CHECK:         memref.store
// CHECK-NEXT:    coro.frame.set_target %arg0, 1
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @names__s1_(
// CHECK-NEXT:    coro.frame.set_target %arg0, 2
// CHECK-LABEL: func.func @names__s1(
// CHECK-NOT:     memref.store
// CHECK:         coro.frame.set_target %arg0, -1
// CHECK:       coro.split @names subroutines [@names__entry, @names__s1_, @names__s1] names ["entry", "s1_", "s1"]
coro.func @names(%x: f32, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  memref.store %x, %out[%c0] : memref<?xf32>
  coro.suspend
  coro.suspend "s1"
  coro.return
}

// -----

// A local array live across a suspension is saved element by element and
// re-created in the continuation; a promise gets its own field.
// CHECK-LABEL: func.func @local_array__entry(
// CHECK:         coro.frame.store %arg1, %arg0[2] : f32
// CHECK:         memref.load %[[A:.*]][%{{.*}}] : memref<2xf32>
// CHECK-NEXT:    coro.frame.store %{{.*}}, %arg0[0] : f32
// CHECK:         memref.load %[[A]][%{{.*}}] : memref<2xf32>
// CHECK-NEXT:    coro.frame.store %{{.*}}, %arg0[1] : f32
// CHECK-LABEL: func.func @local_array__next(
// CHECK:         %[[B:.*]] = memref.alloca() : memref<2xf32>
// CHECK-DAG:     coro.frame.load %arg0[0] : f32
// CHECK-DAG:     coro.frame.load %arg0[1] : f32
// CHECK:       coro.split @local_array {{.*}} fields [#coro.field<"v0[0]" : f32 at 2 #loc{{[0-9]*}}>, #coro.field<"v0[1]" : f32 at 3 #loc{{[0-9]*}}>, #coro.field<"hint" : f32 at 4, promise>]
coro.func @local_array(%x: f32, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloca() : memref<2xf32>
  memref.store %x, %a[%c0] : memref<2xf32>
  memref.store %x, %a[%c1] : memref<2xf32>
  coro.promise "hint", %x : f32
  coro.suspend "next"
  %v = memref.load %a[%c1] : memref<2xf32>
  memref.store %v, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// Live-state reduction: values computed from arguments and constants are
// recomputed (%a: 2 ops); a load of a buffer the coroutine never writes is
// redone after the suspension when what it needs is smaller (%v,
// vector<4xf32>, is reloaded from the i32 its index comes from); a value
// whose recomputation would need as much frame as itself is stored (%ii,
// %big). Vector lanes get fields of their own; a value with a named location
// names its fields. The naive frame stores %v, %big and %a.
// RUN: coro-opt %s --split-input-file --coro-split=defer-loads=false | FileCheck %s --check-prefix=NODEFER
// RUN: coro-opt %s --split-input-file --coro-split=max-recomputed-ops=1 | FileCheck %s --check-prefix=MAXOPS
// CHECK-LABEL: func.func @reduce__entry(
// CHECK:         %[[II:.*]] = arith.fptosi
// CHECK:         coro.frame.store %[[II]], %arg0[0] : i32
// CHECK:         coro.frame.store %{{.*}}, %arg0[1] : f32
// CHECK:         coro.frame.store %{{.*}}, %arg0[2] : f32
// CHECK-NEXT:    coro.frame.set_target %arg0, 1
// CHECK-LABEL: func.func @reduce__next(
// CHECK:         %[[I:.*]] = coro.frame.load %arg0[0] : i32
// CHECK:         %[[IDX:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK:         vector.load %arg1[%[[IDX]]] : memref<?xf32>, vector<4xf32>
// CHECK:         %[[SQ:.*]] = arith.mulf %arg2, %arg2 : f32
// CHECK:         arith.addf %[[SQ]], %arg2 : f32
// CHECK:       coro.split @reduce {{.*}} fields [#coro.field<"v0" : i32 at 2 #loc{{[0-9]*}}>, #coro.field<"big[0]" : f32 at 3>, #coro.field<"big[1]" : f32 at 4>] transitions [{{.*}}] {frame_bytes = {naive = 36 : i64, split = 20 : i64}, statistics = {ops_recomputed = 5 : i64, values_live = 3 : i64, values_recomputed = 2 : i64, values_stored = 2 : i64}}
// NODEFER:     coro.split @reduce {{.*}} fields [#coro.field<"v0[0]" : f32 at 2 #loc{{[0-9]*}}>, #coro.field<"v0[1]" : f32 at 3 #loc{{[0-9]*}}>, #coro.field<"v0[2]" : f32 at 4 #loc{{[0-9]*}}>, #coro.field<"v0[3]" : f32 at 5 #loc{{[0-9]*}}>, #coro.field<"big[0]" : f32 at 6>, #coro.field<"big[1]" : f32 at 7>] transitions
// MAXOPS:      coro.split @reduce {{.*}} fields [#coro.field<"big[0]" : f32 at 2>, #coro.field<"big[1]" : f32 at 3>, #coro.field<"v1" : index at 4 #loc{{[0-9]*}}>] transitions
coro.func @reduce(%in: memref<?xf32>, %x: f32, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %i = memref.load %out[%c0] : memref<?xf32>
  %ii = arith.fptosi %i : f32 to i32
  %idx = arith.index_cast %ii : i32 to index
  %v = vector.load %in[%idx] : memref<?xf32>, vector<4xf32>
  %sq = arith.mulf %x, %x : f32
  %a = arith.addf %sq, %x : f32
  %big = vector.load %out[%c4] : memref<?xf32>, vector<2xf32> loc("big")
  coro.suspend "next"
  %r = vector.reduction <add>, %v : vector<4xf32> into f32
  %b = vector.reduction <add>, %big : vector<2xf32> into f32
  %t = arith.addf %a, %r : f32
  %u = arith.addf %t, %b : f32
  memref.store %u, %out[%c1] : memref<?xf32>
  coro.return
}

// -----

// A local array used only after a suspension point is moved down to its
// first use, so it does not cross the suspension.
// CHECK-LABEL: func.func @sink_array__after(
// CHECK-NOT:     coro.frame.load
// CHECK:         memref.alloca() : memref<4xf32>
// CHECK:       coro.split @sink_array {{.*}} fields [] transitions
coro.func @sink_array(%x: f32, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<4xf32>
  coro.suspend "after"
  memref.store %x, %a[%c0] : memref<4xf32>
  %v = memref.load %a[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A division by an argument is recomputed after the suspension point: it is
// not speculatable, but it reruns on the operands it ran on before.
// CHECK-LABEL: func.func @divide__after(
// CHECK-NOT:     coro.frame.load
// CHECK:         %[[ID:.*]] = coro.frame.id
// CHECK:         arith.divui %{{.*}}, %arg1 : i32
// CHECK:       coro.split @divide {{.*}} fields [] transitions {{.*}} statistics = {ops_recomputed = 4 : i64, values_live = 1 : i64, values_recomputed = 1 : i64, values_stored = 0 : i64}
coro.func @divide(%width: i32, %out: memref<?xf32>) {
  %id = coro.id : index
  %pixel = arith.index_cast %id : index to i32
  %row = arith.divui %pixel, %width : i32
  %rowf = arith.uitofp %row : i32 to f32
  coro.suspend "after"
  memref.store %rowf, %out[%id] : memref<?xf32>
  coro.return
}

// -----

// What an op reads from the thread that runs it differs in the thread an
// instance resumes in: gpu.lane_id (which coro-profile-lanes adds; the
// verifier refuses thread and workgroup ids) is kept in the frame, not
// recomputed.
// CHECK-LABEL: func.func @thread_bound__after(
// CHECK:         %[[T:.*]] = coro.frame.load %arg0[0] : index
// CHECK-NOT:     gpu.lane_id
// CHECK:         memref.store %{{.*}}, %arg1[%[[T]]]
// CHECK:       coro.split @thread_bound {{.*}} fields [#coro.field<"v0" : index at 2 #loc{{[0-9]*}}>] transitions
coro.func @thread_bound(%out: memref<?xf32>) {
  %lane = gpu.lane_id
  %one = arith.constant 1.0 : f32
  coro.suspend "after"
  memref.store %one, %out[%lane] : memref<?xf32>
  coro.return
}

// -----

// A value promised before a suspension point is read back from its promise
// field after it, not saved again: %m is stored once, by the promise.
// CHECK-LABEL: func.func @promised__entry(
// CHECK:         %[[M:.*]] = memref.load
// CHECK:         coro.frame.store %[[M]], %arg0[0] : i32
// CHECK-NOT:     coro.frame.store
// CHECK:         coro.frame.set_target %arg0, 1
// CHECK-LABEL: func.func @promised__shade(
// CHECK:         %[[LOADED:.*]] = coro.frame.load %arg0[0] : i32
// CHECK:         arith.sitofp %[[LOADED]]
// CHECK:       coro.split @promised {{.*}} fields [#coro.field<"material" : i32 at 2, promise>] transitions
coro.func @promised(%mats: memref<?xi32>, %out: memref<?xf32>) {
  %id = coro.id : index
  %m = memref.load %mats[%id] : memref<?xi32>
  memref.store %m, %mats[%id] : memref<?xi32>
  coro.promise "material", %m : i32
  coro.suspend "shade"
  %f = arith.sitofp %m : i32 to f32
  memref.store %f, %out[%id] : memref<?xf32>
  coro.return
}

// -----

// A promise field does not hold the value when another promise of that name
// may have overwritten it (%a, %b), nor when the promise runs in another block
// than the one defining the value (%c, promised in a branch only): those get
// fields of their own.
// CHECK-LABEL: func.func @not_promised__entry(
// CHECK:       coro.split @not_promised {{.*}} fields [#coro.field<"v0" : i32 at 2 #loc{{[0-9]*}}>, #coro.field<"v1" : i32 at 3 #loc{{[0-9]*}}>, #coro.field<"v2" : i32 at 4 #loc{{[0-9]*}}>, #coro.field<"twice" : i32 at 5, promise>, #coro.field<"branch" : i32 at 6, promise>] transitions
coro.func @not_promised(%in: memref<?xi32>, %flag: i1, %out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %a = memref.load %in[%id] : memref<?xi32>
  %c2 = arith.constant 2 : index
  %b = memref.load %in[%c1] : memref<?xi32>
  %c = memref.load %in[%c2] : memref<?xi32>
  memref.store %c, %in[%id] : memref<?xi32>
  coro.promise "twice", %a : i32
  coro.promise "twice", %b : i32
  scf.if %flag {
    coro.promise "branch", %c : i32
  }
  coro.suspend "after"
  %s = arith.addi %a, %b : i32
  %t = arith.muli %s, %c : i32
  memref.store %t, %out[%id] : memref<?xi32>
  coro.return
}

// -----

// A recomputed value that one branch needs is recomputed in that branch:
// the reload of %cam (a buffer the coroutine never writes) and the division
// are not done, and do not hold registers, on the path that skips them.
// CHECK-LABEL: func.func @sink_recomputed__after(
// CHECK:         %[[FLAG:.*]] = coro.frame.load %arg0[0] : i1
// CHECK-NEXT:    scf.if %[[FLAG]] {
// CHECK-DAG:       memref.load %arg3
// CHECK-DAG:       arith.divui
// CHECK:           memref.store
// CHECK-NEXT:    }
coro.func @sink_recomputed(%w: i32, %in: memref<?xi32>, %cam: memref<?xf32>,
                           %out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i32
  %scale = memref.load %cam[%c0] : memref<?xf32>
  %id32 = arith.index_cast %id : index to i32
  %row = arith.divui %id32, %w : i32
  %v = memref.load %in[%id] : memref<?xi32>
  memref.store %c1, %in[%id] : memref<?xi32>
  %odd = arith.trunci %v : i32 to i1
  coro.suspend "after"
  scf.if %odd {
    %rowf = arith.uitofp %row : i32 to f32
    %y = arith.mulf %rowf, %scale : f32
    memref.store %y, %out[%id] : memref<?xf32>
  }
  coro.return
}

// -----

// Frame loads move down to their first use, past a loop that does not need
// them (%b is loaded after the loop, %c only in the branch that uses it), so
// they hold no register across it. A promise field (%m, read back from
// "kind") is loaded first: a subroutine may promise a new value later.
// CHECK-LABEL: func.func @sink_loads__after(
// CHECK:         %[[M:.*]] = coro.frame.load %arg0[3] : i32
// CHECK:         %[[A:.*]] = coro.frame.load %arg0[0] : i32
// CHECK:         %[[LOOP:.*]] = scf.while
// CHECK:         %[[B:.*]] = coro.frame.load %arg0[1] : i32
// CHECK-NEXT:    arith.addi %[[LOOP]], %[[B]]
// CHECK:         scf.if
// CHECK-NEXT:      coro.frame.load %arg0[2] : i32
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[M]]
// CHECK:       coro.split @sink_loads {{.*}} fields [#coro.field<"v0" : i32 at 2 #loc{{[0-9]*}}>, #coro.field<"v1" : i32 at 3 #loc{{[0-9]*}}>, #coro.field<"v2" : i32 at 4 #loc{{[0-9]*}}>, #coro.field<"kind" : i32 at 5, promise>]
coro.func @sink_loads(%in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %m = memref.load %in[%id] : memref<?xi32>
  %a = memref.load %in[%c1] : memref<?xi32>
  %b = memref.load %in[%c2] : memref<?xi32>
  %c = memref.load %in[%c3] : memref<?xi32>
  memref.store %i0, %in[%id] : memref<?xi32>
  coro.promise "kind", %m : i32
  coro.suspend "after"
  %r = scf.while (%k = %i0) : (i32) -> i32 {
    %more = arith.cmpi slt, %k, %a : i32
    scf.condition(%more) %k : i32
  } do {
  ^bb0(%k: i32):
    %k1 = arith.addi %k, %i1 : i32
    scf.yield %k1 : i32
  }
  %s = arith.addi %r, %b : i32
  %odd = arith.trunci %s : i32 to i1
  %t = scf.if %odd -> (i32) {
    %u = arith.addi %s, %c : i32
    scf.yield %u : i32
  } else {
    scf.yield %m : i32
  }
  memref.store %t, %out[%id] : memref<?xi32>
  coro.return
}

// -----

// A loop that carries nothing, suspends in its condition and never runs its
// body: the continuation replays the (false) condition in an scf.if with one
// terminator per branch (coro-fuzz seed 556).
// CHECK-LABEL: func.func @while_false__s1(
// CHECK-NOT:     scf.yield
// CHECK:         coro.frame.set_target %arg0, -1
// CHECK-NEXT:    return
coro.func @while_false() {
  %false = arith.constant false
  scf.while : () -> () {
    coro.suspend
    scf.condition(%false)
  } do {
    scf.yield
  }
  coro.return
}

// -----

// A suspension under an scf.if with no else: the code after the if runs
// only where the if did not suspend, so it lands in the else branch the
// split adds, with no "exited" flag.
// CHECK-LABEL: func.func @suspend_on_one_path__entry(
// CHECK-NOT:     memref.alloca
// CHECK:         scf.if %arg1 {
// CHECK-NEXT:      coro.frame.set_target %arg0, 1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[B:.*]] = arith.addf
// CHECK-NEXT:      memref.store %[[B]], %arg3
// CHECK-NEXT:      coro.frame.set_target %arg0, -1
// CHECK-NEXT:    }
// CHECK-NEXT:    return
coro.func @suspend_on_one_path(%c: i1, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.load %in[%c0] : memref<?xf32>
  scf.if %c {
    coro.suspend "then"
  }
  %b = arith.addf %a, %a : f32
  memref.store %b, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A suspension under a branch on a constant true (the continuation of a
// loop may test one) must suspend there: the code after the outer if lands
// in its else branch, with no "exited" flag.
// CHECK-LABEL: func.func @suspend_under_true__entry(
// CHECK-NOT:     memref.alloca
// CHECK:         scf.if %arg1 {
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      coro.frame.set_target %arg0, 1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      coro.frame.set_target %arg0, -1
// CHECK-NEXT:    }
// CHECK-NEXT:    return
coro.func @suspend_under_true(%c: i1, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = memref.load %in[%c0] : memref<?xf32>
  scf.if %c {
    %a2 = arith.mulf %a, %a : f32
    memref.store %a2, %out[%c0] : memref<?xf32>
    scf.if %true {
      coro.suspend "then"
    }
  }
  %b = arith.addf %a, %a : f32
  memref.store %b, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// The code after an scf.if whose then branch must suspend and whose else
// branch suspends only where an inner scf.if takes its else branch runs
// exactly where that inner then branch ran: it moves to the end of that
// branch, the values it uses are those the branches yield there, and no
// "exited" flag is left.
// CHECK-LABEL: func.func @continue_in_inner_branch__entry(
// CHECK-NOT:     memref.alloca
// CHECK:         %[[A:.*]] = memref.load %arg3
// CHECK:         scf.if %arg1 {
// CHECK-NEXT:      coro.frame.set_target %arg0, 1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[A2:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK-NEXT:      memref.store %[[A2]], %arg4
// CHECK-NEXT:      scf.if %arg2 {
// CHECK-NEXT:        %[[M:.*]] = arith.addf %[[A2]], %[[A]]
// CHECK-NEXT:        %[[B:.*]] = arith.addf %[[M]], %[[A]]
// CHECK-NEXT:        memref.store %[[B]], %arg4
// CHECK-NEXT:        coro.frame.set_target %arg0, -1
// CHECK-NEXT:      } else {
// CHECK-NEXT:        coro.frame.set_target %arg0, 2
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
coro.func @continue_in_inner_branch(%c: i1, %d: i1, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.load %in[%c0] : memref<?xf32>
  %r = scf.if %c -> f32 {
    coro.suspend "outer"
    scf.yield %a : f32
  } else {
    %a2 = arith.mulf %a, %a : f32
    memref.store %a2, %out[%c0] : memref<?xf32>
    %r2 = scf.if %d -> f32 {
      %m = arith.addf %a2, %a : f32
      scf.yield %m : f32
    } else {
      coro.suspend "inner"
      scf.yield %a : f32
    }
    scf.yield %r2 : f32
  }
  %b = arith.addf %r, %a : f32
  memref.store %b, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A do-while whose before region suspends on one path of an scf.if and then
// on every path: once it suspended, the loop condition is false, so the
// after region never runs in the subroutine that suspended
// (test/e2e/programs/before-region-suspends.mlir runs it).
// CHECK-LABEL: func.func @before_region_suspends__entry(
// CHECK-NOT:     memref.alloca
// CHECK:         scf.while
// CHECK:           scf.if %{{.*}} {
// CHECK:             coro.frame.set_target %arg0, 1
// CHECK:           } else {
// CHECK:             coro.frame.set_target %arg0, 2
// CHECK:           }
// CHECK-NEXT:      scf.condition(%false)
coro.func @before_region_suspends(%c: i1, %out: memref<?xi32>) {
  %id = coro.id : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %thousand = arith.constant 1000 : i32
  %r = scf.while (%k = %z) : (i32) -> i32 {
    %more = arith.cmpi slt, %k, %three : i32
    scf.if %c {
      coro.suspend "odd"
    }
    coro.suspend "each"
    scf.condition(%more) %k : i32
  } do {
  ^bb0(%k2: i32):
    %o = memref.atomic_rmw addi %thousand, %out[%id] : (i32, memref<?xi32>) -> i32
    %k3 = arith.addi %k2, %one : i32
    scf.yield %k3 : i32
  }
  coro.return
}

// RUN: coro-opt %s --split-input-file --coro-normalize-control-flow | FileCheck %s

// An if/else diamond with an early return: one scf.if, one coro.return.
// CHECK-LABEL: coro.func @diamond(%arg0: i1) {
// CHECK-NOT:     cf.
// CHECK:         scf.if %arg0 {
// CHECK-NEXT:      coro.suspend "then"
// CHECK-NEXT:    } else {
// CHECK-NEXT:      coro.suspend "else"
// CHECK-NEXT:    }
// CHECK-NEXT:    coro.return
// CHECK-NEXT:  }
coro.func @diamond(%c: i1) {
  cf.cond_br %c, ^then, ^else
^then:
  coro.suspend "then"
  coro.return
^else:
  coro.suspend "else"
  coro.return
}

// -----

// A loop with a suspension, a break to an early return, and a normal exit:
// an scf.while carrying the exit selector, then a switch on it.
// CHECK-LABEL: coro.func @loop_break(%arg0: index, %arg1: memref<?xf32>) {
// CHECK-NOT:     cf.
// CHECK:         %[[LOOP:.*]]:2 = scf.while (%[[I:.*]] = %{{.*}}) : (index) -> (index, i32) {
// CHECK:           scf.if
// CHECK-NEXT:        coro.suspend "iter"
// CHECK-NEXT:        memref.store %{{.*}}, %arg1[%[[I]]]
// CHECK:           scf.condition
// CHECK:         scf.index_switch
// CHECK-NEXT:    case 1 {
// CHECK-NEXT:      coro.suspend "early"
// CHECK:         coro.return
// CHECK-NOT:     coro.return
coro.func @loop_break(%n: index, %buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 1.0 : f32
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %lt = arith.cmpi slt, %i, %n : index
  cf.cond_br %lt, ^body, ^exit
^body:
  coro.suspend "iter"
  memref.store %f, %buf[%i] : memref<?xf32>
  %next = arith.addi %i, %c1 : index
  %brk = arith.cmpi eq, %i, %c2 : index
  cf.cond_br %brk, ^early, ^loop(%next : index)
^early:
  coro.suspend "early"
  coro.return
^exit:
  coro.return
}

// -----

// cf.switch becomes scf.index_switch.
// CHECK-LABEL: coro.func @switch(%arg0: i32) {
// CHECK-NOT:     cf.
// CHECK:         scf.index_switch
// CHECK-DAG:       coro.suspend "zero"
// CHECK-DAG:       coro.suspend "five"
// CHECK-DAG:       coro.suspend "other"
// CHECK:         coro.return
coro.func @switch(%v: i32) {
  cf.switch %v : i32, [
    default: ^other,
    0: ^zero,
    5: ^five
  ]
^zero:
  coro.suspend "zero"
  coro.return
^five:
  coro.suspend "five"
  coro.return
^other:
  coro.suspend "other"
  coro.return
}

// -----

// Irreducible control flow (a loop with two entries) is structured too.
// CHECK-LABEL: coro.func @irreducible(%arg0: i1, %arg1: i1) {
// CHECK-NOT:     cf.
// CHECK:         scf.while
// CHECK:           scf.index_switch
// CHECK-DAG:         coro.suspend "a"
// CHECK-DAG:         coro.suspend "b"
// CHECK:         coro.return
coro.func @irreducible(%c: i1, %d: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  coro.suspend "a"
  cf.cond_br %d, ^b, ^done
^b:
  coro.suspend "b"
  cf.cond_br %d, ^a, ^done
^done:
  coro.return
}

// -----

// An infinite loop still ends the body with a coro.return.
// CHECK-LABEL: coro.func @forever() {
// CHECK:         scf.while : () -> () {
// CHECK-NEXT:      coro.suspend "spin"
// CHECK-NEXT:      scf.condition(%true)
// CHECK:         coro.return
coro.func @forever() {
  cf.br ^spin
^spin:
  coro.suspend "spin"
  cf.br ^spin
}

// -----

// A multi-block scf.execute_region (what coro-inline-callables makes of a
// callee with early returns) nested in an scf.if is lifted and inlined.
// CHECK-LABEL: coro.func @execute_region(%arg0: i1, %arg1: i1, %arg2: f32) {
// CHECK-NOT:     scf.execute_region
// CHECK-NOT:     cf.
// CHECK:         scf.if %arg0 {
// CHECK:           %[[R:.*]] = scf.if %arg1 -> (f32) {
// CHECK-NEXT:        scf.yield %arg2 : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[N:.*]] = arith.negf %arg2 : f32
// CHECK-NEXT:        scf.yield %[[N]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      coro.suspend "after"
// CHECK-NEXT:      coro.promise "r", %[[R]] : f32
coro.func @execute_region(%c: i1, %d: i1, %x: f32) {
  scf.if %c {
    %r = scf.execute_region -> f32 {
      cf.cond_br %d, ^a, ^b
    ^a:
      scf.yield %x : f32
    ^b:
      %n = arith.negf %x : f32
      scf.yield %n : f32
    }
    coro.suspend "after"
    coro.promise "r", %r : f32
  }
  coro.return
}

// -----

// Single-trip loops fold; a structured coroutine is otherwise unchanged.
// CHECK-LABEL: coro.func @single_trip(%arg0: memref<?xf32>, %arg1: index) {
// CHECK-NOT:     scf.for %{{.*}} = %c0 to %c1
// CHECK:         coro.suspend "once"
// CHECK-NEXT:    memref.store %{{.*}}, %arg0[%c0]
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      coro.suspend "many"
// CHECK:         coro.return
coro.func @single_trip(%buf: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c1 step %c1 {
    coro.suspend "once"
    memref.store %f, %buf[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    coro.suspend "many"
  }
  coro.return
}

// -----

// A promise written only in unreachable code keeps its field: it is written
// with zero at the start (found by coro-fuzz: --sort-by=p0 found no field).
// CHECK-LABEL: coro.func @dead_promise(
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    coro.promise "p0", %[[ZERO]] : i32
// CHECK-NEXT:    %[[ZF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    coro.promise "p1", %[[ZF]] : f32
// CHECK-NOT:     coro.promise
// CHECK:         coro.return
coro.func @dead_promise(%v: i32, %f: f32) {
  %true = arith.constant true
  cf.cond_br %true, ^done, ^dead
^dead:
  coro.promise "p0", %v : i32
  coro.promise "p1", %f : f32
  coro.return
^done:
  coro.return
}

// -----

// A promise still written somewhere reachable is left as it is.
// CHECK-LABEL: coro.func @live_promise(
// CHECK-NOT:     arith.constant 0 : i32
// CHECK:         coro.promise "p0", %arg0 : i32
// CHECK-NOT:     coro.promise
coro.func @live_promise(%v: i32) {
  %true = arith.constant true
  cf.cond_br %true, ^done, ^dead
^dead:
  coro.promise "p0", %v : i32
  coro.return
^done:
  coro.promise "p0", %v : i32
  coro.return
}

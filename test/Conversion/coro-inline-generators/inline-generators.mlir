// RUN: coro-opt %s --split-input-file --coro-inline-generators --verify-diagnostics | FileCheck %s

// The generator's code runs in place of the loop, in an scf.execute_region;
// the stop flag and the carried value live in allocas at the start of the
// coroutine; each yield runs the body unless the loop has stopped; the
// generator's scf.for becomes an scf.while that ends once the loop has
// stopped, and its store runs only while the loop goes on; its coro.id is
// the loop's instance.
// CHECK-LABEL: coro.func @consumer(
// CHECK-SAME:      %[[N:[^:]*]]: i32, %[[OUT:[^:]*]]: memref<?xi32>)
// CHECK-DAG:     %[[ACC:.*]] = memref.alloca() : memref<i32>
// CHECK-DAG:     %[[STOP:.*]] = memref.alloca() : memref<i1>
// CHECK:         %[[ID:.*]] = coro.id : index
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK:         memref.store %[[FALSE]], %[[STOP]][] : memref<i1>
// CHECK:         memref.store %{{.*}}, %[[ACC]][] : memref<i32>
// CHECK:         scf.execute_region {
// CHECK:           scf.while (%[[I:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK:             %[[MORE_TRIPS:.*]] = arith.cmpi slt, %[[I]], %[[N]] : i32
// CHECK:             %[[SW:.*]] = memref.load %[[STOP]][] : memref<i1>
// CHECK:             %[[GOW:.*]] = arith.xori %[[SW]], %[[TRUE]] : i1
// CHECK:             %[[C:.*]] = arith.select %[[GOW]], %[[MORE_TRIPS]], %[[FALSE]] : i1
// CHECK:             scf.condition(%[[C]]) %[[I]] : i32
// CHECK:           } do {
// CHECK:           ^bb0(%[[J:.*]]: i32):
// CHECK:             %[[S0:.*]] = memref.load %[[STOP]][] : memref<i1>
// CHECK:             %[[GO0:.*]] = arith.xori %[[S0]], %[[TRUE]] : i1
// CHECK:             scf.if %[[GO0]] {
// CHECK:               memref.store %[[J]], %[[OUT]][%[[ID]]] : memref<?xi32>
// CHECK:             }
// CHECK:             %[[S1:.*]] = memref.load %[[STOP]][] : memref<i1>
// CHECK:             %[[GO1:.*]] = arith.xori %[[S1]], %[[TRUE]] : i1
// CHECK:             scf.if %[[GO1]] {
// CHECK:               %[[A:.*]] = memref.load %[[ACC]][] : memref<i32>
// CHECK:               %[[SUM:.*]] = arith.addi %[[A]], %[[J]] : i32
// CHECK:               %[[MORE:.*]] = arith.cmpi slt, %[[SUM]], %{{.*}} : i32
// CHECK:               memref.store %[[SUM]], %[[ACC]][] : memref<i32>
// CHECK:               %[[STOPS:.*]] = arith.xori %[[MORE]], %{{.*}} : i1
// CHECK:               memref.store %[[STOPS]], %[[STOP]][] : memref<i1>
// CHECK:             }
// CHECK:             scf.yield
// CHECK:           }
// CHECK:           scf.yield
// CHECK:         }
// CHECK:         %[[R:.*]] = memref.load %[[ACC]][] : memref<i32>
// CHECK:         memref.store %[[R]], %[[OUT]][%[[ID]]] : memref<?xi32>
// CHECK-NOT:     coro.for_each
coro.func @gen(%n: i32, %log: memref<?xi32>) yields i32 {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    memref.store %i, %log[%id] : memref<?xi32>
    coro.yield %i : i32
  }
  coro.return
}
coro.func @consumer(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c100 = arith.constant 100 : i32
  %r = coro.for_each @gen[%id](%n, %out : i32, memref<?xi32>) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %s = arith.addi %acc, %v : i32
    %more = arith.cmpi slt, %s, %c100 : i32
    coro.for_each.yield %more, %s : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

// -----

// A cf loop of the generator: every block but the entry is entered only
// while the loop goes on; coro.return ends the region. A while loop's
// condition is false once the loop has stopped. The generator's alloca goes
// to the start of the function, and its store runs only while the loop goes
// on, as every access to memory does.
// CHECK-LABEL: coro.func @cf_consumer(
// CHECK:         %[[LOCAL:.*]] = memref.alloca() : memref<1xi32>
// CHECK:         scf.execute_region {
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        memref.store %{{.*}}, %[[LOCAL]][%{{.*}}] : memref<1xi32>
// CHECK-NEXT:      }
// CHECK:           cf.br ^[[HEAD:.*]](%{{.*}} : i32)
// CHECK:         ^[[HEAD]](%{{.*}}: i32):
// CHECK:           %[[S:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK:           %[[GO:.*]] = arith.xori %[[S]], %{{.*}} : i1
// CHECK:           cf.cond_br %[[GO]], ^{{.*}}, ^[[EXIT:[a-z0-9]*]]
// CHECK:           scf.while
// CHECK:             %[[WS:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK:             %[[WGO:.*]] = arith.xori %[[WS]], %{{.*}} : i1
// CHECK:             %[[C:.*]] = arith.select %[[WGO]], %{{.*}}, %{{.*}} : i1
// CHECK:             scf.condition(%[[C]])
// CHECK:         ^[[EXIT]]:
// CHECK-NEXT:      scf.yield
coro.func @cf_gen(%n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0 : index
  %local = memref.alloca() : memref<1xi32>
  memref.store %c0, %local[%z] : memref<1xi32>
  cf.br ^head(%c0 : i32)
^head(%i: i32):
  %w = scf.while (%j = %i) : (i32) -> i32 {
    %small = arith.cmpi slt, %j, %c1 : i32
    scf.condition(%small) %j : i32
  } do {
  ^bb0(%j: i32):
    %k = arith.addi %j, %c1 : i32
    scf.yield %k : i32
  }
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^done
^body:
  %next = arith.addi %i, %c1 : i32
  coro.yield %next : i32
  cf.br ^head(%next : i32)
^done:
  coro.return
}
coro.func @cf_consumer(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %r = coro.for_each @cf_gen[%id](%n : i32) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %s = arith.addi %acc, %v : i32
    %t = arith.constant true
    coro.for_each.yield %t, %s : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

// -----

// Nested generators: the inner loop is run in place first, then the outer
// generator's copy holds it.
// CHECK-LABEL: coro.func @outer(
// CHECK:         scf.execute_region {
// CHECK:         coro.yield
// CHECK-LABEL: coro.func @nested_consumer(
// CHECK:         scf.execute_region {
// CHECK:           scf.execute_region {
// CHECK-NOT:     coro.for_each
coro.func @inner(%n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    coro.yield %i : i32
  }
  coro.return
}
coro.func @outer(%n: i32) yields i32 {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %r = coro.for_each @inner[%id](%n : i32) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    coro.yield %v : i32
    %s = arith.addi %acc, %v : i32
    %t = arith.constant true
    coro.for_each.yield %t, %s : i32
  }
  coro.yield %r : i32
  coro.return
}
coro.func @nested_consumer(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %r = coro.for_each @outer[%id](%n : i32) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %s = arith.addi %acc, %v : i32
    %t = arith.constant true
    coro.for_each.yield %t, %s : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

// -----

coro.func @self(%n: i32) yields i32 {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{'coro.for_each' op loops over @self, whose loops over generators come back to it}}
  %r = coro.for_each @self[%id](%n : i32) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %t = arith.constant true
    coro.for_each.yield %t, %v : i32
  }
  coro.yield %r : i32
  coro.return
}

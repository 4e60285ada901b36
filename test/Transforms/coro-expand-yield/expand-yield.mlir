// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(coro.func(coro-expand-yield))' | FileCheck %s
// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(coro.func(coro-expand-yield{tag-prefix=yield}))' | FileCheck %s --check-prefix=TAGGED

// CHECK-LABEL: coro.func @range(%arg0: index) yields index {
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %arg0 step %{{.*}} {
// CHECK-NEXT:      coro.promise "__yielded_value", %[[I]] : index
// CHECK-NEXT:      coro.suspend{{$}}
// CHECK-NEXT:    }
// CHECK-NEXT:    coro.return
// CHECK-NOT:     coro.yield
// TAGGED-LABEL: coro.func @range
// TAGGED:         coro.promise "__yielded_value"
// TAGGED-NEXT:    coro.suspend "yield0"
coro.func @range(%n: index) yields index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    coro.yield %i : index
  }
  coro.return
}

// -----

// Several yields in program order; a tag the coroutine already uses is skipped,
// and non-generator ops are left alone.
// CHECK-LABEL: coro.func @pair(%arg0: vector<2xf32>, %arg1: i1) yields vector<2xf32> {
// CHECK-NEXT:    coro.suspend "yield1"
// CHECK-NEXT:    coro.promise "__yielded_value", %arg0 : vector<2xf32>
// CHECK-NEXT:    coro.suspend{{$}}
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1, ^bb2
// CHECK:       ^bb1:
// CHECK-NEXT:    coro.promise "__yielded_value", %arg0 : vector<2xf32>
// CHECK-NEXT:    coro.suspend{{$}}
// CHECK-NEXT:    coro.return
// TAGGED-LABEL: coro.func @pair
// TAGGED-NEXT:    coro.suspend "yield1"
// TAGGED-NEXT:    coro.promise "__yielded_value"
// TAGGED-NEXT:    coro.suspend "yield0"
// TAGGED:       ^bb1:
// TAGGED-NEXT:    coro.promise "__yielded_value"
// TAGGED-NEXT:    coro.suspend "yield2"
coro.func @pair(%v: vector<2xf32>, %c: i1) yields vector<2xf32> {
  coro.suspend "yield1"
  coro.yield %v : vector<2xf32>
  cf.cond_br %c, ^more, ^done
^more:
  coro.yield %v : vector<2xf32>
  coro.return
^done:
  coro.return
}

// -----

// A coroutine without yields is unchanged.
// CHECK-LABEL: coro.func @plain() {
// CHECK-NEXT:    coro.suspend "a"
// CHECK-NEXT:    coro.return
coro.func @plain() {
  coro.suspend "a"
  coro.return
}

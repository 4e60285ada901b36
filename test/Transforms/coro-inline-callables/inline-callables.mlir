// RUN: coro-opt %s --split-input-file --coro-inline-callables | FileCheck %s

// A single-block callee is cloned in place, here inside a loop; the callable
// itself is left alone.
// CHECK-LABEL: func.func private @scale(
// CHECK-LABEL: coro.func @single_block(%arg0: f32, %arg1: index) {
// CHECK:         scf.for
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %arg0, %arg0 : f32
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[M]], %arg0 : f32
// CHECK-NEXT:      coro.suspend
// CHECK-NEXT:      coro.promise "p", %[[A]] : f32
// CHECK-NOT:     func.call
func.func private @scale(%x: f32) -> f32 {
  %m = arith.mulf %x, %x : f32
  %a = arith.addf %m, %x : f32
  return %a : f32
}
coro.func @single_block(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %y = func.call @scale(%x) : (f32) -> f32
    coro.suspend
    coro.promise "p", %y : f32
  }
  coro.return
}

// -----

// A multi-block callee becomes an scf.execute_region, valid inside scf.if.
// CHECK-LABEL: coro.func @multi_block(%arg0: i1, %arg1: f32, %arg2: f32) {
// CHECK:         scf.if %arg0 {
// CHECK-NEXT:      %[[R:.*]] = scf.execute_region -> f32 {
// CHECK-NEXT:        cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:      ^bb1:
// CHECK-NEXT:        scf.yield %arg1 : f32
// CHECK-NEXT:      ^bb2:
// CHECK-NEXT:        %[[S:.*]] = arith.addf %arg1, %arg2 : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      coro.promise "r", %[[R]] : f32
func.func @pick(%c: i1, %a: f32, %b: f32) -> f32 {
  cf.cond_br %c, ^early, ^late
^early:
  return %a : f32
^late:
  %s = arith.addf %a, %b : f32
  return %s : f32
}
coro.func @multi_block(%c: i1, %a: f32, %b: f32) {
  scf.if %c {
    %r = func.call @pick(%c, %a, %b) : (i1, f32, f32) -> f32
    coro.promise "r", %r : f32
  }
  coro.return
}

// -----

// Calls inside callables are inlined too, to any depth; a callable reached
// twice is inlined twice.
// CHECK-LABEL: coro.func @nested(%arg0: i32) {
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.addi %[[A]], %[[A]] : i32
// CHECK-NEXT:    %[[C:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.muli %[[B]], %[[C]] : i32
// CHECK-NEXT:    coro.promise "v", %[[D]] : i32
// CHECK-NEXT:    coro.return
func.func private @double(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
}
func.func private @quadruple(%x: i32) -> i32 {
  %y = func.call @double(%x) : (i32) -> i32
  %z = func.call @double(%y) : (i32) -> i32
  return %z : i32
}
coro.func @nested(%x: i32) {
  %q = func.call @quadruple(%x) : (i32) -> i32
  %d = func.call @double(%x) : (i32) -> i32
  %p = arith.muli %q, %d : i32
  coro.promise "v", %p : i32
  coro.return
}

// -----

// Declarations, `no_inline` callees and calls outside coroutines stay calls.
// CHECK-LABEL: func.func @outside(
// CHECK-NEXT:    call @body(
// CHECK-LABEL: coro.func @kept(%arg0: f32) {
// CHECK-NEXT:    func.call @external(%arg0)
// CHECK-NEXT:    func.call @opaque(%arg0)
// CHECK-NEXT:    arith.negf %arg0
// CHECK-NEXT:    coro.return
func.func private @external(%x: f32)
func.func private @opaque(%x: f32) attributes {no_inline} {
  return
}
func.func private @body(%x: f32) {
  %n = arith.negf %x : f32
  return
}
func.func @outside(%x: f32) {
  func.call @body(%x) : (f32) -> ()
  return
}
coro.func @kept(%x: f32) {
  func.call @external(%x) : (f32) -> ()
  func.call @opaque(%x) : (f32) -> ()
  func.call @body(%x) : (f32) -> ()
  coro.return
}

// RUN: coro-opt %s --split-input-file --coro-resolve-handles | FileCheck %s

// Nested generators: @outer yields inside its loop over @inner, and
// @consumer loops over @outer. The first round splits @inner (it drives
// nothing) and lowers @outer's loop, so @inner's frame is a local array in
// @outer; the second splits @outer, with that array in its frame, and
// lowers @consumer's loop. @consumer, which nothing drives, stays whole.
coro.func @inner(%n: i32) yields i32 {
  coro.promise "__yielded_value", %n : i32
  coro.suspend
  coro.return
}
coro.func @outer(%n: i32) yields i32 {
  %id = coro.id : index
  coro.for_each @inner[%id](%n : i32) {
  ^bb0(%v: i32):
    %true = arith.constant true
    coro.promise "__yielded_value", %v : i32
    coro.suspend
    coro.for_each.yield %true
  }
  coro.return
}
// CHECK:       coro.split @inner subroutines [@inner__entry, @inner__s1]
// CHECK-LABEL: coro.func @outer(
// CHECK:         %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// CHECK:         scf.while
// CHECK:           scf.index_switch
// CHECK:         } do {
// CHECK:           memref.load %[[FRAME]]
// CHECK:           coro.suspend
// CHECK-NOT:     coro.for_each
// CHECK:         coro.return
// CHECK-LABEL: func.func @outer__entry(
// CHECK:         memref.alloca() : memref<3xi32>
// CHECK:       coro.split @outer subroutines [@outer__entry, @outer__s1]
// CHECK-SAME:    #coro.field<"v0[0]" : i32 at 3 #loc{{[0-9]*}}>, #coro.field<"v0[1]" : i32 at 4 #loc{{[0-9]*}}>, #coro.field<"v0[2]" : i32 at 5 #loc{{[0-9]*}}>
// CHECK-LABEL: coro.func @consumer(
// CHECK-NOT:     coro.for_each
// CHECK:         %[[OUTER:.*]] = memref.alloca() : memref<6xi32>
// CHECK:         scf.while
// CHECK:           scf.index_switch
// CHECK:           case 0 {
// CHECK:           case 1 {
// CHECK:         } do {
// CHECK:           coro.suspend "body"
// CHECK:         memref.store
// CHECK-NOT:   coro.split @consumer
coro.func @consumer(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %zero = arith.constant 0 : i32
  %sum = coro.for_each @outer[%id](%n : i32) iter_args(%zero : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %true = arith.constant true
    coro.suspend "body"
    %next = arith.addi %acc, %v : i32
    coro.for_each.yield %true, %next : i32
  }
  memref.store %sum, %out[%id] : memref<?xi32>
  coro.return
}

// -----

// Without handles, nothing is split.
// CHECK-LABEL: coro.func @plain(
// CHECK-NOT:   coro.split
coro.func @plain(%out: memref<?xi32>) {
  %id = coro.id : index
  %one = arith.constant 1 : i32
  coro.suspend
  memref.store %one, %out[%id] : memref<?xi32>
  coro.return
}

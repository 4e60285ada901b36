// RUN: coro-opt %s --split-input-file | FileCheck %s
// Round trip: custom form -> generic form -> custom form gives the same text.
// RUN: coro-opt %s --split-input-file --mlir-print-op-generic | coro-opt --split-input-file | FileCheck %s

coro.func @f(%x: f32, %out: memref<?xf32>) {
  coro.promise "r", %x : f32
  coro.suspend "next"
  coro.return
}

// CHECK-LABEL: func.func @drive(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[T:[^:]*]]: i32, %[[X:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>, %[[FRAMES:[^:]*]]: memref<?xi32>)
// CHECK:         %[[H:.*]] = coro.handle.create @f[%[[I]]] : !coro.handle<@f>
// CHECK-NEXT:    coro.handle.resume %[[H]](%[[X]], %[[OUT]]) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
// CHECK-NEXT:    coro.handle.resume %[[H]] at "next"(%[[X]], %[[OUT]]) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
// CHECK-NEXT:    coro.handle.resume %[[H]][%[[T]]](%[[X]], %[[OUT]]) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
// CHECK-NEXT:    %{{.*}} = coro.handle.target %[[H]] : !coro.handle<@f>
// CHECK-NEXT:    %{{.*}} = coro.handle.done %[[H]] : !coro.handle<@f>
// CHECK-NEXT:    %{{.*}} = coro.handle.id %[[H]] : !coro.handle<@f>
// CHECK-NEXT:    %{{.*}} = coro.handle.promise %[[H]]["r"] : !coro.handle<@f> -> f32
// CHECK-NEXT:    %[[N:.*]] = coro.handle.frame_words @f : index
// CHECK-NEXT:    coro.handle.store %[[H]], %[[FRAMES]][%[[I]]] of %[[N]] : !coro.handle<@f>, memref<?xi32>
// CHECK-NEXT:    coro.handle.store %[[H]], %[[FRAMES]][%[[I]]] of %[[N]] aos : !coro.handle<@f>, memref<?xi32>
// CHECK-NEXT:    %{{.*}} = coro.handle.load @f %[[FRAMES]][%[[I]]] of %[[N]] : memref<?xi32> -> !coro.handle<@f>
// CHECK-NEXT:    %{{.*}} = coro.handle.load @f %[[FRAMES]][%[[I]]] of %[[N]] aos : memref<?xi32> -> !coro.handle<@f>
func.func @drive(%i: index, %t: i32, %x: f32, %out: memref<?xf32>, %frames: memref<?xi32>) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  coro.handle.resume %h(%x, %out) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
  coro.handle.resume %h at "next"(%x, %out) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
  coro.handle.resume %h[%t](%x, %out) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
  %target = coro.handle.target %h : !coro.handle<@f>
  %done = coro.handle.done %h : !coro.handle<@f>
  %id = coro.handle.id %h : !coro.handle<@f>
  %r = coro.handle.promise %h["r"] : !coro.handle<@f> -> f32
  %n = coro.handle.frame_words @f : index
  coro.handle.store %h, %frames[%i] of %n : !coro.handle<@f>, memref<?xi32>
  coro.handle.store %h, %frames[%i] of %n aos : !coro.handle<@f>, memref<?xi32>
  %l = coro.handle.load @f %frames[%i] of %n : memref<?xi32> -> !coro.handle<@f>
  %a = coro.handle.load @f %frames[%i] of %n aos : memref<?xi32> -> !coro.handle<@f>
  return
}

// -----

coro.func @gen(%n: i32) yields i32 {
  coro.yield %n : i32
  coro.return
}
// CHECK-LABEL: func.func @range_for(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[N:[^:]*]]: i32)
// CHECK:         %{{.*}} = coro.for_each @gen[%[[I]]](%[[N]] : i32) iter_args(%[[N]] : i32) -> (i32) {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT:      %[[SUM:.*]] = arith.addi %[[ACC]], %[[V]] : i32
// CHECK-NEXT:      coro.for_each.yield %{{.*}}, %[[SUM]] : i32
// CHECK-NEXT:    }
// CHECK:         coro.for_each @gen[%[[I]]](%[[N]] : i32) {
// CHECK-NEXT:    ^bb0(%{{.*}}: i32):
// CHECK-NEXT:      coro.for_each.yield %{{.*}}
func.func @range_for(%i: index, %n: i32) -> i32 {
  %true = arith.constant true
  %r = coro.for_each @gen[%i](%n : i32) iter_args(%n : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %sum = arith.addi %acc, %v : i32
    coro.for_each.yield %true, %sum : i32
  }
  coro.for_each @gen[%i](%n : i32) {
  ^bb0(%v: i32):
    coro.for_each.yield %true
  }
  return %r : i32
}

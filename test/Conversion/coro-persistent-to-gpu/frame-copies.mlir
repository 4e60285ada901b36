// RUN: coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=workgroup-size=4 batch=8 shared-memory=224" --canonicalize | FileCheck %s

// With the frames split between workgroup memory (slots 0 and 1 here: 224
// bytes less the scheduler's 208 leave 16 for frames of 8) and the global
// memory extension (slots 2 to 7), where a slot's frame lives is
// known only at run time. A subroutine that accesses the frame at least
// twice as often as it would copy words (s1: 2 loads and 5 stores of word
// 3, against 2 words in and 1 out) runs on the private frame, with one
// branch that copies in and one that copies out. One that accesses it less
// (c2: 2 loads) accesses the slot's frame where it uses it, one branch each
// (canonicalization merges adjacent ones).
// CHECK:       coro.persistent = {h = #coro_plan.persistent<workgroupSize = {{[0-9]+}}, tokens = {{[0-9]+}}, frameWords = 2, batch = 8, sharedSlots = 2,
// CHECK-LABEL: gpu.func @h__pt(
// CHECK-SAME:    %[[EXT:[^:]*]]: memref<?xi32>, %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xi32>)
// CHECK-SAME:    %[[FRAMES:[^ ]*]] : memref<4xi32, #gpu.address_space<workgroup>>)
// CHECK:         %[[PRIVATE:.*]] = memref.alloca() : memref<4xi32>
// CHECK:         scf.for %{{.*}} = %thread_id_x to %{{[0-9]+}} step %c4 {
// CHECK:           %[[SLOT:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:           %[[IN_SHARED:.*]] = arith.cmpi slt, %[[SLOT]], %c2 : index
// The entry (token 0) writes words 2 and 3 where they live.
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[FRAMES]]
// CHECK:             memref.store %{{.*}}, %[[EXT]]
// CHECK:           memref.atomic_rmw addi %c1_i32, %{{.*}}[%c9]
// CHECK:         } else {
// s1 (token 1): words 2 and 3 copied in, in one branch.
// CHECK:           memref.store %c1_i32, %[[PRIVATE]][%c0]
// CHECK:           %[[IN:.*]]:2 = scf.if %[[IN_SHARED]] -> (i32, i32) {
// CHECK:             memref.load %[[FRAMES]]
// CHECK:             memref.load %[[FRAMES]]
// CHECK:           } else {
// CHECK:             memref.load %[[EXT]]
// CHECK:             memref.load %[[EXT]]
// CHECK:           }
// CHECK:           memref.store %[[IN]]#0, %[[PRIVATE]][%c2]
// CHECK:           memref.store %[[IN]]#1, %[[PRIVATE]][%c3]
// The cases write word 3 of the private frame only.
// CHECK:           scf.if
// CHECK-NOT:         memref.store %{{.*}}, %[[FRAMES]]
// CHECK-NOT:         memref.store %{{.*}}, %[[EXT]]
// CHECK:             memref.store %{{.*}}, %[[PRIVATE]][%c3]
// CHECK:             memref.store %c3_i32, %[[PRIVATE]][%c0]
// Word 3 copied out, in one branch.
// CHECK:           %[[OUT:.*]] = memref.load %[[PRIVATE]][%c3]
// CHECK:           scf.if %[[IN_SHARED]] {
// CHECK:             memref.store %[[OUT]], %[[FRAMES]]
// CHECK:           } else {
// CHECK:             memref.store %[[OUT]], %[[EXT]]
// CHECK:           }
// CHECK:           memref.load %[[PRIVATE]][%c0]
// c2 (token 2): in place, no copy. Its two loads are adjacent: once
// canonicalized, they share one branch.
// CHECK:           memref.store %c2_i32, %[[PRIVATE]][%c0]
// CHECK:           %[[C2:.*]]:2 = scf.if %[[IN_SHARED]] -> (i32, i32) {
// CHECK:             memref.load %[[FRAMES]]
// CHECK:             memref.load %[[FRAMES]]
// CHECK:           } else {
// CHECK:             memref.load %[[EXT]]
// CHECK:             memref.load %[[EXT]]
// CHECK:           }
// CHECK-NEXT:      arith.addi %[[C2]]#{{[01]}}, %[[C2]]#{{[01]}} : i32
coro.func @h(%n: index, %out: memref<?xi32>) {
  %i = coro.id : index
  %c1 = arith.constant 1 : index
  %a = memref.load %out[%i] : memref<?xi32>
  %j = arith.addi %i, %c1 : index
  %b = memref.load %out[%j] : memref<?xi32>
  coro.suspend "s1"
  %x = scf.index_switch %n -> i32
  case 0 {
    %x0 = arith.muli %a, %b : i32
    coro.suspend "c0"
    scf.yield %x0 : i32
  }
  case 1 {
    %x1 = arith.subi %a, %b : i32
    coro.suspend "c1"
    scf.yield %x1 : i32
  }
  case 2 {
    %x3 = arith.xori %a, %b : i32
    coro.suspend "c3"
    scf.yield %x3 : i32
  }
  case 3 {
    %x4 = arith.ori %a, %b : i32
    coro.suspend "c4"
    scf.yield %x4 : i32
  }
  default {
    %x2 = arith.addi %a, %b : i32
    coro.suspend "c2"
    scf.yield %x2 : i32
  }
  %s = arith.addi %x, %a : i32
  memref.store %s, %out[%i] : memref<?xi32>
  coro.return
}

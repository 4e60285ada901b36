// RUN: coro-opt %s "--coro-persistent-to-gpu=workgroup-size=4 batch=8 shared-memory=224" --canonicalize | FileCheck %s

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
// @h split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @h__entry(%frame: !coro.frame, %n: index, %out: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  %i = coro.frame.id %frame : index
  %0 = memref.load %out[%i] : memref<?xi32>
  coro.frame.store %0, %frame[0] : i32
  %1 = arith.addi %i, %c1 : index
  %2 = memref.load %out[%1] : memref<?xi32>
  coro.frame.store %2, %frame[1] : i32
  coro.frame.set_target %frame, 1
  return
}
func.func @h__s1(%frame: !coro.frame, %n: index, %out: memref<?xi32>) {
  %0 = coro.frame.load %frame[0] : i32
  %1 = coro.frame.load %frame[1] : i32
  scf.index_switch %n 
  case 0 {
    %2 = arith.muli %0, %1 : i32
    coro.frame.store %2, %frame[3] : i32
    coro.frame.set_target %frame, 3
    scf.yield
  }
  case 1 {
    %2 = arith.subi %0, %1 : i32
    coro.frame.store %2, %frame[4] : i32
    coro.frame.set_target %frame, 4
    scf.yield
  }
  case 2 {
    %2 = arith.xori %0, %1 : i32
    coro.frame.store %2, %frame[5] : i32
    coro.frame.set_target %frame, 5
    scf.yield
  }
  case 3 {
    %2 = arith.ori %0, %1 : i32
    coro.frame.store %2, %frame[6] : i32
    coro.frame.set_target %frame, 6
    scf.yield
  }
  default {
    %2 = arith.addi %0, %1 : i32
    coro.frame.store %2, %frame[2] : i32
    coro.frame.set_target %frame, 2
  }
  return
}
func.func @h__c2(%frame: !coro.frame, %n: index, %out: memref<?xi32>) {
  %i = coro.frame.id %frame : index
  %0 = coro.frame.load %frame[2] : i32
  %1 = coro.frame.load %frame[0] : i32
  %2 = arith.addi %0, %1 : i32
  memref.store %2, %out[%i] : memref<?xi32>
  coro.frame.set_target %frame, -1
  return
}
func.func @h__c0(%frame: !coro.frame, %n: index, %out: memref<?xi32>) {
  %i = coro.frame.id %frame : index
  %0 = coro.frame.load %frame[3] : i32
  %1 = coro.frame.load %frame[0] : i32
  %2 = arith.addi %0, %1 : i32
  memref.store %2, %out[%i] : memref<?xi32>
  coro.frame.set_target %frame, -1
  return
}
func.func @h__c1(%frame: !coro.frame, %n: index, %out: memref<?xi32>) {
  %i = coro.frame.id %frame : index
  %0 = coro.frame.load %frame[4] : i32
  %1 = coro.frame.load %frame[0] : i32
  %2 = arith.addi %0, %1 : i32
  memref.store %2, %out[%i] : memref<?xi32>
  coro.frame.set_target %frame, -1
  return
}
func.func @h__c3(%frame: !coro.frame, %n: index, %out: memref<?xi32>) {
  %i = coro.frame.id %frame : index
  %0 = coro.frame.load %frame[5] : i32
  %1 = coro.frame.load %frame[0] : i32
  %2 = arith.addi %0, %1 : i32
  memref.store %2, %out[%i] : memref<?xi32>
  coro.frame.set_target %frame, -1
  return
}
func.func @h__c4(%frame: !coro.frame, %n: index, %out: memref<?xi32>) {
  %i = coro.frame.id %frame : index
  %0 = coro.frame.load %frame[6] : i32
  %1 = coro.frame.load %frame[0] : i32
  %2 = arith.addi %0, %1 : i32
  memref.store %2, %out[%i] : memref<?xi32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @h subroutines [@h__entry, @h__s1, @h__c2, @h__c0, @h__c1, @h__c3, @h__c4]
    names ["entry", "s1", "c2", "c0", "c1", "c3", "c4"]
    fields [#coro.field<"v0" : i32 at 2>,
            #coro.field<"v1" : i32 at 3>,
            #coro.field<"v2" : i32 at 3>,
            #coro.field<"v3" : i32 at 3>,
            #coro.field<"v4" : i32 at 3>,
            #coro.field<"v5" : i32 at 3>,
            #coro.field<"v6" : i32 at 3>]
    transitions [array<i32: 0, 1>, array<i32: 1, 2>, array<i32: 1, 3>, array<i32: 1, 4>, array<i32: 1, 5>, array<i32: 1, 6>, array<i32: 2, -1>, array<i32: 3, -1>, array<i32: 4, -1>, array<i32: 5, -1>, array<i32: 6, -1>]
    {frame_bytes = {bit_packing = 16 : i64, field_liveness = 36 : i64, naive = 36 : i64, slot_sharing = 16 : i64, split = 36 : i64}, statistics = {ops_recomputed = 5 : i64, values_live = 7 : i64, values_recomputed = 0 : i64, values_stored = 7 : i64}}

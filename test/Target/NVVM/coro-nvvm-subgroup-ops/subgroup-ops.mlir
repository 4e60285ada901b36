// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-subgroup-ops))' | FileCheck %s

// A reduction over the active lanes (not `uniform`) becomes redux.sync over
// the mask activemask.b32 gives, where it was: inside the branch, in asm
// whose text is unique (LLVM merges identical calls across branches). A
// uniform one is left to convert-gpu-to-nvvm; the subgroup size is the warp
// size.
// CHECK-LABEL: gpu.module @kernels
// CHECK-LABEL:   gpu.func @count
// CHECK-SAME:      (%[[C:.*]]: i1, %[[X:.*]]: i32, %[[OUT:.*]]: memref<?xi32>)
// CHECK:           %[[WARP:.*]] = arith.constant 32 : index
// CHECK:           scf.if %[[C]] {
// CHECK-NEXT:        %[[SUM:.*]] = llvm.inline_asm has_side_effects "{ .reg .b32 %coro_mask; activemask.b32 %coro_mask; redux.sync.add.u32 $0, $1, %coro_mask; } // reduction 0", "=r,r" %[[X]] : (i32) -> i32
// CHECK-NEXT:        llvm.inline_asm has_side_effects "{{.*}} redux.sync.min.u32 $0, $1, %coro_mask; } // reduction 1", "=r,r" %[[X]]
// CHECK-NEXT:        llvm.inline_asm has_side_effects "{{.*}} redux.sync.max.s32 $0, $1, %coro_mask; } // reduction 2", "=r,r" %[[X]]
// CHECK:             memref.store %[[SUM]], %[[OUT]][%[[WARP]]]
// CHECK:           gpu.subgroup_reduce add %[[X]] uniform : (i32) -> i32
// CHECK-NOT:       gpu.subgroup_size
gpu.module @kernels attributes {} {
  gpu.func @count(%c: i1, %x: i32, %out: memref<?xi32>) kernel {
    %n = gpu.subgroup_size : index
    scf.if %c {
      %sum = gpu.subgroup_reduce add %x : (i32) -> i32
      %min = gpu.subgroup_reduce minui %x : (i32) -> i32
      %max = gpu.subgroup_reduce maxsi %x : (i32) -> i32
      memref.store %sum, %out[%n] : memref<?xi32>
      %c0 = arith.constant 0 : index
      memref.store %min, %out[%c0] : memref<?xi32>
      memref.store %max, %out[%c0] : memref<?xi32>
    }
    %all = gpu.subgroup_reduce add %x uniform : (i32) -> i32
    %c1 = arith.constant 1 : index
    memref.store %all, %out[%c1] : memref<?xi32>
    gpu.return
  }
}

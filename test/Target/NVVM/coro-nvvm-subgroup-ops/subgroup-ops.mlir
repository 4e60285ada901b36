// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-subgroup-ops))' | FileCheck %s

// A reduction over the active lanes (not `uniform`) becomes redux.sync over
// the mask llvm.nvvm.activemask gives, where it was: inside the branch. A
// uniform one is left to convert-gpu-to-nvvm; the subgroup size is the warp
// size.
// CHECK-LABEL: gpu.module @kernels
// CHECK-LABEL:   gpu.func @count
// CHECK-SAME:      (%[[C:.*]]: i1, %[[X:.*]]: i32, %[[OUT:.*]]: memref<?xi32>)
// CHECK:           %[[WARP:.*]] = arith.constant 32 : index
// CHECK:           scf.if %[[C]] {
// CHECK-NEXT:        %[[MASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK-NEXT:        %[[SUM:.*]] = nvvm.redux.sync add %[[X]], %[[MASK]] : i32 -> i32
// CHECK-NEXT:        %[[MASK2:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK-NEXT:        %[[MIN:.*]] = nvvm.redux.sync umin %[[X]], %[[MASK2]] : i32 -> i32
// CHECK:             %[[MASK3:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK-NEXT:        nvvm.redux.sync max %[[X]], %[[MASK3]] : i32 -> i32
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

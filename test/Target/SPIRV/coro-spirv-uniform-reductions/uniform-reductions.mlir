// RUN: coro-opt %s --pass-pipeline='builtin.module(gpu.module(coro-spirv-uniform-reductions))' | FileCheck %s
// RUN: coro-opt %s --pass-pipeline='builtin.module(gpu.module(coro-spirv-uniform-reductions),convert-gpu-to-spirv)' | FileCheck %s --check-prefix=SPIRV

// A uniform reduction becomes one over the active lanes (all of them, in
// uniform control flow), which convert-gpu-to-spirv lowers; the others are
// left as they are.
// CHECK-LABEL: gpu.func @sums
// CHECK:         gpu.subgroup_reduce add %{{.*}} : (i32) -> i32
// CHECK:         gpu.subgroup_reduce maxui %{{.*}} : (i32) -> i32
// CHECK-NOT:     uniform
// SPIRV-LABEL: spirv.func @sums
// SPIRV:         spirv.GroupNonUniformIAdd <Subgroup> <Reduce> %{{.*}} : i32 -> i32
// SPIRV:         spirv.GroupNonUniformUMax <Subgroup> <Reduce> %{{.*}} : i32 -> i32
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic], []>, #spirv.resource_limits<>>} {
  gpu.module @kernels {
    gpu.func @sums(%x: i32, %out: memref<2xi32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %sum = gpu.subgroup_reduce add %x uniform : (i32) -> i32
      %max = gpu.subgroup_reduce maxui %x : (i32) -> i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      memref.store %sum, %out[%c0] : memref<2xi32, #spirv.storage_class<StorageBuffer>>
      memref.store %max, %out[%c1] : memref<2xi32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

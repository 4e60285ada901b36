// RUN: coro-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-expose-target-env))' \
// RUN:   | FileCheck %s
// RUN: coro-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-expose-target-env, convert-math-to-spirv))' \
// RUN:   | FileCheck %s --check-prefix=MATH

// The module's SPIR-V target becomes its spirv.target_env attribute, where
// convert-math-to-spirv finds Float64 and Float16.
// CHECK-LABEL: gpu.module @kernels
// CHECK-SAME:    attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float64, Float16], []>, #spirv.resource_limits<>>}
// MATH-LABEL: gpu.func @abs(
// MATH:         spirv.GL.FAbs %{{.*}} : f64
// MATH:         spirv.GL.FAbs %{{.*}} : f16
gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float64, Float16], []>, #spirv.resource_limits<>>] {
  gpu.func @abs(%x: f64, %h: f16, %out: memref<2xf64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = math.absf %x : f64
    %b = math.absf %h : f16
    %bx = arith.extf %b : f16 to f64
    memref.store %a, %out[%c0] : memref<2xf64>
    memref.store %bx, %out[%c1] : memref<2xf64>
    gpu.return
  }
}

// -----

// An attribute already there wins; a module without a SPIR-V target keeps
// none.
// CHECK-LABEL: gpu.module @given
// CHECK-SAME:    spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>
// CHECK-LABEL: gpu.module @untargeted
// CHECK-NOT:     spirv.target_env
gpu.module @given [#spirv.target_env<#spirv.vce<v1.3, [Shader, Float64], []>, #spirv.resource_limits<>>] attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
}
gpu.module @untargeted {
}

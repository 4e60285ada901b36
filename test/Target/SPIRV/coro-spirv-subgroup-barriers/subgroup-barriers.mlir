// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(spirv.module(coro-spirv-subgroup-barriers{subgroup-size=8}))' | FileCheck %s
// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(spirv.module(coro-spirv-subgroup-barriers))' | FileCheck %s --check-prefix=UNKNOWN

// A workgroup of one row of 8 invocations is one subgroup of 8: its barriers
// get subgroup scope, and so does a workgroup memory scope; a device memory
// scope stays. A row of 16 keeps its barriers, and so do 4 x 2 invocations
// (lavapipe runs each row on its own: two subgroups to its barriers) and a
// function that is no entry point. With no subgroup size nothing changes.
// CHECK-LABEL: spirv.func @one_subgroup
// CHECK:         spirv.ControlBarrier <Subgroup>, <Subgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
// CHECK:         spirv.ControlBarrier <Subgroup>, <Device>, <AcquireRelease|UniformMemory>
// CHECK-LABEL: spirv.func @two_subgroups
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
// CHECK-LABEL: spirv.func @two_rows
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
// CHECK-LABEL: spirv.func @no_entry
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
// UNKNOWN-LABEL: spirv.func @one_subgroup
// UNKNOWN:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
// UNKNOWN:         spirv.ControlBarrier <Workgroup>, <Device>, <AcquireRelease|UniformMemory>
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.func @one_subgroup() "None" {
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
    spirv.ControlBarrier <Workgroup>, <Device>, <AcquireRelease|UniformMemory>
    spirv.Return
  }
  spirv.func @two_subgroups() "None" {
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
    spirv.Return
  }
  spirv.func @two_rows() "None" {
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
    spirv.Return
  }
  spirv.func @no_entry() "None" {
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @one_subgroup
  spirv.ExecutionMode @one_subgroup "LocalSize", 8, 1, 1
  spirv.EntryPoint "GLCompute" @two_subgroups
  spirv.ExecutionMode @two_subgroups "LocalSize", 16, 1, 1
  spirv.EntryPoint "GLCompute" @two_rows
  spirv.ExecutionMode @two_rows "LocalSize", 4, 2, 1
}

// -----

// A WorkgroupSize built-in overrides LocalSize: nothing changes.
// CHECK-LABEL: spirv.func @sized_by_builtin
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @size built_in("WorkgroupSize") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @sized_by_builtin() "None" {
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @sized_by_builtin
  spirv.ExecutionMode @sized_by_builtin "LocalSize", 8, 1, 1
}

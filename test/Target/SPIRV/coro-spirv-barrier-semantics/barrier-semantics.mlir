// RUN: coro-opt %s --pass-pipeline='builtin.module(spirv.module(coro-spirv-barrier-semantics))' | FileCheck %s

// Barriers that order workgroup memory also order storage buffers, as
// gpu.barrier promises; other barriers and atomics stay as they are.
// CHECK-LABEL: spirv.func @barriers
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <None>
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
// CHECK:         spirv.AtomicIAdd <Device> <AcquireRelease|WorkgroupMemory>
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.func @barriers(%p: !spirv.ptr<i32, StorageBuffer>, %v: i32) "None" {
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <None>
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
    %0 = spirv.AtomicIAdd <Device> <AcquireRelease|WorkgroupMemory> %p, %v : !spirv.ptr<i32, StorageBuffer>
    spirv.Return
  }
}

// RUN: coro-opt %s --pass-pipeline='builtin.module(spirv.module(coro-spirv-relaxed-atomics))' | FileCheck %s

// Atomic read-modify-writes get relaxed semantics, as glslang gives
// atomicAdd; barriers keep theirs.
// CHECK-LABEL: spirv.func @count
// CHECK:         spirv.AtomicIAdd <Device> <None>
// CHECK:         spirv.AtomicUMax <Device> <None>
// CHECK:         spirv.AtomicCompareExchange <Device> <None> <None>
// CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.func @count(%p: !spirv.ptr<i32, StorageBuffer>, %v: i32) "None" {
    %0 = spirv.AtomicIAdd <Device> <AcquireRelease> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %1 = spirv.AtomicUMax <Device> <AcquireRelease> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %2 = spirv.AtomicCompareExchange <Device> <AcquireRelease> <AcquireRelease> %p, %v, %v : !spirv.ptr<i32, StorageBuffer>
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Return
  }
}

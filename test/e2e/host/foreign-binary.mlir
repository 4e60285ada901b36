// A gpu.binary that coro-host-launches-to-gpu did not make (here, from an
// upstream pipeline) is an error of the wrappers at load time, not a crash.
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm | not %run_host 2>&1 | FileCheck %s
// CHECK: coro-runtime-wrappers: error: not an object of host kernels (it does not start with "coro-host-kernels v2"); compile the host program with coro-host-to-llvm
module attributes {gpu.container_module} {
  gpu.binary @other [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>, "BLOB">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @other::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

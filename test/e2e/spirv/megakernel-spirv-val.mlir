// Every e2e program lowers to Vulkan SPIR-V with the mega-kernel scheduler,
// and spirv-val accepts the binary for Vulkan 1.2.
// REQUIRES: spirv-val
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-opt %coro_src/test/e2e/cpu/front-end.mlir --coro-megakernel-to-spirv --coro-write-kernels=output-dir=%t/front-end -o /dev/null
// RUN: spirv-val --target-env vulkan1.2 %t/front-end/__spv__coro_kernels.spv
// RUN: coro-opt %coro_src/test/e2e/cpu/split-constructs.mlir --coro-megakernel-to-spirv --coro-write-kernels=output-dir=%t/constructs -o /dev/null
// RUN: spirv-val --target-env vulkan1.2 %t/constructs/__spv__coro_kernels.spv
// RUN: coro-opt %coro_src/test/e2e/cpu/loop-break.mlir --coro-megakernel-to-spirv --coro-write-kernels=output-dir=%t/loop-break -o /dev/null
// RUN: spirv-val --target-env vulkan1.2 %t/loop-break/__spv__coro_kernels.spv
// RUN: coro-opt %coro_src/examples/shade.mlir --coro-megakernel-to-spirv --coro-write-kernels=output-dir=%t/shade -o /dev/null
// RUN: spirv-val --target-env vulkan1.2 %t/shade/__spv__coro_kernels.spv
// One entry point per coroutine:
// RUN: spirv-dis %t/constructs/__spv__coro_kernels.spv | FileCheck %s
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "while_both"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "nested3"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "continue_loop"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "early_return"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "vectors"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "if_else"

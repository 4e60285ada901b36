// Every e2e program lowers to Vulkan SPIR-V under each GPU scheduler, and
// spirv-val accepts the binary for Vulkan 1.2.
// REQUIRES: spirv-val, spirv-dis
// RUN: rm -rf %t && mkdir -p %t
// RUN: for scheduler in megakernel state-machine; do \
// RUN:   for program in %coro_src/test/e2e/cpu/front-end.mlir %coro_src/test/e2e/cpu/split-constructs.mlir %coro_src/test/e2e/cpu/loop-break.mlir %coro_src/examples/shade.mlir; do \
// RUN:     out=%t/$scheduler/$(basename $program .mlir); \
// RUN:     coro-opt $program --coro-to-spirv=scheduler=$scheduler --coro-write-kernels=output-dir=$out -o /dev/null && \
// RUN:     spirv-val --target-env vulkan1.2 $out/__spv__coro_kernels.spv || exit 1; \
// RUN:   done; \
// RUN: done
// One entry point per coroutine:
// RUN: spirv-dis %t/state-machine/split-constructs/__spv__coro_kernels.spv | FileCheck %s
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "while_both"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "nested3"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "continue_loop"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "early_return"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "vectors"
// CHECK-DAG: OpEntryPoint GLCompute %{{.*}} "if_else"

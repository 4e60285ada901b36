// spirv-val accepts what the SPIR-V path emits for Vulkan 1.2. The e2e
// corpus goes through spirv-val in test/e2e/corpus (suites spirv-val/*).
// REQUIRES: spirv-val, spirv-dis
// One entry point for the coroutine coro-run compiles (of a file of
// several, it compiles the one it names and what that reaches), and the
// narrow types are native (the pipeline enables Int8, Int16 and Float16
// where kernels use them):
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --scheduler=state-machine --emit=spirv --emit-to=%t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=ENTRY
// ENTRY: OpEntryPoint GLCompute %{{.*}} "while_both"
// ENTRY-NOT: OpEntryPoint
// RUN: coro-run %coro_src/test/e2e/programs/float-widths.mlir --coro=float_widths --scheduler=state-machine --emit=spirv --emit-to=%t.narrow.spv
// RUN: spirv-dis %t.narrow.spv | FileCheck %s --check-prefix=NARROW
// NARROW-DAG: OpCapability Float16
// NARROW-DAG: OpTypeFloat 16
// The BVH path tracer of the benchmarks, under every scheduler:
// RUN: for scheduler in megakernel state-machine wavefront; do \
// RUN:   coro-run %coro_src/benchmarks/pathtracer/pathtracer.mlir --coro=path_trace --scheduler=$scheduler --emit=spirv --emit-to=%t.pt.spv && \
// RUN:   spirv-val --target-env vulkan1.2 %t.pt.spv && echo "valid $scheduler" || exit 1; \
// RUN: done | FileCheck %s --check-prefix=PATHTRACER
// PATHTRACER: valid megakernel
// PATHTRACER: valid state-machine
// PATHTRACER: valid wavefront

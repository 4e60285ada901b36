// On CUDA, gpu.printf is vprintf (the NVVM conversion), with the same
// prefix as on Vulkan (coro-prefix-printf); ptxas accepts the PTX of every
// scheduler. (Running it needs an NVIDIA GPU: scripts/device.)
// REQUIRES: ptxas
// RUN: for scheduler in megakernel state-machine wavefront persistent; do \
// RUN:   coro-run %S/../vulkan/printf.mlir --coro=prints --scheduler=$scheduler --emit=ptx --chip=sm_90 --emit-to=%t.$scheduler.ptx || exit 1; \
// RUN:   %ptxas -arch=sm_90 %t.$scheduler.ptx -o /dev/null || exit 1; \
// RUN:   grep -c 'call.uni (retval0), vprintf' %t.$scheduler.ptx; \
// RUN: done | FileCheck %s
// Each scheduler's kernels call vprintf:
// CHECK-COUNT-4: {{^[1-9][0-9]*$}}

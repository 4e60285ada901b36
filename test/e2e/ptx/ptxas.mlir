// ptxas accepts the PTX of the benchmarks' kernels. The e2e corpus goes
// through ptxas in test/e2e/corpus (suites ptxas/<chip>/*, for sm_75, sm_80
// and sm_90).
// REQUIRES: ptxas
// The BVH path tracer of the benchmarks, under every scheduler (Table-2
// style: the mega-kernel's registers next to each subroutine's). Its sin and
// cos are libdevice calls, linked from the CUDA toolkit the pipeline finds:
// RUN: for scheduler in megakernel state-machine wavefront persistent; do \
// RUN:   coro-run %coro_src/benchmarks/pathtracer/pathtracer.mlir --coro=path_trace --scheduler=$scheduler --emit=ptx --chip=sm_90 --emit-to=%t.pt.$scheduler.ptx && \
// RUN:   %ptxas -arch=sm_90 -v %t.pt.$scheduler.ptx -o /dev/null 2>&1 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=PATHTRACER
// PATHTRACER: Compiling entry function 'path_trace' for 'sm_90'
// PATHTRACER: Used {{[0-9]+}} registers
// PATHTRACER: Compiling entry function 'path_trace' for 'sm_90'
// PATHTRACER-DAG: Compiling entry function 'path_trace__wf_1' for 'sm_90'
// PATHTRACER-DAG: Compiling entry function 'path_trace__wf_4' for 'sm_90'
// PATHTRACER: Compiling entry function 'path_trace__pt' for 'sm_90'
// PATHTRACER: Used {{[0-9]+}} registers

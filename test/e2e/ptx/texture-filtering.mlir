// The kernels of the Sec. 7.3 host program (benchmarks/texture-filtering)
// as PTX, which ptxas accepts: each coroutine the host program launches
// under the mega-kernel (coro-run compiles the one it names and what it
// reaches), the drivers with @tex_path's subroutines inlined.
// REQUIRES: ptxas
// RUN: for coroutine in uv_derivs pt_start pt_continue; do \
// RUN:   coro-run %coro_src/benchmarks/texture-filtering/texture-filtering.mlir --coro=$coroutine --emit=ptx --chip=sm_90 --emit-to=%t.$coroutine.ptx && \
// RUN:   %ptxas -arch=sm_90 %t.$coroutine.ptx -o /dev/null || exit 1; \
// RUN: done
// RUN: FileCheck %s --check-prefix=UV < %t.uv_derivs.ptx
// RUN: FileCheck %s --check-prefix=START < %t.pt_start.ptx
// RUN: FileCheck %s --check-prefix=CONTINUE < %t.pt_continue.ptx
// UV: .entry uv_derivs(
// START: .entry pt_start(
// CONTINUE: .entry pt_continue(
// CONTINUE-NOT: .entry pt_start(

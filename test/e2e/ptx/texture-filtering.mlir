// The kernels of the Sec. 7.3 host program (benchmarks/texture-filtering)
// as PTX, which ptxas accepts: every coroutine of the file under the
// mega-kernel, the drivers with @tex_path's subroutines inlined.
// REQUIRES: ptxas
// RUN: coro-run %coro_src/benchmarks/texture-filtering/texture-filtering.mlir --coro=pt_continue --emit=ptx --chip=sm_90 --emit-to=%t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o /dev/null
// RUN: FileCheck %s < %t.ptx
// CHECK-DAG: .entry uv_derivs(
// CHECK-DAG: .entry pt_start(
// CHECK-DAG: .entry pt_continue(

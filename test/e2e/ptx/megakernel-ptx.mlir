// Every e2e program lowers to PTX with the mega-kernel scheduler (no CUDA
// needed for that); where the CUDA toolkit is installed, ptxas accepts it
// for sm_75, sm_80 and sm_90 and reports the registers of each kernel.
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-opt %coro_src/test/e2e/cpu/split-constructs.mlir --coro-megakernel-to-ptx=chip=sm_90 --coro-write-kernels=output-dir=%t/sm_90 -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90/coro_kernels.sm_90.ptx
// PTX: .target sm_90
// PTX-DAG: .entry while_both(
// PTX-DAG: .entry nested3(
// PTX-DAG: .entry continue_loop(
// PTX-DAG: .entry early_return(
// PTX-DAG: .entry vectors(
// PTX-DAG: .entry if_else(

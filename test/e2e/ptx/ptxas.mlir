// ptxas accepts the PTX of every e2e program under each GPU scheduler, for
// sm_75 (the oldest CUDA 13 supports), sm_80 and sm_90, and reports the
// registers of each kernel.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: for scheduler in megakernel state-machine; do \
// RUN:   for chip in sm_75 sm_80 sm_90; do \
// RUN:     for program in %coro_src/test/e2e/cpu/front-end.mlir %coro_src/test/e2e/cpu/split-constructs.mlir %coro_src/test/e2e/cpu/loop-break.mlir %coro_src/examples/shade.mlir; do \
// RUN:       out=%t/$scheduler/$chip/$(basename $program .mlir); \
// RUN:       coro-opt $program "--coro-to-ptx=scheduler=$scheduler chip=$chip" --coro-write-kernels=output-dir=$out -o /dev/null && \
// RUN:       %ptxas -arch=$chip $out/coro_kernels.$chip.ptx -o /dev/null || exit 1; \
// RUN:     done; \
// RUN:   done; \
// RUN: done
// RUN: %ptxas -arch=sm_90 -v %t/state-machine/sm_90/split-constructs/coro_kernels.sm_90.ptx -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: Compiling entry function 'while_both' for 'sm_90'
// CHECK-DAG: Compiling entry function 'nested3' for 'sm_90'
// CHECK-DAG: Compiling entry function 'if_else' for 'sm_90'
// CHECK: Used {{[0-9]+}} registers

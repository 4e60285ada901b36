// ptxas accepts the PTX of every e2e program and reports registers per kernel.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-opt %coro_src/test/e2e/cpu/split-constructs.mlir --coro-megakernel-to-ptx=chip=sm_90 --coro-write-kernels=output-dir=%t -o /dev/null
// RUN: %ptxas -arch=sm_90 -v %t/coro_kernels.sm_90.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: coro-opt %coro_src/test/e2e/cpu/front-end.mlir --coro-megakernel-to-ptx=chip=sm_80 --coro-write-kernels=output-dir=%t -o /dev/null
// RUN: %ptxas -arch=sm_80 %t/coro_kernels.sm_80.ptx -o /dev/null
// RUN: coro-opt %coro_src/test/e2e/cpu/loop-break.mlir --coro-megakernel-to-ptx=chip=sm_75 --coro-write-kernels=output-dir=%t -o /dev/null
// RUN: %ptxas -arch=sm_75 %t/coro_kernels.sm_75.ptx -o /dev/null
// RUN: coro-opt %coro_src/examples/shade.mlir --coro-megakernel-to-ptx=chip=sm_90 --coro-write-kernels=output-dir=%t/shade -o /dev/null
// RUN: %ptxas -arch=sm_90 %t/shade/coro_kernels.sm_90.ptx -o /dev/null

// CHECK-DAG: Compiling entry function 'while_both' for 'sm_90'
// CHECK-DAG: Compiling entry function 'nested3' for 'sm_90'
// CHECK-DAG: Compiling entry function 'if_else' for 'sm_90'
// CHECK: Used {{[0-9]+}} registers

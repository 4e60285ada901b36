// The host program of test/e2e/host/launches.mlir on the CUDA backend: its
// coroutines and kernels compiled to PTX (for sm_70, which later GPUs run
// through the driver), the same values under every scheduler.
// REQUIRES: cuda-driver
// RUN: coro-opt %coro_src/test/e2e/host/launches.mlir "--coro-host-to-llvm=target=sm_70 scheduler=megakernel" | %run_host | FileCheck %coro_src/test/e2e/host/launches.mlir
// RUN: coro-opt %coro_src/test/e2e/host/launches.mlir "--coro-host-to-llvm=target=sm_70 scheduler=state-machine" | %run_host | FileCheck %coro_src/test/e2e/host/launches.mlir
// RUN: coro-opt %coro_src/test/e2e/host/launches.mlir "--coro-host-to-llvm=target=sm_70 scheduler=wavefront" | %run_host | FileCheck %coro_src/test/e2e/host/launches.mlir
// RUN: coro-opt %coro_src/test/e2e/host/launches.mlir "--coro-host-to-llvm=target=sm_70 scheduler=persistent" | %run_host | FileCheck %coro_src/test/e2e/host/launches.mlir

// The CUDA backend runs a coroutine where an NVIDIA GPU and driver are
// present. The e2e corpus runs on it under every scheduler in
// test/e2e/corpus (suites cuda/*).
// REQUIRES: cuda-driver
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=nested3 --grid=4 --arg=2 --buffer=f32:4:zeros --backend=cuda | FileCheck %s --check-prefix=VALUES
// VALUES: buffer 0 (f32 x 4): [0, 4, 8, 12]

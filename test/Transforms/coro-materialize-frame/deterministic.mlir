// The same input gives the same output, run after run: upstream SROA
// creates the allocas of a destructured local array in the order of a
// pointer set, which changed between runs (6 runs gave 6 different outputs
// for test/e2e/programs/local-arrays.mlir); coro-materialize-frame puts them
// in the order of their first uses.
// RUN: coro-opt %coro_src/test/e2e/programs/local-arrays.mlir --coro-split --coro-materialize-frame > %t.0
// RUN: for i in 1 2 3 4 5; do \
// RUN:   coro-opt %coro_src/test/e2e/programs/local-arrays.mlir --coro-split --coro-materialize-frame > %t.$i && diff %t.0 %t.$i || exit 1; \
// RUN: done
// RUN: FileCheck %s < %t.0
// CHECK: coro.split @local_arrays

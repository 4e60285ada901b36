// On a CPU device (lavapipe) coro-run gives the persistent-threads kernel one
// subgroup per workgroup and 64 slots unless told otherwise (lavapipe runs a
// workgroup's subgroups in turn, switching at every barrier; see
// docs/schedulers.md). 200 instances: 64-slot batches make 4 batches for 4
// workgroups; with --persistent-batch=256 (the default elsewhere) one batch
// for one workgroup. The instance counts per subroutine are the same.
// REQUIRES: lavapipe
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=200 --buffer=f32:200:zeros --scheduler=persistent --scheduler-stats --check --quiet | FileCheck %s --check-prefix=CPU
// CPU: persistent: 4 workgroups, 1 launch, {{[0-9]+}} steps, 4 batches, global memory extension 0 bytes
// CPU: check: persistent matches the mega-kernel reference
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=200 --buffer=f32:200:zeros --scheduler=persistent --persistent-batch=256 --scheduler-stats --check --quiet | FileCheck %s --check-prefix=GIVEN
// GIVEN: persistent: 1 workgroup, 1 launch, {{[0-9]+}} steps, 1 batch, global memory extension {{[0-9]+}} bytes
// GIVEN: check: persistent matches the mega-kernel reference

// On a CPU device (lavapipe) coro-run gives the persistent-threads kernel one
// subgroup per workgroup and 4 slots per thread unless told otherwise
// (lavapipe runs a workgroup's subgroups in turn, switching at every barrier;
// see docs/schedulers.md), and bounded steps (each workgroup parks its
// slots in its park area of the extension after the steps a budget of loop
// passes allows, and takes more batches per launch). 200 instances on
// lavapipe's subgroups of 8: 8 threads and 32 slots per workgroup, 7
// workgroups; with 16 resident threads, 2 workgroups of 8 threads (and 1 of
// 64 threads with --persistent-workgroup-size=64, whose batch is then 256:
// 1 batch). The instance counts per subroutine are the same.
// REQUIRES: lavapipe
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=200 --buffer=f32:200:zeros --scheduler=persistent --scheduler-stats --check --quiet | FileCheck %s --check-prefix=CPU
// CPU: persistent: 7 workgroups, {{[0-9]+}} launch{{(es)?}}, {{[0-9]+}} steps, {{[0-9]+}} batches, global memory extension {{[1-9][0-9]*}} bytes
// CPU: persistent: dispatch by fall-through
// CPU: check: persistent matches the mega-kernel reference
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=200 --buffer=f32:200:zeros --scheduler=persistent --persistent-threads=16 --scheduler-stats --check --quiet | FileCheck %s --check-prefix=THREADS
// THREADS: persistent: 2 workgroups, {{[0-9]+}} launch{{(es)?}}, {{[0-9]+}} steps, {{[0-9]+}} batches
// THREADS: check: persistent matches the mega-kernel reference
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=200 --buffer=f32:200:zeros --scheduler=persistent --persistent-workgroup-size=64 --persistent-threads=16 --scheduler-stats --check --quiet | FileCheck %s --check-prefix=GIVEN
// GIVEN: persistent: 1 workgroup, 1 launch, {{[0-9]+}} steps, 1 batch, global memory extension {{[0-9]+}} bytes
// GIVEN: check: persistent matches the mega-kernel reference

// The dispatch of the state machine and the persistent kernel is by
// fall-through on a CPU device (lavapipe runs every branch, taken or not),
// except for a profiled state machine, which keeps the switch.
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=200 --buffer=f32:200:zeros --scheduler=state-machine --json | FileCheck %s --check-prefix=SM
// SM: "state_machine": {
// SM-NEXT: "dispatch": "fall-through"
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=200 --buffer=f32:200:zeros --scheduler=state-machine --state-machine-steps=1 --profile-lanes --json | FileCheck %s --check-prefix=SM-PROFILED
// SM-PROFILED: "state_machine": {
// SM-PROFILED-NEXT: "dispatch": "switch"

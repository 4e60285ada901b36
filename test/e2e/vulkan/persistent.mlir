// The persistent-threads scheduler on Vulkan. The e2e corpus runs under it
// in test/e2e/corpus (suites vulkan/persistent*: the defaults, the global
// memory extension, small batches and odd workgroup sizes).
// REQUIRES: vulkan

// What the scheduler did, for a program whose instance i suspends i + 1
// times at "before" and i times at "after": over 37 instances the
// subroutines run 37, 703 and 666 times. 128 threads of 64 would be 2
// workgroups; 16-slot batches (fewer than a workgroup's threads) are taken
// only by an empty workgroup: 16, 16, then the last 5.
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=37 --buffer=f32:37:zeros --scheduler=persistent --persistent-workgroup-size=64 --persistent-batch=16 --persistent-threads=128 --persistent-steps=0 --scheduler-stats --check --quiet | FileCheck %s --check-prefix=STATS
// STATS: persistent: 2 workgroups, 2 launches, {{[0-9]+}} steps, 3 batches, global memory extension 0 bytes
// STATS: persistent: instances per subroutine: entry:37 before:703 after:666
// STATS: check: persistent matches the mega-kernel reference

// A kernel larger than the device allows is refused before it is launched.
// RUN: not coro-run %coro_src/examples/shade.mlir --coro=shade --grid=16 --arg=3 --buffer=f32:16:zeros --scheduler=persistent --persistent-workgroup-size=4096 2>&1 | FileCheck %s --check-prefix=LIMITS
// LIMITS: coro-run: error: persistent: the persistent-threads kernel of 'shade' needs 4096 threads and {{[0-9]+}} bytes of workgroup memory per workgroup; {{.*}} has at most {{[0-9]+}} and {{[0-9]+}}

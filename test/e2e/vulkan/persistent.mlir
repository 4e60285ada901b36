// Every coroutine of the e2e corpus (test/e2e/corpus.txt) runs on Vulkan
// under the persistent-threads scheduler, with the Khronos validation
// layer, and --check compares every buffer with the mega-kernel reference,
// for the option combinations that change what the kernel does:
//   - the defaults: 256 slots per workgroup, every frame in workgroup
//     memory (16 KiB), SoA;
//   - AoS, 100 slots, 2 KiB of workgroup memory: most frames in the global
//     memory extension, a few in workgroup memory;
//   - 3 slots for 64 threads (batches only once a workgroup is empty);
//   - one thread per workgroup with 3 slots: a batch whenever a slot is
//     free, while the others are still running;
//   - 48 threads (not a power of two), 500 slots with nearly every frame in
//     the extension, 2 workgroups;
//   - AoS, a single workgroup of 64 slots that takes the whole grid.
// REQUIRES: vulkan
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=persistent --validate | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=persistent --validate --layout=aos --persistent-batch=100 --persistent-shared-memory=2048 | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=persistent --validate --persistent-batch=3 --persistent-threads=64 | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=persistent --validate --persistent-workgroup-size=1 --persistent-batch=3 --persistent-threads=2 | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=persistent --validate --persistent-workgroup-size=48 --persistent-batch=500 --persistent-shared-memory=6400 --persistent-threads=96 | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=persistent --validate --layout=aos --persistent-batch=64 --persistent-shared-memory=1024 --persistent-threads=1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS test/e2e/cpu/path-tracer.mlir trace_paths
// CHECK-NOT: FAIL
// CHECK: corpus: {{[0-9]+}} passed, 0 failed

// What the scheduler did, for a program whose instance i suspends i + 1
// times at "before" and i times at "after": over 37 instances the
// subroutines run 37, 703 and 666 times. 128 threads of 64 would be 2
// workgroups; 16-slot batches (fewer than a workgroup's threads) are taken
// only by an empty workgroup: 16, 16, then the last 5.
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=37 --buffer=f32:37:zeros --scheduler=persistent --persistent-batch=16 --persistent-threads=128 --scheduler-stats --check --quiet | FileCheck %s --check-prefix=STATS
// STATS: persistent: 2 workgroups, 2 launches, {{[0-9]+}} steps, 3 batches, global memory extension 0 bytes
// STATS: persistent: instances per subroutine: 0:37 1:703 2:666
// STATS: check: persistent matches the mega-kernel reference

// A kernel larger than the device allows is refused before it is launched.
// RUN: not coro-run %coro_src/examples/shade.mlir --coro=shade --grid=16 --arg=3 --buffer=f32:16:zeros --scheduler=persistent --persistent-workgroup-size=4096 2>&1 | FileCheck %s --check-prefix=LIMITS
// LIMITS: coro-run: error: persistent: the persistent-threads kernel of 'shade' needs 4096 threads and {{[0-9]+}} bytes of workgroup memory per workgroup; {{.*}} has at most {{[0-9]+}} and {{[0-9]+}}

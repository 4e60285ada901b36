// The queue design's queues take 2 x tokens + 2 words per slot, more than
// shade's frames (4 subroutines, 5 frame words): a capacity whose queues
// pass the device's largest buffer (lavapipe: 2^27 bytes) is an error
// before any launch, not a buffer the driver would not bind.
// REQUIRES: lavapipe
// RUN: not coro-run %coro_src/examples/shade.mlir --coro=shade --grid=70 --arg=5 --buffer=f32:70:const=3 --scheduler=wavefront --capacity=4000000 2>&1 | FileCheck %s
// CHECK: coro-run: error: wavefront: a wavefront buffer of 4000000 slots (160000000 bytes) is larger than llvmpipe {{.*}}'s largest buffer (134217728 bytes); lower the capacity
// The default capacity stays within it, also for a larger grid: 2^27 / 40
// bytes per slot = 3355443 slots take the first instances (stopped after
// the first round).
// RUN: not coro-run %coro_src/examples/shade.mlir --coro=shade --grid=4000000 --arg=5 --buffer=f32:4000000:const=3 --scheduler=wavefront --max-rounds=1 --rounds-per-check=1 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: coro-run: error: wavefront: the wavefront scheduler stopped after 1 rounds (1 rounds, 3355443 of 4000000 instances started

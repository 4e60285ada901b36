// Where an NVIDIA GPU and driver are present, the e2e coroutines run on the
// CUDA backend under both schedulers and --check against the mega-kernel.
// REQUIRES: cuda-driver
// RUN: for scheduler in megakernel state-machine; do \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=nested3 --grid=37 --arg=3 --buffer=f32:37:zeros --backend=cuda --scheduler=$scheduler --check --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=37 --buffer=f32:37:zeros --backend=cuda --scheduler=$scheduler --check --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/front-end.mlir --coro=render --grid=5,3 --buffer=f32:15:zeros --backend=cuda --scheduler=$scheduler --check --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/loop-break.mlir --coro=partial_sums --grid=100 --arg=7 --buffer=f32:100:zeros --backend=cuda --scheduler=$scheduler --check --quiet || exit 1; \
// RUN: done | FileCheck %s
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=nested3 --grid=4 --arg=2 --buffer=f32:4:zeros --backend=cuda | FileCheck %s --check-prefix=VALUES
// CHECK-COUNT-8: check: {{.*}} matches the mega-kernel reference on
// VALUES: buffer 0 (f32 x 4): [0, 4, 8, 12]

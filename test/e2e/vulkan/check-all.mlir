// Every e2e coroutine runs on Vulkan (lavapipe without a GPU) under every
// scheduler, with the Khronos validation layer, and --check compares every
// buffer with the mega-kernel reference.
// REQUIRES: vulkan
// RUN: for scheduler in megakernel state-machine; do \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=while_both --grid=37 --buffer=f32:37:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=nested3 --grid=37 --arg=3 --buffer=f32:37:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=continue_loop --grid=37 --buffer=f32:37:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=early_return --grid=37 --buffer=f32:37:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=vectors --grid=37 --buffer=f32:37:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=if_else --grid=37 --buffer=f32:37:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/front-end.mlir --coro=render --grid=5,3 --buffer=f32:15:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/loop-break.mlir --coro=partial_sums --grid=100 --arg=7 --buffer=f32:100:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/test/e2e/cpu/path-tracer.mlir --coro=trace_paths --grid=48 --arg=4 --buffer=f32:48:zeros --scheduler=$scheduler --check --validate --quiet && \
// RUN:   coro-run %coro_src/examples/shade.mlir --coro=shade --grid=70 --arg=5 --buffer=f32:70:const=3 --scheduler=$scheduler --check --validate --quiet || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-20: check: {{.*}} matches the mega-kernel reference on

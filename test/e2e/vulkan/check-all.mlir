// Every coroutine of the e2e corpus (test/e2e/corpus.txt) runs on Vulkan
// (lavapipe without a GPU) under every scheduler, with the Khronos validation
// layer, and --check compares every buffer with the mega-kernel reference.
// run-corpus.py fails (and this test with it) if an entry fails or fewer
// than --min entries ran.
// REQUIRES: vulkan
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=megakernel --validate | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=state-machine --validate | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS test/e2e/cpu/split-constructs.mlir while_both
// CHECK-NOT: FAIL
// CHECK: PASS test/e2e/programs/int-widths.mlir int_widths
// CHECK-NOT: FAIL
// CHECK: corpus: {{[0-9]+}} passed, 0 failed

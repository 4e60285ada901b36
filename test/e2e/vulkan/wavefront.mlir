// Every coroutine of the e2e corpus (test/e2e/corpus.txt) runs on Vulkan
// under the wavefront scheduler, with the Khronos validation layer, and
// --check compares every buffer with the mega-kernel reference, for the
// option combinations that change what the kernels do:
//   - SoA frames, one slot per instance (no refill after the first round);
//   - AoS, 3 slots (many in-place refills), compaction below 50 %;
//   - SoA, 1000 slots (more than any grid), compaction below 90 %, only the
//     largest queue each round, refill when fewer than half are alive;
//   - AoS, a single slot: one instance at a time, 64 rounds per submission;
//   - sorting each queue by an integer promise (hint), SoA and AoS, on the
//     programs that have one.
// REQUIRES: vulkan
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=wavefront --validate | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=wavefront --validate --layout=aos --capacity=3 --compact-below=50 | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=wavefront --validate --capacity=1000 --compact-below=90 --order=most-first --refill=half | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --scheduler=wavefront --validate --layout=aos --capacity=1 --rounds-per-check=64 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS test/e2e/cpu/path-tracer.mlir trace_paths
// CHECK-NOT: FAIL
// CHECK: corpus: {{[0-9]+}} passed, 0 failed

// RUN: for layout in soa aos; do \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --filter material-sort -- --scheduler=wavefront --validate --layout=$layout --capacity=17 --sort-by=material --hint-buckets=8 && \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --filter promises -- --scheduler=wavefront --validate --layout=$layout --sort-by=steps --hint-buckets=4 && \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --filter promised-values -- --scheduler=wavefront --validate --layout=$layout --capacity=9 --sort-by=kind --hint-buckets=16 && \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --filter generator -- --scheduler=wavefront --validate --layout=$layout --capacity=30 --sort-by=__yielded_value || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SORT
// SORT-COUNT-8: corpus: 1 passed, 0 failed

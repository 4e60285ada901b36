// ptxas accepts the PTX of every coroutine of the e2e corpus
// (test/e2e/corpus.txt) under each GPU scheduler, for sm_75 (the oldest
// CUDA 13 supports), sm_80 and sm_90; run-corpus.py prints the registers
// and stack bytes of each coroutine's kernel.
// REQUIRES: ptxas
// RUN: for chip in sm_75 sm_80 sm_90; do \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 26 -- --scheduler=megakernel || exit 1; \
// RUN: done | FileCheck %s
// RUN: for chip in sm_75 sm_80 sm_90; do \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 26 -- --scheduler=state-machine || exit 1; \
// RUN: done | FileCheck %s
// CHECK: PASS test/e2e/cpu/split-constructs.mlir while_both sm_75: {{[0-9]+}} registers, {{[0-9]+}} bytes stack
// CHECK: PASS test/e2e/programs/local-arrays.mlir local_arrays sm_75: {{[0-9]+}} registers, {{[0-9]+}} bytes stack
// CHECK: corpus: {{[0-9]+}} passed, 0 failed
// CHECK: PASS test/e2e/cpu/split-constructs.mlir while_both sm_80:
// CHECK: corpus: {{[0-9]+}} passed, 0 failed
// CHECK: PASS test/e2e/cpu/split-constructs.mlir while_both sm_90:
// CHECK: corpus: {{[0-9]+}} passed, 0 failed
// The wavefront scheduler's kernels (scheduling and one per subroutine),
// AoS and SoA, and with queues sorted by a promise:
// RUN: for chip in sm_75 sm_90; do \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 28 -- --scheduler=wavefront --layout=aos || exit 1; \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --filter material-sort -- --scheduler=wavefront --sort-by=material || exit 1; \
// RUN: done | FileCheck %s --check-prefix=WAVEFRONT
// WAVEFRONT: PASS test/e2e/programs/material-sort.mlir material_sort sm_75: 0 {{[0-9]+}} registers, {{[0-9]+}} bytes stack, 1 {{[0-9]+}} registers, {{[0-9]+}} bytes stack, classify {{[0-9]+}} registers, {{.*}}, scan {{[0-9]+}} registers
// WAVEFRONT: corpus: {{[0-9]+}} passed, 0 failed
// WAVEFRONT: corpus: 1 passed, 0 failed
// WAVEFRONT: corpus: {{[0-9]+}} passed, 0 failed
// WAVEFRONT: corpus: 1 passed, 0 failed

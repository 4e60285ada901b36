// ptxas accepts the PTX of every coroutine of the e2e corpus
// (test/e2e/corpus.txt) under each GPU scheduler, for sm_75 (the oldest
// CUDA 13 supports), sm_80 and sm_90; run-corpus.py prints the registers
// and stack bytes of each coroutine's kernel.
// REQUIRES: ptxas
// RUN: for chip in sm_75 sm_80 sm_90; do \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 36 -- --scheduler=megakernel || exit 1; \
// RUN: done | FileCheck %s
// RUN: for chip in sm_75 sm_80 sm_90; do \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 36 -- --scheduler=state-machine || exit 1; \
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
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 36 -- --scheduler=wavefront --layout=aos || exit 1; \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --filter material-sort -- --scheduler=wavefront --sort-by=material || exit 1; \
// RUN: done | FileCheck %s --check-prefix=WAVEFRONT
// WAVEFRONT: PASS test/e2e/programs/material-sort.mlir material_sort sm_75: 0 {{[0-9]+}} registers, {{[0-9]+}} bytes stack, 1 {{[0-9]+}} registers, {{[0-9]+}} bytes stack, classify {{[0-9]+}} registers, {{.*}}, scan {{[0-9]+}} registers
// WAVEFRONT: corpus: {{[0-9]+}} passed, 0 failed
// WAVEFRONT: corpus: 1 passed, 0 failed
// WAVEFRONT: corpus: {{[0-9]+}} passed, 0 failed
// WAVEFRONT: corpus: 1 passed, 0 failed
// The persistent-threads kernel, SoA with every frame in shared memory and
// AoS with most of them in the global memory extension:
// RUN: for chip in sm_75 sm_90; do \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 36 -- --scheduler=persistent || exit 1; \
// RUN:   %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --mode=ptxas --ptxas %ptxas --chip=$chip --min 36 -- --scheduler=persistent --layout=aos --persistent-batch=100 --persistent-shared-memory=2048 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT: PASS test/e2e/cpu/split-constructs.mlir while_both sm_75: persistent {{[0-9]+}} registers, {{[0-9]+}} bytes stack
// PERSISTENT-COUNT-4: corpus: {{[0-9]+}} passed, 0 failed
// The BVH path tracer of the benchmarks, under every scheduler (Table-2
// style: the mega-kernel's registers next to each subroutine's). Its sin and
// cos are libdevice calls, linked from the CUDA toolkit the pipeline finds:
// RUN: for scheduler in megakernel state-machine wavefront persistent; do \
// RUN:   coro-run %coro_src/benchmarks/pathtracer/pathtracer.mlir --coro=path_trace --scheduler=$scheduler --emit=ptx --chip=sm_90 --emit-to=%t.pt.$scheduler.ptx && \
// RUN:   %ptxas -arch=sm_90 -v %t.pt.$scheduler.ptx -o /dev/null 2>&1 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=PATHTRACER
// PATHTRACER: Compiling entry function 'path_trace' for 'sm_90'
// PATHTRACER: Used {{[0-9]+}} registers
// PATHTRACER: Compiling entry function 'path_trace' for 'sm_90'
// PATHTRACER-DAG: Compiling entry function 'path_trace__wf_1' for 'sm_90'
// PATHTRACER-DAG: Compiling entry function 'path_trace__wf_4' for 'sm_90'
// PATHTRACER: Compiling entry function 'path_trace__pt' for 'sm_90'
// PATHTRACER: Used {{[0-9]+}} registers

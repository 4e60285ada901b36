// Where an NVIDIA GPU and driver are present, every coroutine of the e2e
// corpus (test/e2e/corpus.txt) runs on the CUDA backend under every
// scheduler and --check compares it with the mega-kernel reference.
// REQUIRES: cuda-driver
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --backend=cuda --scheduler=megakernel | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --backend=cuda --scheduler=state-machine | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --backend=cuda --scheduler=wavefront | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --backend=cuda --scheduler=wavefront --layout=aos --capacity=3 --compact-below=50 | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --backend=cuda --scheduler=persistent | FileCheck %s
// RUN: %python %coro_src/test/e2e/run-corpus.py --coro-run coro-run --min 36 -- --backend=cuda --scheduler=persistent --layout=aos --persistent-batch=100 --persistent-shared-memory=2048 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: corpus: {{[0-9]+}} passed, 0 failed
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=nested3 --grid=4 --arg=2 --buffer=f32:4:zeros --backend=cuda | FileCheck %s --check-prefix=VALUES
// VALUES: buffer 0 (f32 x 4): [0, 4, 8, 12]

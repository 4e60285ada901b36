// The values on Vulkan are the ones the CPU reference prints (test/e2e/cpu).
// REQUIRES: vulkan
// RUN: coro-run %coro_src/test/e2e/cpu/split-constructs.mlir --coro=nested3 --grid=4 --arg=2 --buffer=f32:4:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=NESTED
// RUN: coro-run %coro_src/test/e2e/cpu/front-end.mlir --coro=render --grid=4,2 --buffer=f32:8:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=RENDER
// RUN: coro-run %coro_src/test/e2e/cpu/loop-break.mlir --coro=partial_sums --grid=6 --arg=4 --buffer=f32:6:iota --scheduler=megakernel --validate --timing | FileCheck %s --check-prefix=SUMS
// NESTED: buffer 0 (f32 x 4): [0, 4, 8, 12]
// RENDER: buffer 0 (f32 x 8): [100, 1, 4, -1, 110, 11, 14, 9]
// SUMS: compile: {{[0-9.]+}} ms
// SUMS: megakernel: upload {{[0-9.]+}} ms, run {{[0-9.]+}} ms (GPU {{[0-9.]+}} ms), download {{[0-9.]+}} ms
// SUMS: buffer 0 (f32 x 6): [0, 1, 3, 6, 6, 6]
// RUN: coro-run %coro_src/test/e2e/cpu/loop-break.mlir --coro=partial_sums --grid=6 --arg=4 --buffer=f32:6:zeros --check --json | FileCheck %s --check-prefix=JSON
// JSON: "buffers": [
// JSON: "type": "f32",
// JSON-NEXT: "values": [
// JSON-NEXT: 0,
// JSON-NEXT: 1,
// JSON-NEXT: 3,
// JSON: "check": true,
// JSON-NEXT: "coroutine": "partial_sums",
// JSON: "scheduler": "state-machine",
// JSON: "timing_ms": {
// JSON-NEXT: "compile":
// Buffers written as raw and .npy files:
// RUN: rm -rf %t.out && coro-run %coro_src/test/e2e/cpu/loop-break.mlir --coro=partial_sums --grid=6 --arg=4 --buffer=f32:6:zeros --quiet --output-dir=%t.out
// RUN: python3 -c "import array,sys; a=array.array('f'); a.frombytes(open(sys.argv[1],'rb').read()); print('RAW', list(a))" %t.out/buffer0.bin | FileCheck %s --check-prefix=RAW
// RUN: python3 -c "import array,struct,sys; d=open(sys.argv[1],'rb').read(); n=struct.unpack('<H', d[8:10])[0]; a=array.array('f'); a.frombytes(d[10+n:]); print('NPY', d[:6] == b'\x93NUMPY', (10+n) % 64, d[10:10+n].decode().strip(), list(a))" %t.out/buffer0.npy | FileCheck %s --check-prefix=NPY
// RAW: RAW [0.0, 1.0, 3.0, 6.0, 6.0, 6.0]
// NPY: NPY True 0 {'descr': '<f4', 'fortran_order': False, 'shape': (6,), } [0.0, 1.0, 3.0, 6.0, 6.0, 6.0]

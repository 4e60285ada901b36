// coro-run's exit codes tell the kinds of failure apart (--help lists them):
// 2 bad command line or input, 3 a compile error, 4 a device or runtime
// error. (1, a --check mismatch, is tested in coro-run-wavefront.mlir.)
// RUN: coro-run --help | FileCheck %s --check-prefix=HELP
// HELP: Exit codes: 0 success; 1 --check found a mismatch; 2 bad command line or input
// RUN: coro-run %s --no-such-option 2>/dev/null; test $? -eq 2
// RUN: coro-run %s --coro=missing 2>/dev/null; test $? -eq 2
// RUN: coro-run %s.does-not-exist --coro=scale --grid=4 2>/dev/null; test $? -eq 2
// RUN: coro-run %s --coro=scale --buffer=f32:4:zeros --grid=0 2>/dev/null; test $? -eq 2
// RUN: coro-run %s --coro=scale --grid=4 --buffer=f32:4:ones 2>/dev/null; test $? -eq 2
// Options that would have no effect, and values that do not fit, are
// errors rather than silently ignored or truncated:
// RUN: not coro-run %s --coro=scale --grid=4 --buffer=f32:4:zeros --scheduler=state-machine --capacity=3 2>&1 | FileCheck %s --check-prefix=WFOPT
// WFOPT: coro-run: error: --capacity is an option of the wavefront scheduler; --scheduler=state-machine does not use it
// RUN: not coro-run %s --coro=scale --grid=4 --buffer=f32:4:zeros --scheduler=megakernel --layout=aos 2>&1 | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: coro-run: error: --layout is an option of the wavefront and persistent schedulers; --scheduler=megakernel does not use it
// RUN: not coro-run %s --coro=scale --grid=4 --buffer=f32:4:zeros --scheduler=wavefront --persistent-batch=8 2>&1 | FileCheck %s --check-prefix=PTOPT
// PTOPT: coro-run: error: --persistent-batch is an option of the persistent-threads scheduler; --scheduler=wavefront does not use it
// RUN: not coro-run %s --coro=scale --grid=4 --buffer=f32:4:zeros --tolerance=-1 2>&1 | FileCheck %s --check-prefix=TOLERANCE
// TOLERANCE: coro-run: error: --tolerance must not be negative
// RUN: not coro-run %s --coro=offset --grid=4 --arg=4294967299 --buffer=i32:4:zeros 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: coro-run: error: argument #0 is i32, but '4294967299' is not a value of that type (out of range for 32 bits)
// RUN: coro-run %s --coro=scale --grid=4 --buffer=f32:4:zeros --tolerance=-1 2>/dev/null; test $? -eq 2
// RUN: not coro-run %s --coro=scale --emit=ptx --chip=banana --emit-to=%t.ptx 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: coro-run: error: --chip: 'banana' is not an NVIDIA architecture coro-run targets; use sm_<major><minor>, e.g. sm_90 (sm_20 to sm_90, sm_100, sm_101, sm_103, sm_110, sm_120, sm_121)
// An NVIDIA chip without a PTX version we know (it aborted in LLVM when
// every chip got PTX 8.0) is an error too:
// RUN: not coro-run %s --coro=scale --emit=ptx --chip=sm_95 --emit-to=%t.ptx 2>&1 | FileCheck %s --check-prefix=CHIP-UNKNOWN
// CHIP-UNKNOWN: coro-run: error: --chip: 'sm_95' is not an NVIDIA architecture coro-run targets
// RUN: coro-run %s --coro=scale --emit=ptx --chip=banana 2>/dev/null; test $? -eq 2
// RUN: not coro-opt %s "--pass-pipeline=builtin.module(coro-to-ptx{chip=banana})" 2>&1 | FileCheck %s --check-prefix=CHIP-PIPELINE
// CHIP-PIPELINE: coro-to-ptx: chip 'banana' is not an NVIDIA architecture this pipeline targets; use sm_<major><minor>, e.g. sm_90
// No GPU kernel takes a two-dimensional dynamic buffer: a located error
// before any lowering (exit code 3, the coroutine does not compile):
// RUN: echo 'coro.func @unlowerable(%%a: memref<?x?xf32>) { %%c0 = arith.constant 0 : index  %%v = memref.load %%a[%%c0, %%c0] : memref<?x?xf32>  memref.store %%v, %%a[%%c0, %%c0] : memref<?x?xf32>  coro.return }' > %t.2d.mlir
// RUN: not coro-run %t.2d.mlir --coro=unlowerable --grid=4 --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: coro-run %t.2d.mlir --coro=unlowerable --grid=4 --buffer=f32:4:zeros 2>/dev/null; test $? -eq 3
// COMPILE-NOT: see current operation
// COMPILE: 'coro.func' op argument #0 has type 'memref<?x?xf32>': GPU kernels take memrefs of rank 1 (static or dynamic size) or of a static shape; pass it flattened, as 'memref<?xf32>'
// COMPILE: coro-run: error: compiling @unlowerable failed (see above)
// The operation itself only with --print-op-on-diagnostic:
// RUN: not coro-run %t.2d.mlir --coro=unlowerable --grid=4 --buffer=f32:4:zeros --print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=OPDUMP
// OPDUMP: note: see current operation:
// OPDUMP-NEXT: "coro.func"
// REQUIRES: vulkan
// RUN: coro-run %s --coro=scale --grid=4 --buffer=f32:4:zeros --device=no-such-gpu 2>/dev/null; test $? -eq 4
// RUN: coro-run %s --coro=scale --grid=4 --buffer=f32:4:iota --quiet

coro.func @scale(%buffer: memref<?xf32>) {
  %id = coro.id : index
  %two = arith.constant 2.0 : f32
  %v = memref.load %buffer[%id] : memref<?xf32>
  coro.suspend
  %w = arith.mulf %v, %two : f32
  memref.store %w, %buffer[%id] : memref<?xf32>
  coro.return
}

// Both ends of an i32's range pass: -2^31 and 2^32 - 1 (all bits set).
// RUN: coro-run %s --coro=offset --grid=1 --arg=-2147483648 --buffer=i32:1:zeros | FileCheck %s --check-prefix=LOW
// LOW: buffer 0 (i32 x 1): [-2147483648]
// RUN: coro-run %s --coro=offset --grid=1 --arg=4294967295 --buffer=i32:1:zeros | FileCheck %s --check-prefix=HIGH
// HIGH: buffer 0 (i32 x 1): [-1]
coro.func @offset(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  memref.store %n, %out[%id] : memref<?xi32>
  coro.return
}

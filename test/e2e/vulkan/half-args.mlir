// coro-run --arg for f16 and bf16 scalars: parsed in the type's own format
// (rounded once) and passed in 2 bytes (bf16 in an f32 to SPIR-V kernels,
// whose conversion keeps bf16 values in f32s).
// REQUIRES: vulkan
// 1.00048828125000001 rounds up to 1.0009765625 in f16, 2.51 to 2.515625 in
// bf16; out of range is an error:
// RUN: coro-run %s --coro=halves --grid=1 --arg=1.00048828125000001 --arg=2.51 --buffer=f32:2:zeros | FileCheck %s --check-prefix=HALVES
// HALVES: buffer 0 (f32 x 2): [1.00098, 2.51562]
// RUN: not coro-run %s --coro=halves --grid=1 --arg=70000 --arg=2.5 --buffer=f32:2:zeros 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: coro-run: error: argument #0 is f16, but '70000' is not a value of that type (out of range)
coro.func @halves(%h: f16, %b: bf16, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %hf = arith.extf %h : f16 to f32
  %bf = arith.extf %b : bf16 to f32
  memref.store %hf, %out[%c0] : memref<?xf32>
  memref.store %bf, %out[%c1] : memref<?xf32>
  coro.return
}

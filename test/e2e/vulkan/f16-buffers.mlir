// f16 buffers: coro-run takes --buffer=f16:N:INIT (values rounded to half
// precision), the SPIR-V kernels access memref<?xf16> arguments with 16-bit
// storage (StorageBuffer16BitAccess, which the device enables where it has
// it), and the output is printed, written to .npy (dtype <f2) and --check'ed
// under every scheduler, with the Khronos validation layer.
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-run %s --coro=halves --grid=6 --buffer=f16:6:iota --buffer=f16:6:zeros --scheduler=megakernel --validate --output-dir=%t | FileCheck %s
// RUN: coro-run %s --coro=halves --grid=6 --buffer=f16:6:iota --buffer=f16:6:zeros --scheduler=state-machine --validate --check | FileCheck %s
// RUN: coro-run %s --coro=halves --grid=6 --buffer=f16:6:iota --buffer=f16:6:zeros --scheduler=wavefront --validate --check | FileCheck %s
// RUN: coro-run %s --coro=halves --grid=6 --buffer=f16:6:iota --buffer=f16:6:zeros --scheduler=persistent --validate --check | FileCheck %s
// CHECK: buffer 1 (f16 x 6): [0.25, 2.25, 4.25, 6.25, 8.25, 10.25]
// (Exact values: how a device rounds f16 arithmetic is its own choice.)
// The .npy file is read back as f16:
// RUN: coro-run %s --coro=halves --grid=6 --buffer=f16:6:npy=%t/buffer0.npy --buffer=f16:6:zeros | FileCheck %s
// RUN: head -c 60 %t/buffer1.npy | FileCheck %s --check-prefix=NPY
// NPY: 'descr': '<f2'
// A wrong type is named (exit code 2):
// RUN: not coro-run %s --coro=halves --grid=6 --buffer=f32:6:iota --buffer=f16:6:zeros 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: coro-run: error: buffer 'f32:6:iota' has elements of type f32, but argument #0 is a memref of f16

coro.func @halves(%in: memref<?xf16>, %out: memref<?xf16>) {
  %id = coro.id : index
  %x = memref.load %in[%id] : memref<?xf16>
  coro.suspend "twice"
  %y = arith.addf %x, %x : f16
  %quarter = arith.constant 0.25 : f16
  %z = arith.addf %y, %quarter : f16
  memref.store %z, %out[%id] : memref<?xf16>
  coro.return
}

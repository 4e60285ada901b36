// Without an NVIDIA driver, --backend=cuda is a clear one-line error.
// UNSUPPORTED: cuda-driver
// RUN: not coro-run %s --coro=scale --grid=4 --arg=2 --buffer=f32:4:zeros --backend=cuda 2>&1 | FileCheck %s
// CHECK: coro-run: error: no CUDA driver (libcuda.so.1 cannot be loaded)
coro.func @scale(%k: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  memref.store %k, %out[%id] : memref<?xf32>
  coro.return
}

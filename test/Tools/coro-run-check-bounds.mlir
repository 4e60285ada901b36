// coro-run --check-bounds on what the checks cannot cover: an error located
// at the op and exit code 3, before any device is needed.
// RUN: not coro-run %s --coro=copies --grid=1 --buffer=f32:4:zeros --buffer=f32:4:zeros --check-bounds 2>&1 | FileCheck %s
// CHECK: coro-run-check-bounds.mlir:[[# @LINE + 6]]:3: error: coro-check-bounds: cannot check the accesses of 'memref.copy'; it checks memref.load, memref.store, memref.atomic_rmw, vector.load and vector.store
// CHECK-NEXT: memref.copy
// CHECK: coro-run: error: --check-bounds: instrumenting @copies failed (see above)
// RUN: coro-run %s --coro=copies --grid=1 --buffer=f32:4:zeros --buffer=f32:4:zeros --check-bounds >/dev/null 2>&1; test $? -eq 3

coro.func @copies(%in: memref<4xf32>, %out: memref<4xf32>) {
  memref.copy %in, %out : memref<4xf32> to memref<4xf32>
  coro.return
}

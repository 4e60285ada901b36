// The examples shipped in examples/ parse, verify and go through the demo
// pipeline.
// RUN: coro-opt %coro_src/examples/shade.mlir --coro-expand-yield | FileCheck %s

// CHECK-LABEL: coro.func @shade
// CHECK:         coro.suspend "intersect"
// CHECK:         coro.suspend "surface"
// CHECK:         coro.suspend "miss"
// CHECK:         coro.promise "radiance"
// CHECK-LABEL: coro.func @odds
// CHECK:         coro.promise "__yielded_value"
// CHECK-NEXT:    coro.suspend

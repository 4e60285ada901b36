// The stock mlir-opt loads the coro dialect and the CoroGPU passes as plugins.
// RUN: %mlir_opt %s --load-dialect-plugin=%coro_libs/CoroDialectPlugin.so --load-pass-plugin=%coro_libs/CoroPassPlugin.so --pass-pipeline='builtin.module(coro.func(coro-expand-yield{tag-prefix=y}))' | FileCheck %s
// Without the plugins the dialect is unknown.
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-LABEL: coro.func @gen(%arg0: i32) yields i32 {
// CHECK-NEXT:    coro.promise "__yielded_value", %arg0 : i32
// CHECK-NEXT:    coro.suspend "y0"
// CHECK-NEXT:    coro.return
// NOPLUGIN: Dialect `coro' not found for custom op 'coro.func'
coro.func @gen(%v: i32) yields i32 {
  coro.yield %v : i32
  coro.return
}

// coro-opt registers every CoroGPU pass as a flag (implicitly nested on
// coro.func) next to the upstream ones.
// RUN: coro-opt %s --coro-expand-yield --canonicalize | FileCheck %s
// RUN: coro-opt --help | FileCheck %s --check-prefix=HELP

// HELP: --convert-gpu-to-spirv
// HELP: --coro-expand-yield - Rewrite coro.yield into a promise
// HELP-NEXT: --tag-prefix=<string>

// CHECK-LABEL: coro.func @gen(%arg0: i32) yields i32 {
// CHECK-NEXT:    coro.promise "__yielded_value", %arg0 : i32
// CHECK-NEXT:    coro.suspend
// CHECK-NEXT:    coro.return
coro.func @gen(%v: i32) yields i32 {
  coro.yield %v : i32
  coro.return
}

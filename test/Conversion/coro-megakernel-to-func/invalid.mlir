// RUN: coro-opt %s --split-input-file --coro-megakernel-to-func --verify-diagnostics

coro.func @callee() {
  coro.return
}
coro.func @caller() {
  // expected-error @+1 {{'coro.await' op must be inlined before the mega-kernel lowering; run coro-inline-awaits first}}
  coro.await @callee() : () -> ()
  coro.return
}

// -----

coro.func @gen(%v: i32) yields i32 {
  // expected-error @+1 {{'coro.yield' op must be expanded before the mega-kernel lowering; run coro-expand-yield first}}
  coro.yield %v : i32
  coro.return
}

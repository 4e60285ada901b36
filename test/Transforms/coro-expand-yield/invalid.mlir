// RUN: coro-opt %s --pass-pipeline='builtin.module(coro.func(coro-expand-yield{tag-prefix=2x}))' --verify-diagnostics

// expected-error @+1 {{coro-expand-yield: tag-prefix "2x" does not start an identifier ([A-Za-z_][A-Za-z0-9_]*)}}
coro.func @gen(%v: i32) yields i32 {
  coro.yield %v : i32
  coro.return
}

// RUN: coro-opt %s --split-input-file --coro-normalize-control-flow --verify-diagnostics

coro.func @foreign_branch(%c: i1) {
  // expected-error @+1 {{'llvm.cond_br' op is a branch the coroutine control-flow normalization does not know; use cf.br, cf.cond_br or cf.switch}}
  llvm.cond_br %c, ^a, ^b
^a:
  coro.return
^b:
  coro.return
}

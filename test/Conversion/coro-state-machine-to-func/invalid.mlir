// RUN: coro-opt %s --split-input-file --coro-state-machine-to-func --verify-diagnostics

coro.func @not_split() {
  coro.return
}
func.func @host(%n: index) {
  // expected-error @+1 {{'coro.launch' op launches @not_split, which has no coro.split; run coro-split first}}
  coro.launch @not_split[%n]() : () -> ()
  return
}

// -----

// A coroutine left unsplit: the pass works on split coroutines only.
// expected-error @+1 {{'coro.func' op is not split; coro-state-machine-to-func works on split coroutines: run coro-split first}}
coro.func @unsplit() {
  coro.return
}

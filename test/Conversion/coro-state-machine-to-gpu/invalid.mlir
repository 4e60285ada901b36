// RUN: coro-opt %s --coro-state-machine-to-gpu --verify-diagnostics

coro.func @not_split() {
  coro.return
}
func.func @host(%n: index) {
  // expected-error @+1 {{'coro.launch' op launches @not_split, which has no coro.split; run coro-split first}}
  coro.launch @not_split[%n]() : () -> ()
  return
}

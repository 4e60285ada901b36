// RUN: coro-opt %s --coro-dump-graph=output-dir=%t --verify-diagnostics

// The graphs are of split coroutines: before coro-split, it says so
// instead of printing nothing.
// expected-error @+1 {{'coro.func' op is not split; coro-dump-graph works on split coroutines: run coro-split first}}
coro.func @unsplit(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}

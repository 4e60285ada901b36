// RUN: coro-opt %s --coro-frame-report --verify-diagnostics

// The report is of split coroutines: before coro-split, it says so
// instead of printing nothing.
// expected-error @+1 {{'coro.func' op is not split; coro-frame-report works on split coroutines: run coro-split first}}
coro.func @unsplit(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}

// RUN: coro-opt %s --coro-persistent-to-gpu --verify-diagnostics

// The scheduler runs split coroutines: before coro-split, it says so.
// expected-error @+1 {{'coro.func' op is not split; coro-persistent-to-gpu works on split coroutines: run coro-split first}}
coro.func @unsplit(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}

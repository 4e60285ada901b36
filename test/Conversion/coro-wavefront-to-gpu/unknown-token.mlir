// RUN: coro-opt %s --coro-wavefront-to-gpu --verify-diagnostics
// RUN: coro-opt %s "--coro-wavefront-to-gpu=design=classify" --verify-diagnostics

// A split written by hand whose subroutine targets a token no subroutine
// has: an error under both designs (classify would file the instance in a
// category no kernel runs).
coro.func @f(%out: memref<?xf32>) {
  coro.suspend "again"
  coro.return
}
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__again(%frame: !coro.frame, %out: memref<?xf32>) {
  // expected-error @+1 {{'coro.frame.set_target' op targets token 5, which no subroutine has (tokens 0 to 1, or -1 for the end)}}
  coro.frame.set_target %frame, 5
  return
}
coro.split @f subroutines [@f__entry, @f__again] names ["entry", "again"] fields [] transitions [array<i32: 0, 1>, array<i32: 1, -1>]

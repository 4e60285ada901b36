// A coroutine that coro.handle ops drive elsewhere cannot take the
// violation buffer: its drivers do not pass one.
// RUN: coro-opt %s --coro-check-bounds=coroutines=driven --verify-diagnostics

coro.func @driven(%out: memref<?xf32>) {
  coro.suspend "next"
  coro.return
}
func.func @driver(%i: index, %out: memref<?xf32>) {
  // expected-error @+1 {{coro-check-bounds: @driven is driven by coro.handle ops here; --check-bounds does not instrument frames that code drives yet}}
  %h = coro.handle.create @driven[%i] : !coro.handle<@driven>
  coro.handle.resume %h(%out) : !coro.handle<@driven>, (memref<?xf32>) -> ()
  return
}

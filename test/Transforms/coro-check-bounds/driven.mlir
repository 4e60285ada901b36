// A coroutine that coro.handle ops drive elsewhere cannot take the
// violation buffer: its drivers do not pass one.
// RUN: coro-opt %s --coro-check-bounds=coroutines=driven --verify-diagnostics

coro.func @driven(%out: memref<?xf32>) {
  coro.suspend "next"
  coro.return
}
func.func @driver(%i: index, %out: memref<?xf32>) {
  // expected-error @+1 {{coro-check-bounds: @driven is driven here, by code that would not pass the violation buffer; check the coroutine that drives it (after coro-resolve-handles, its code is inlined there)}}
  %h = coro.handle.create @driven[%i] : !coro.handle<@driven>
  coro.handle.resume %h(%out) : !coro.handle<@driven>, (memref<?xf32>) -> ()
  return
}


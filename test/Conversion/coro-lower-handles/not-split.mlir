// A handle of a coroutine that no coro-split has split.
// RUN: coro-opt %s --coro-lower-handles --verify-diagnostics

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
func.func @drive(%i: index, %x: f32) {
  // expected-error @+1 {{'coro.handle.create' op drives coroutine @f, which is not split: run coro-resolve-handles (it splits the coroutines that code drives, innermost first, and lowers their handles)}}
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  coro.handle.resume %h(%x) : !coro.handle<@f>, (f32) -> ()
  return
}

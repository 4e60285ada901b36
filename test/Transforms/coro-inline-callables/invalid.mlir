// RUN: coro-opt %s --split-input-file --coro-inline-callables --verify-diagnostics

func.func private @self(%x: i32) -> i32 {
  %y = func.call @self(%x) : (i32) -> i32
  return %y : i32
}
coro.func @direct(%x: i32) {
  // expected-error @+1 {{'func.call' op calls the recursive chain @self -> @self; recursive callables cannot be inlined into a coroutine}}
  %y = func.call @self(%x) : (i32) -> i32
  coro.return
}

// -----

func.func private @a() {
  func.call @b() : () -> ()
  return
}
func.func private @b() {
  func.call @c() : () -> ()
  return
}
func.func private @c() {
  func.call @b() : () -> ()
  return
}
coro.func @indirect() {
  // expected-error @+1 {{'func.call' op calls the recursive chain @b -> @c -> @b; recursive callables cannot be inlined into a coroutine}}
  func.call @a() : () -> ()
  coro.return
}

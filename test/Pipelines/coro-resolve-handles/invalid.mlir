// RUN: coro-opt %s --split-input-file --coro-resolve-handles --verify-diagnostics

// Two generators that consume each other: neither can be split first.
coro.func @ping(%n: i32) yields i32 {
  %id = coro.id : index
  // expected-error @+1 {{'coro.for_each' op drives a frame of @pong, which drives frames of this op's coroutine (directly or through other coroutines): a frame cannot hold one of its own kind}}
  coro.for_each @pong[%id](%n : i32) {
  ^bb0(%v: i32):
    %true = arith.constant true
    coro.promise "__yielded_value", %v : i32
    coro.suspend
    coro.for_each.yield %true
  }
  coro.return
}
coro.func @pong(%n: i32) yields i32 {
  %id = coro.id : index
  coro.for_each @ping[%id](%n : i32) {
  ^bb0(%v: i32):
    %true = arith.constant true
    coro.promise "__yielded_value", %v : i32
    coro.suspend
    coro.for_each.yield %true
  }
  coro.return
}
coro.func @main(%n: i32) {
  %id = coro.id : index
  coro.for_each @ping[%id](%n : i32) {
  ^bb0(%v: i32):
    %true = arith.constant true
    coro.for_each.yield %true
  }
  coro.return
}

// -----

// A coroutine that drives a frame of itself.
coro.func @self(%n: i32) {
  %id = coro.id : index
  // expected-error @+1 {{'coro.handle.create' op drives a frame of its own coroutine @self: a frame cannot hold one of its own kind}}
  %h = coro.handle.create @self[%id] : !coro.handle<@self>
  coro.handle.resume %h(%n) : !coro.handle<@self>, (i32) -> ()
  coro.suspend
  coro.return
}

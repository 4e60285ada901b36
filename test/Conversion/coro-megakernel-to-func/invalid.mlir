// RUN: coro-opt %s --split-input-file --coro-megakernel-to-func --verify-diagnostics

coro.func @gen(%v: i32) yields i32 {
  coro.yield %v : i32
  coro.return
}
coro.func @consumer(%out: memref<?xi32>) {
  %id = coro.id : index
  %z = arith.constant 0 : i32
  // expected-error @+1 {{'coro.for_each' op is left for coro-megakernel-to-func, which cannot run frames that code drives}}
  %r = coro.for_each @gen[%id](%z : i32) iter_args(%z : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %t = arith.constant true
    coro.for_each.yield %t, %v : i32
  }
  coro.return
}

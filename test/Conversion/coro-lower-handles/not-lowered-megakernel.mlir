// The mega-kernel scheduler takes coroutines unsplit; it too needs the
// handles lowered first, and says so (not-lowered.mlir has the schedulers
// that take split coroutines).
// RUN: not coro-opt %s --coro-megakernel-to-gpu 2>&1 | FileCheck %s --check-prefix=MEGAKERNEL

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}

coro.func @user(%x: f32) {
  %id = coro.id : index
  // MEGAKERNEL: :[[# @LINE + 1]]:8: error: 'coro.handle.create' op is left for coro-megakernel-to-gpu
  %h = coro.handle.create @f[%id] : !coro.handle<@f>
  coro.handle.resume %h(%x) : !coro.handle<@f>, (f32) -> ()
  coro.return
}

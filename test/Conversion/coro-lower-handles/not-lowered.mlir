// Schedulers need the handles lowered first, and say so.
// RUN: not coro-opt %s --coro-split --coro-materialize-frame --coro-state-machine-to-func 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not coro-opt %s --coro-split --coro-materialize-frame --coro-wavefront-to-gpu 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not coro-opt %s --coro-megakernel-to-gpu 2>&1 | FileCheck %s --check-prefix=MEGAKERNEL
// FUNC: :[[# @LINE + 11]]:8: error: 'coro.handle.create' op is left for coro-state-machine-to-func, which cannot run frames that code drives: run coro-split, coro-materialize-frame and coro-lower-handles first
// GPU: :[[# @LINE + 10]]:8: error: 'coro.handle.create' op is left for coro-wavefront-to-gpu, which cannot run frames that code drives
// MEGAKERNEL: :[[# @LINE + 9]]:8: error: 'coro.handle.create' op is left for coro-megakernel-to-gpu

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}

coro.func @user(%x: f32) {
  %id = coro.id : index
  %h = coro.handle.create @f[%id] : !coro.handle<@f>
  coro.handle.resume %h(%x) : !coro.handle<@f>, (f32) -> ()
  coro.return
}

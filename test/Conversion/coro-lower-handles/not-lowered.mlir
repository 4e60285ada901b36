// Schedulers need the handles lowered first, and say so. These take split
// coroutines (not-lowered-megakernel.mlir has the mega-kernel, which takes
// them unsplit).
// RUN: not coro-opt %s --coro-state-machine-to-func 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not coro-opt %s --coro-wavefront-to-gpu 2>&1 | FileCheck %s --check-prefix=GPU

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}

coro.func @user(%x: f32) {
  %id = coro.id : index
  // FUNC: :[[# @LINE + 2]]:8: error: 'coro.handle.create' op is left for coro-state-machine-to-func, which cannot run frames that code drives: run coro-split, coro-materialize-frame and coro-lower-handles first
  // GPU: :[[# @LINE + 1]]:8: error: 'coro.handle.create' op is left for coro-wavefront-to-gpu, which cannot run frames that code drives
  %h = coro.handle.create @f[%id] : !coro.handle<@f>
  coro.handle.resume %h(%x) : !coro.handle<@f>, (f32) -> ()
  coro.return
}
// @user split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @user__entry(%frame: !coro.frame, %x: f32) {
  %id = coro.frame.id %frame : index
  %0 = coro.handle.create @f[%id] : !coro.handle<@f>
  coro.handle.resume %0(%x) : !coro.handle<@f>, (f32) -> ()
  coro.frame.set_target %frame, -1
  return
}
coro.split @user subroutines [@user__entry]
    names ["entry"]
    fields []
    transitions [array<i32: 0, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}

// RUN: coro-opt %s --split-input-file --coro-persistent-to-gpu --verify-diagnostics

coro.func @f(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}
// @f split (coro-split): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__s1]
    names ["entry", "s1"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {naive = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
func.func @host(%n: index, %out: memref<?xf32>) {
  // expected-error @+1 {{'coro.launch' op cannot be lowered by the persistent-threads scheduler: its launch (state buffer, global memory extension, workgroup count) is done by the CoroGPU runtime (coro-run, corogpu/runtime/Persistent.h); use the state-machine scheduler for launches in IR}}
  coro.launch @f[%n](%out) : (memref<?xf32>) -> ()
  return
}

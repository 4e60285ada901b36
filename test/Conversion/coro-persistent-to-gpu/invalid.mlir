// RUN: coro-opt %s --split-input-file --coro-split --coro-persistent-to-gpu --verify-diagnostics

coro.func @f(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}
func.func @host(%n: index, %out: memref<?xf32>) {
  // expected-error @+1 {{'coro.launch' op cannot be lowered by the persistent-threads scheduler: its launch (state buffer, global memory extension, workgroup count) is done by the CoroGPU runtime (coro-run, corogpu/runtime/Persistent.h); use the state-machine scheduler for launches in IR}}
  coro.launch @f[%n](%out) : (memref<?xf32>) -> ()
  return
}

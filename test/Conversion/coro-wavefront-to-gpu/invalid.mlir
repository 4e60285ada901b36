// RUN: coro-opt %s --split-input-file --coro-split --coro-wavefront-to-gpu --verify-diagnostics

coro.func @f(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}
func.func @host(%n: index, %out: memref<?xf32>) {
  // expected-error @+1 {{'coro.launch' op cannot be lowered by the wavefront scheduler: its host loop runs in the CoroGPU runtime (coro-run, corogpu/runtime/Wavefront.h); use the state-machine scheduler for launches in IR}}
  coro.launch @f[%n](%out) : (memref<?xf32>) -> ()
  return
}


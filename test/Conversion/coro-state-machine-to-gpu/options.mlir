// Bad options get one clear error each; with bounded steps the host loop is
// the runtime's, so a launch in IR is an error.
// RUN: not coro-opt %s --coro-split "--coro-state-machine-to-gpu=steps-per-launch=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not coro-opt %s --coro-split "--coro-state-machine-to-gpu=steps-per-launch=4294967296" 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not coro-opt %s --coro-split "--coro-state-machine-to-gpu=steps-per-launch=2 instance-status=false" 2>&1 | FileCheck %s --check-prefix=STATUS
// RUN: not coro-opt %s --coro-split "--coro-state-machine-to-gpu=steps-per-launch=2" 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: coro-opt %s --coro-split "--coro-state-machine-to-gpu=steps-per-launch=0" | FileCheck %s --check-prefix=ZERO

// NEGATIVE: error: coro-state-machine-to-gpu: steps-per-launch must not be negative, got -1
// LARGE: error: coro-state-machine-to-gpu: steps-per-launch must be below 2^31, got 4294967296
// STATUS: error: coro-state-machine-to-gpu: steps-per-launch needs instance-status (the host relaunches until every instance returned)
// LAUNCH: :[[# @LINE + 11]]:3: error: 'coro.launch' op cannot be lowered by the state-machine scheduler: with steps-per-launch its host loop, which relaunches the kernel until every instance returned, runs in the CoroGPU runtime (coro-run, corogpu/runtime/InstanceKernel.h); use steps-per-launch=0 for launches in IR
// ZERO-LABEL: func.func @host(
// ZERO:         gpu.launch_func @coro_kernels::@f
coro.func @f(%out: memref<?xf32>) {
  %id = coro.id 0 : index
  %one = arith.constant 1.0 : f32
  coro.suspend
  memref.store %one, %out[%id] : memref<?xf32>
  coro.return
}
func.func @host(%n: index, %out: memref<?xf32>) {
  coro.launch @f[%n](%out) : (memref<?xf32>) -> ()
  return
}

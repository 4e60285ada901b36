// Bad options get one clear error each; with bounded steps the host loop is
// the runtime's, so a launch in IR is an error.
// RUN: not coro-opt %s "--coro-state-machine-to-gpu=steps-per-launch=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not coro-opt %s "--coro-state-machine-to-gpu=steps-per-launch=4294967296" 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not coro-opt %s "--coro-state-machine-to-gpu=steps-per-launch=2 instance-status=false" 2>&1 | FileCheck %s --check-prefix=STATUS
// RUN: not coro-opt %s "--coro-state-machine-to-gpu=steps-per-launch=2" 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: coro-opt %s "--coro-state-machine-to-gpu=steps-per-launch=0" | FileCheck %s --check-prefix=ZERO

// NEGATIVE: error: coro-state-machine-to-gpu: steps-per-launch must not be negative, got -1
// LARGE: error: coro-state-machine-to-gpu: steps-per-launch must be below 2^31, got 4294967296
// STATUS: error: coro-state-machine-to-gpu: steps-per-launch needs instance-status (the host relaunches until every instance returned)
// ZERO-LABEL: func.func @host(
// ZERO:         gpu.launch_func @coro_kernels::@f
coro.func @f(%out: memref<?xf32>) {
  %id = coro.id 0 : index
  %one = arith.constant 1.0 : f32
  coro.suspend
  memref.store %one, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  %id = coro.frame.id %frame 0 : index
  %cst = arith.constant 1.000000e+00 : f32
  memref.store %cst, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__s1]
    names ["entry", "s1"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {naive = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 2 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
func.func @host(%n: index, %out: memref<?xf32>) {
  // LAUNCH: :[[# @LINE + 1]]:3: error: 'coro.launch' op cannot be lowered by the state-machine scheduler: with steps-per-launch its host loop, which relaunches the kernel until every instance returned, runs in the CoroGPU runtime (coro-run, corogpu/runtime/InstanceKernel.h); use steps-per-launch=0 for launches in IR
  coro.launch @f[%n](%out) : (memref<?xf32>) -> ()
  return
}

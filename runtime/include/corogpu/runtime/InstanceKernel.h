//===- InstanceKernel.h - launches of one-thread-per-instance kernels -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs the kernel of the mega-kernel or the state-machine scheduler, one
// thread per instance, and checks with the status buffer of InstanceABI.h
// that every instance returned and that no thread reached the driver's loop
// limit. With bounded steps (the state machine's `steps-per-launch`) it
// creates the zeroed frame buffer and relaunches the kernel, under the run
// limits, until every instance returned.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_INSTANCEKERNEL_H
#define COROGPU_RUNTIME_INSTANCEKERNEL_H

#include "corogpu/runtime/Device.h"

namespace corogpu::runtime {

/// What the compiler says about an instance kernel (for the state machine,
/// the `coro.state_machine` module attribute).
struct InstanceKernelPlan {
  std::string kernel;
  uint32_t workgroupSize = 0;
  /// Bounded steps: subroutines per instance and launch (0: one launch
  /// runs every instance to its end), and the words of a frame.
  uint32_t stepsPerLaunch = 0;
  uint32_t frameWords = 0;
};

struct InstanceKernelOptions {
  /// The kernel takes the status buffer (`instance-status`): check that
  /// every instance returned. Required by bounded steps.
  bool statusBuffer = true;
  /// Time the launches (GPU timestamps / events).
  bool timing = true;
  /// Launches and wall-clock time before a run in bounded steps gives up.
  RunLimits limits;
  /// Appended to the error of a launch that a driver's loop limit cut short:
  /// what the caller can do (coro-run: its option for bounded steps).
  std::string loopLimitAdvice;
  /// Called after each launch that did not finish every instance.
  RunProgressCallback progress;
};

struct InstanceKernelStats {
  uint64_t launches = 0;
  /// Bytes of the frame buffer (bounded steps).
  uint64_t frameBufferBytes = 0;
  double gpuMilliseconds = 0;
};

/// Runs `plan` over `grid` on `device`, whose loaded module holds its
/// kernel. `args` are the kernel's arguments before the status buffer (the
/// grid extents, then the coroutine's), in the target's ABI.
Status runInstanceKernel(Device &device, const InstanceKernelPlan &plan,
                         const InstanceKernelOptions &options,
                         std::array<uint32_t, 3> grid,
                         std::vector<KernelArg> args,
                         const BufferArgBuilder &passBuffer,
                         InstanceKernelStats &stats);

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_INSTANCEKERNEL_H

//===- CompilePolicy.h - the scheduler options a device gets ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One coroutine gets one code on one device, whatever compiles it: coro-run
// (from the device it runs on), a host program (coro-host-launches-to-gpu's
// `device=` option) and embedders of the Runner library take the
// schedulers' options from getDefaultCompileOptions, then apply what their
// user set explicitly (getCompileOptions).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_COMPILEPOLICY_H
#define COROGPU_RUNNER_COMPILEPOLICY_H

#include "CoroGPU/Pipelines/Pipelines.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace corogpu {
namespace runtime {
class Device;
} // namespace runtime
} // namespace corogpu

namespace mlir {
namespace coro {
namespace runner {

/// What the compile policy needs to know of a device.
struct DeviceTraits {
  /// SPIR-V or PTX for the device's chip, as Device::getTarget says.
  KernelTarget target;
  /// A CPU device (lavapipe): it runs every branch of a subgroup, taken or
  /// not, and its subgroups always have `subgroupSize` lanes.
  bool isCPU = false;
  /// The device's subgroup size (0: unknown). Only a CPU device's is fixed:
  /// a GPU may vary it between pipelines.
  uint32_t subgroupSize = 0;
  /// Whether Vulkan kernels may use subgroup arithmetic (the wavefront's
  /// subgroup appends); assumed where the device is not known.
  bool subgroupReductions = true;
  /// Whether the driver ends a thread's loops after a number of iterations
  /// (lavapipe; every CPU device here).
  bool limitsLoopIterations = false;
};

/// The traits of `device`.
DeviceTraits getDeviceTraits(const corogpu::runtime::Device &device);

/// The traits `text` names for kernels of `target`: `gpu` (a GPU: its
/// subgroup size may vary), `cpu:N` (a CPU device with subgroups of N
/// lanes, as lavapipe's cpu:8) or `native` (the first Vulkan device, or
/// CUDA device 0 for an NVIDIA chip, asked now).
llvm::Expected<DeviceTraits> parseDeviceTraits(llvm::StringRef text,
                                               const KernelTarget &target);

/// Whether the wavefront's queue design may append per subgroup with
/// workgroups of `workgroupSize` threads on `device`: its ballots have 32
/// bits, Vulkan needs subgroup arithmetic, CUDA's full-warp reductions need
/// every warp of a workgroup whole.
bool allowsSubgroupAppends(const DeviceTraits &device, int64_t workgroupSize);

/// The schedulers' options for `device`, before any a user sets:
/// - subgroup appends where allowsSubgroupAppends;
/// - on a CPU device: persistent workgroups of one subgroup (a CPU switches
///   between a workgroup's subgroups at every barrier) with 4 slots per
///   thread, subgroup-scoped barriers for workgroups of one subgroup, and
///   fall-through dispatch for the state machine and persistent threads
///   (every branch runs there, taken or not, so a switch costs every
///   subroutine per pass);
/// - on a device that limits loop iterations: the state machine and the
///   persistent kernel in bounded steps (`bound-steps`: as many as a budget
///   of loop passes allows), so that instances that resume thousands of
///   times finish.
SchedulerCompileOptions getDefaultCompileOptions(const DeviceTraits &device);

/// The schedulers' options for `device` with what a user set: the defaults
/// above, then the options `given` sets (SchedulerOptions::applyTo), with
/// subgroup appends kept only where allowsSubgroupAppends at the workgroup
/// size chosen. coro-run, host programs and the Python package compile so.
SchedulerCompileOptions getCompileOptions(const DeviceTraits &device,
                                          const SchedulerOptions &given);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_COMPILEPOLICY_H

//===- Run.h - run a compiled coroutine on a device -------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One run of a compiled coroutine (Compile.h) on a runtime device: the
// buffers uploaded, the scheduler's host loop (a single launch for the
// mega-kernel, relaunches for the state machine in bounded steps, the
// wavefront and persistent-threads loops), the buffers downloaded, and
// what it cost. This is the run `coro-run` makes, for embedders:
//
//   FailureOr<CompiledCoroutine> compiled = compileCoroutine(
//       module, "shade", GPUScheduler::Wavefront, device->getTarget());
//   RunResult result;
//   corogpu::runtime::Status status = runCoroutine(
//       *device, *compiled, {64, 1, 1}, coroutine.getArgumentTypes(),
//       scalars, buffers, RunOptions(), result);
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_RUN_H
#define COROGPU_RUNNER_RUN_H

#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Runner/HostBuffer.h"
#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/InstanceKernel.h"
#include "corogpu/runtime/Persistent.h"
#include "corogpu/runtime/Wavefront.h"

#include <array>
#include <optional>

namespace mlir {
namespace coro {
namespace runner {

/// The host side of the scheduler of a compiled coroutine: its plan in the
/// runtime's structs, and what a run of it did.
struct ScheduledRun {
  /// The mega-kernel's or the state machine's kernel.
  corogpu::runtime::InstanceKernelPlan instanceKernel;
  bool stateMachine = false;
  std::optional<corogpu::runtime::WavefrontPlan> wavefront;
  std::optional<corogpu::runtime::PersistentPlan> persistent;
  corogpu::runtime::InstanceKernelStats instanceStats;
  corogpu::runtime::WavefrontStats wavefrontStats;
  corogpu::runtime::PersistentStats persistentStats;
  /// The subroutines' names by token (their tags), from the plan.
  std::vector<std::string> subroutineNames;
  /// The state machine's or the persistent kernel's dispatch: fall-through
  /// (tokens tested in order) or a switch.
  bool fallThrough = false;
};

/// The runtime plan of `compiled`.
ScheduledRun getScheduledRun(const CompiledCoroutine &compiled);

/// The host loops' options; each scheduler takes its own (the mega-kernel
/// and the state machine `instanceKernel`). Their limits and progress
/// callbacks are the caller's; the runtime's defaults are 2^20 rounds for
/// the wavefront loop and no limit for the others (coro-run gives the
/// mega-kernel and the state machine 2^20 launches).
struct RunOptions {
  corogpu::runtime::InstanceKernelOptions instanceKernel;
  corogpu::runtime::WavefrontOptions wavefront;
  corogpu::runtime::PersistentOptions persistent;
};

/// The host loops' limits as a caller's user sets them, and how that user
/// changes them (each caller names its own flags or keywords).
struct RunLimitSettings {
  /// Rounds (wavefront) or launches before a run gives up; none: 2^20.
  std::optional<uint64_t> maxRounds;
  /// Seconds before a run gives up (0: none).
  double maxSeconds = 0;
  /// How to change the limits, for the error of a run they stopped.
  std::string howToChange;
  /// How to bound the state machine's steps per launch, for the error of an
  /// unbounded state machine that a driver's loop limit cut short.
  std::string stateMachineStepsAdvice;
};

/// The host loops' options with the limits `settings` give every scheduler
/// (2^20 rounds or launches unless given) and, where `compiled` is a state
/// machine in one launch on a device that limits loop passes, the advice to
/// bound its steps. The rest (progress, timing, capacity, ...) are the
/// caller's.
RunOptions getRunOptions(const corogpu::runtime::Device &device,
                         const CompiledCoroutine &compiled,
                         const RunLimitSettings &settings);

/// Milliseconds spent in each phase of one run (GPU: what the device's
/// timers measured of `run`).
struct RunTiming {
  double upload = 0, run = 0, gpu = 0, download = 0;
};

/// What one run left: the buffers, downloaded, its timing and statistics.
struct RunResult {
  std::vector<HostBuffer> buffers;
  RunTiming timing;
  ScheduledRun scheduled;
};

/// Runs `compiled` once on `device` (whose target it was compiled for) over
/// `grid`: loads the image, uploads `buffers` (one per memref among
/// `argumentTypes`, in order; `scalars` are the other arguments, see
/// KernelABI.h), runs the scheduler's host loop and downloads the buffers
/// into `result`. A run that a limit stopped (StatusCode::LimitExceeded)
/// still downloads them as they were then. Arguments that do not match
/// `argumentTypes`, or a device of another target, are InvalidInput.
corogpu::runtime::Status runCoroutine(
    corogpu::runtime::Device &device, const CompiledCoroutine &compiled,
    std::array<uint32_t, 3> grid, ArrayRef<Type> argumentTypes,
    ArrayRef<corogpu::runtime::KernelArg> scalars, ArrayRef<HostBuffer> buffers,
    const RunOptions &options, RunResult &result);

/// Runs `kernel` of `image` (an ordinary kernel of the device's target, not
/// a coroutine's) once on `groups` workgroups of `workgroup` threads with
/// the arguments of `argumentTypes`, as runCoroutine takes them (without
/// the grid), and downloads the buffers into `result`.
corogpu::runtime::Status
runKernel(corogpu::runtime::Device &device, StringRef image, StringRef kernel,
          std::array<uint32_t, 3> groups, std::array<uint32_t, 3> workgroup,
          ArrayRef<Type> argumentTypes,
          ArrayRef<corogpu::runtime::KernelArg> scalars,
          ArrayRef<HostBuffer> buffers, RunResult &result);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_RUN_H

//===- InstanceKernel.cpp - launches of one-thread-per-instance kernels ---===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/InstanceKernel.h"
#include "corogpu/runtime/InstanceABI.h"

#include <algorithm>

using namespace corogpu::runtime;
namespace abi = corogpu::runtime::instance;

namespace {

/// Under the wavefront and persistent-threads schedulers instances resume in
/// fresh threads: what a user whose instances reached a loop limit may try.
constexpr const char *kOtherSchedulers =
    "; under the wavefront and persistent-threads schedulers, where "
    "instances resume in fresh threads, only the loops between two "
    "suspension points count";

std::string describeReturned(uint64_t returned, uint64_t instances) {
  return std::to_string(returned) + " of " + std::to_string(instances) +
         " instances returned";
}

} // namespace

Status corogpu::runtime::runInstanceKernel(Device &device,
                                           const InstanceKernelPlan &plan,
                                           const InstanceKernelOptions &options,
                                           std::array<uint32_t, 3> grid,
                                           std::vector<KernelArg> args,
                                           const BufferArgBuilder &passBuffer,
                                           InstanceKernelStats &stats) {
  stats = InstanceKernelStats();
  if (plan.workgroupSize == 0)
    return Status::invalidInput("the plan of kernel '" + plan.kernel +
                                "' has no workgroup size");
  if (plan.stepsPerLaunch && (!options.statusBuffer || plan.frameWords == 0))
    return Status::invalidInput(
        "kernel '" + plan.kernel +
        "' runs in bounded steps: it needs the status buffer and a frame size");
  if (plan.workgroupSize > device.getMaxWorkgroupSize())
    return Status::invalidInput("kernel '" + plan.kernel + "' needs " +
                                std::to_string(plan.workgroupSize) +
                                " threads per workgroup; " + device.getName() +
                                " has at most " +
                                std::to_string(device.getMaxWorkgroupSize()));
  std::array<uint32_t, 3> groups = {(grid[0] + plan.workgroupSize - 1) /
                                        plan.workgroupSize,
                                    grid[1], grid[2]};
  std::array<uint32_t, 3> workgroup = {plan.workgroupSize, 1, 1};
  auto launch = [&] {
    double milliseconds = 0;
    Status status = device.launch(plan.kernel, groups, workgroup, args,
                                  options.timing ? &milliseconds : nullptr);
    ++stats.launches;
    stats.gpuMilliseconds += milliseconds;
    return status;
  };
  if (!options.statusBuffer)
    return launch();

  uint64_t instances = countInstances(grid);
  Status status;
  std::array<uint32_t, abi::kNumStatusWords> words = {};
  std::unique_ptr<Buffer> statusBuffer =
      device.createBuffer(sizeof(words), status);
  if (!status.ok())
    return status;
  if (status = device.upload(*statusBuffer, words.data(), sizeof(words));
      !status.ok())
    return status;
  passBuffer(args, *statusBuffer, abi::kNumStatusWords);

  std::unique_ptr<Buffer> frames;
  if (plan.stepsPerLaunch) {
    // Word indices are 32-bit in the SPIR-V kernels.
    uint64_t frameWords = instances * plan.frameWords;
    if (instances > (uint64_t(1) << 31) || frameWords >= (uint64_t(1) << 31) ||
        frameWords * 4 > device.getMaxBufferBytes())
      return Status::invalidInput(
          "the frames of " + std::to_string(instances) + " instances (" +
          std::to_string(plan.frameWords) +
          " words each) do not fit in one buffer of " + device.getName() +
          " addressed with 32-bit indices; run fewer instances");
    stats.frameBufferBytes = frameWords * 4;
    frames = device.createBuffer(stats.frameBufferBytes, status);
    if (!status.ok())
      return Status::failure("the frame buffer (" +
                             std::to_string(stats.frameBufferBytes) +
                             " bytes): " + status.error);
    // Zeroed: every instance starts at its entry (token 0).
    std::vector<uint32_t> zeros(frameWords, 0);
    if (status = device.upload(*frames, zeros.data(), stats.frameBufferBytes);
        !status.ok())
      return status;
    passBuffer(args, *frames, frameWords);
  }

  RunMonitor monitor(options.limits, options.progress, "state-machine",
                     "launches");
  uint64_t returned = 0;
  while (true) {
    if (status = launch(); !status.ok())
      return status;
    if (status = device.download(*statusBuffer, words.data(), sizeof(words));
        !status.ok())
      return status;
    returned = words[abi::kInstancesReturned];
    std::string where = plan.stepsPerLaunch
                            ? " in launch " + std::to_string(stats.launches)
                            : std::string();
    if (status = checkLoopIterationLimit(
            device, words[abi::kMostLoopIterations], "an instance", where,
            " (" + describeReturned(returned, instances) + ")" +
                options.loopLimitAdvice + kOtherSchedulers);
        !status.ok())
      return status;
    if (returned >= instances)
      break;
    if (!plan.stepsPerLaunch) {
      uint32_t limit = device.getLoopIterationLimit();
      return Status::limitExceeded(
          "only " + describeReturned(returned, instances) +
          ": the kernel stopped early" +
          (limit ? " (" + device.getName() +
                       " ends the loops of a thread after " +
                       std::to_string(limit) + " iterations in all)" +
                       options.loopLimitAdvice + kOtherSchedulers
                 : std::string()));
    }
    RunProgress progress;
    progress.rounds = stats.launches;
    progress.started = instances;
    progress.alive = instances - returned;
    progress.instances = instances;
    if (status = monitor.update(progress); !status.ok())
      return status;
  }
  return Status::success();
}

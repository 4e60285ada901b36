//===- Persistent.cpp - the persistent-threads scheduler's launch ---------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Persistent.h"
#include "corogpu/runtime/PersistentABI.h"

#include <algorithm>

using namespace corogpu::runtime;
namespace pt = corogpu::runtime::persistent;

Status corogpu::runtime::runPersistent(
    Device &device, const PersistentPlan &plan,
    const PersistentOptions &options, std::array<uint32_t, 3> grid,
    const std::vector<KernelArg> &gridArgs,
    const std::vector<KernelArg> &coroutineArgs,
    const BufferArgBuilder &passBuffer, PersistentStats &stats) {
  if (plan.tokens == 0 || plan.workgroupSize == 0 || plan.batch == 0 ||
      plan.sharedSlots > plan.batch)
    return Status::invalidInput("the persistent-threads plan of '" +
                                plan.coroutine + "' is incomplete");
  uint64_t instances = countInstances(grid);
  if (plan.workgroupSize > device.getMaxWorkgroupSize() ||
      plan.workgroupBytes > device.getMaxWorkgroupMemoryBytes())
    return Status::invalidInput(
        "the persistent-threads kernel of '" + plan.coroutine + "' needs " +
        std::to_string(plan.workgroupSize) + " threads and " +
        std::to_string(plan.workgroupBytes) +
        " bytes of workgroup memory per workgroup; " + device.getName() +
        " has at most " + std::to_string(device.getMaxWorkgroupSize()) +
        " and " + std::to_string(device.getMaxWorkgroupMemoryBytes()));
  uint64_t threads = options.threads ? options.threads : uint64_t(1) << 15;
  uint64_t batches = (instances + plan.batch - 1) / plan.batch;
  uint64_t workgroups =
      std::max<uint64_t>(1, std::min(threads / plan.workgroupSize +
                                         (threads % plan.workgroupSize != 0),
                                     batches));
  if (workgroups > 65535)
    return Status::invalidInput(std::to_string(threads) +
                                " persistent threads need " +
                                std::to_string(workgroups) +
                                " workgroups, more than 65535; lower them");
  // The instance counter passes the grid by at most one batch per
  // workgroup; it is an i32.
  if (instances + workgroups * plan.batch >= (uint64_t(1) << 31))
    return Status::invalidInput(
        "the persistent-threads scheduler runs at most "
        "2^31 - 1 - workgroups x batch instances, the grid "
        "has " +
        std::to_string(instances));
  // Bounded steps: each workgroup's park area after every workgroup's
  // frames.
  uint64_t sharedFrameWords =
      plan.sharedSlots && plan.frameWords
          ? getFrameArrayWords(plan.layout, plan.sharedSlots, plan.frameWords)
          : 0;
  uint64_t parkWords =
      plan.stepsPerLaunch ? pt::getParkWords(plan.batch, sharedFrameWords) : 0;
  uint64_t extensionWords =
      workgroups *
      (getFrameArrayWords(plan.layout, plan.batch - plan.sharedSlots,
                          plan.frameWords) +
       parkWords);
  if (extensionWords >= (uint64_t(1) << 31) ||
      extensionWords * 4 > device.getMaxBufferBytes())
    return Status::invalidInput(
        "a global memory extension of " + std::to_string(extensionWords) +
        " words is larger than " + device.getName() +
        " addresses; lower the persistent threads or the batch");

  uint32_t stateWords = pt::getStateWords(plan.tokens);
  Status status;
  std::unique_ptr<Buffer> state = device.createBuffer(stateWords * 4, status);
  if (!status.ok())
    return status;
  std::unique_ptr<Buffer> extension =
      device.createBuffer(std::max<uint64_t>(extensionWords, 1) * 4, status);
  if (!status.ok())
    return Status::failure("the global memory extension (" +
                           std::to_string(extensionWords * 4) +
                           " bytes): " + status.error);
  std::vector<uint32_t> words(stateWords, 0);
  words[pt::kTotalInstances] = static_cast<uint32_t>(instances);
  // With bounded steps, the steps bound what a thread runs per launch.
  words[pt::kBatchesPerLaunch] = options.batchesPerLaunch.value_or(
      device.limitsLoopIterations() && !plan.stepsPerLaunch ? 1 : 0);
  if (status = device.upload(*state, words.data(), words.size() * 4);
      !status.ok())
    return status;

  std::vector<KernelArg> args = gridArgs;
  passBuffer(args, *state, stateWords);
  passBuffer(args, *extension, std::max<uint64_t>(extensionWords, 1));
  args.insert(args.end(), coroutineArgs.begin(), coroutineArgs.end());
  stats = PersistentStats();
  stats.workgroups = static_cast<uint32_t>(workgroups);
  stats.extensionBytes = extensionWords * 4;
  // Launch until the grid is exhausted; with a batch limit, every launch
  // ends with its workgroups' instances returned and starts more. With
  // bounded steps, a launch may end with instances parked: launch until
  // every instance returned.
  uint64_t started = 0, steps = 0;
  RunMonitor monitor(options.limits, options.progress, "persistent-threads",
                     "launches");
  do {
    double milliseconds = 0;
    if (status =
            device.launch(pt::getKernelName(plan.coroutine),
                          {stats.workgroups, 1, 1}, {plan.workgroupSize, 1, 1},
                          args, options.timing ? &milliseconds : nullptr);
        !status.ok())
      return status;
    ++stats.launches;
    stats.gpuMilliseconds += milliseconds;
    if (status = device.download(*state, words.data(), words.size() * 4);
        !status.ok())
      return status;
    // A thread that reached the driver's loop limit had its loops ended
    // early (kernels compiled with count-loop-iterations report it).
    if (status = checkLoopIterationLimit(
            device, words[pt::kMostLoopIterations],
            "a thread of the persistent-threads kernel",
            " in launch " + std::to_string(stats.launches),
            plan.stepsPerLaunch
                ? ": take fewer steps per launch (--persistent-steps, now " +
                      std::to_string(plan.stepsPerLaunch) +
                      "), fewer slots per thread (a smaller batch or more "
                      "threads), or add suspension points to long loops"
                : ": bound the steps per launch (--persistent-steps), take "
                  "fewer batches per launch, fewer slots per thread (a "
                  "smaller batch or more threads); or add suspension points "
                  "to long loops");
        !status.ok())
      return status;
    uint64_t next = std::min<uint64_t>(words[pt::kNextInstance], instances);
    bool done = plan.stepsPerLaunch ? words[pt::kReturned] >= instances
                                    : next >= instances;
    if (!done && next == started && words[pt::kSteps] == steps)
      return Status::limitExceeded(
          "the persistent-threads kernel made no step in launch " +
          std::to_string(stats.launches));
    started = next;
    steps = words[pt::kSteps];
    if (done)
      break;
    // The next launches take back what this one parked.
    if (plan.stepsPerLaunch && stats.launches == 1) {
      words[pt::getResumeWord(plan.tokens)] = 1;
      if (status = device.upload(*state, words.data(), words.size() * 4);
          !status.ok())
        return status;
    }
    RunProgress progress;
    progress.rounds = stats.launches;
    progress.started = started;
    progress.instances = instances;
    if (status = monitor.update(progress); !status.ok())
      return status;
  } while (true);
  stats.steps = words[pt::kSteps];
  stats.acquisitions = words[pt::kAcquisitions];
  stats.swappedFrames = words[pt::kSwappedFrames];
  for (uint32_t token = 0; token < plan.tokens; ++token)
    stats.instancesPerSubroutine.push_back(words[pt::kFirstTokenWord + token]);
  // Every instance runs its entry once and returns once. Fewer means the
  // kernel stopped early: lavapipe ends every loop of an invocation after
  // 65535 iterations in all (gallivm's loop limiter), which a persistent
  // workgroup reaches after enough batches.
  uint64_t returned = words[pt::kReturned];
  if (stats.instancesPerSubroutine.front() != instances ||
      returned != instances)
    return Status::limitExceeded(
        "the persistent-threads kernel started " +
        std::to_string(stats.instancesPerSubroutine.front()) +
        " and finished " + std::to_string(returned) + " of " +
        std::to_string(instances) +
        " instances: it stopped early (lavapipe ends the loops of a thread "
        "after 65535 iterations in all: take fewer batches per launch, or "
        "fewer slots per thread: a smaller batch or more threads)");
  return Status::success();
}

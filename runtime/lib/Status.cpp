//===- Status.cpp - the limits and progress of scheduler runs ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/LoopLimitABI.h"

using namespace corogpu::runtime;

Status corogpu::runtime::checkRunLimits(const RunLimits &limits,
                                        const RunProgress &progress,
                                        const std::string &scheduler,
                                        const std::string &rounds) {
  std::string reason;
  if (limits.maxRounds && progress.rounds >= limits.maxRounds)
    reason = std::to_string(progress.rounds) + " " + rounds;
  else if (limits.maxSeconds > 0 && progress.seconds >= limits.maxSeconds)
    reason =
        std::to_string(static_cast<uint64_t>(progress.seconds)) + " seconds";
  if (reason.empty())
    return Status::success();
  std::string where = std::to_string(progress.started) + " of " +
                      std::to_string(progress.instances) + " instances started";
  if (progress.alive)
    where += ", " + std::to_string(progress.alive) + " alive";
  return Status::limitExceeded(
      "the " + scheduler + " scheduler stopped after " + reason + " (" +
      std::to_string(progress.rounds) + " " + rounds + ", " + where +
      "), its limit: does every instance return?" +
      (limits.howToChange.empty() ? "" : " (" + limits.howToChange + ")"));
}

Status corogpu::runtime::checkLoopIterationLimit(const Device &device,
                                                 uint32_t mostIterations,
                                                 const std::string &what,
                                                 const std::string &where,
                                                 const std::string &then) {
  uint32_t limit = device.getLoopIterationLimit();
  if (mostIterations == kLoopEndedByLimit)
    return Status::limitExceeded(
        what + where + " had a loop cut short: the loop may never end (does " +
        "its condition change, does every instance return?); or it ends " +
        "later than " + device.getName() +
        (limit ? " allows, which ends the loops of a thread after " +
                     std::to_string(limit) + " iterations in all"
               : std::string(" allows, which limits the loop iterations of a "
                             "thread")) +
        ", as if they had finished, so the results cannot be trusted" + then);
  // The count alone is an estimate that errs both ways (lavapipe unrolls
  // small constant loops, and counts passes of loops its compiler adds): a
  // cut loop is what says for sure, and the kernels report it above. A count
  // at the limit without one is no error.
  (void)mostIterations;
  return Status::success();
}

RunMonitor::RunMonitor(const RunLimits &limits, RunProgressCallback callback,
                       std::string scheduler, std::string rounds)
    : limits(limits), callback(std::move(callback)),
      scheduler(std::move(scheduler)), rounds(std::move(rounds)),
      start(std::chrono::steady_clock::now()) {}

Status RunMonitor::update(RunProgress progress) {
  progress.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (callback)
    callback(progress);
  return checkRunLimits(limits, progress, scheduler, rounds);
}

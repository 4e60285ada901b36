//===- Status.cpp - the limits and progress of scheduler runs ------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Device.h"

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

//===- Wavefront.cpp - the wavefront scheduler's host loop ----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Wavefront.h"
#include "corogpu/runtime/WavefrontABI.h"

#include <algorithm>

using namespace corogpu::runtime;
namespace wf = corogpu::runtime::wavefront;

namespace {

/// The scheduler's device buffers, in kernel-argument order
/// (WavefrontABI.h).
enum SchedulerBuffer : unsigned {
  kFramesBuffer,
  kQueueBuffer,
  kRanksBuffer,
  kBlocksBuffer,
  kStateBuffer,
  kScratchBuffer,
};

uint64_t ceilDiv(uint64_t value, uint64_t divisor) {
  return (value + divisor - 1) / divisor;
}

/// Slots when the user leaves it to us: a quarter of device memory, at
/// most 2^24 slots (the paper's setting), never more than the grid, and
/// within what the kernels address and launch.
uint64_t getDefaultCapacity(const Device &device, const WavefrontPlan &plan,
                            bool compaction, uint64_t instances) {
  uint64_t bytesPerSlot =
      4 * (plan.queues ? plan.frameWords + 2 * plan.tokens + 2 +
                             (plan.sortsQueues() ? 2 : 0)
                       : plan.frameWords * (compaction ? 2 : 1) + 2 +
                             ceilDiv(plan.categories, plan.workgroupSize));
  uint64_t fits = device.getMemoryBytes() / 4 / bytesPerSlot;
  // Slot kernels run one workgroup per workgroupSize slots, in x.
  uint64_t launchable = uint64_t(65535) * plan.workgroupSize;
  // The buffers that grow with the slots: the frames (an aosoa buffer holds
  // whole tiles), and the queue design's queues or the classify design's
  // per-workgroup category counts; 32-bit word indices, one buffer each.
  uint64_t bufferWords = std::min<uint64_t>((uint64_t(1) << 31) - 1,
                                            device.getMaxBufferBytes() / 4);
  uint64_t frameSlots =
      getFrameArraySlots(plan.layout, bufferWords, plan.frameWords);
  // Not even one aosoa tile fits: the frame buffer's size check says so.
  if (frameSlots == 0)
    frameSlots = bufferWords / plan.frameWords;
  uint64_t queueWordsPerSlot =
      plan.queues ? 2 * plan.tokens + 2 + (plan.sortsQueues() ? 1 : 0)
                  : ceilDiv(plan.categories, plan.workgroupSize);
  uint64_t addressable =
      std::min<uint64_t>(frameSlots, bufferWords / queueWordsPerSlot);
  return std::max<uint64_t>(
      1, std::min({instances, uint64_t(1) << 24, launchable, addressable,
                   std::max<uint64_t>(fits, plan.workgroupSize)}));
}

} // namespace

Status corogpu::runtime::runWavefront(
    Device &device, const WavefrontPlan &plan, const WavefrontOptions &options,
    std::array<uint32_t, 3> grid, const std::vector<KernelArg> &gridArgs,
    const std::vector<KernelArg> &coroutineArgs,
    const BufferArgBuilder &passBuffer, WavefrontStats &stats) {
  if (plan.tokens == 0 || plan.frameWords == 0 || plan.workgroupSize == 0 ||
      plan.categories < plan.tokens)
    return Status::invalidInput("the wavefront plan of '" + plan.coroutine +
                                "' is incomplete");
  uint64_t instances = countInstances(grid);
  if (instances >= (uint64_t(1) << 31))
    return Status::invalidInput("the wavefront scheduler runs at most 2^31 - 1 "
                                "instances, the grid has " +
                                std::to_string(instances));
  bool compaction = options.compactBelowPercent != 0;
  if (options.compactBelowPercent > 100)
    return Status::invalidInput(
        "the compaction threshold is a percentage, got " +
        std::to_string(options.compactBelowPercent));
  if (plan.queues && (compaction || options.order != LaunchOrder::Fixed ||
                      options.refill != RefillPolicy::EveryRound))
    return Status::invalidInput(
        "compaction, the most-first order and the half-empty refill need the "
        "classify wavefront design; '" +
        plan.coroutine +
        "' was compiled with the queue design (coro-run "
        "--wavefront-design=classify)");
  uint64_t capacity =
      options.capacity
          ? options.capacity
          : getDefaultCapacity(device, plan, compaction, instances);
  uint64_t frameBufferWords =
      getFrameArrayWords(plan.layout, capacity, plan.frameWords);
  if (frameBufferWords >= (uint64_t(1) << 31))
    return Status::invalidInput(
        "a wavefront frame buffer of " + std::to_string(capacity) +
        " slots x " + std::to_string(plan.frameWords) + " words (" +
        getFrameArrayLayoutName(plan.layout) +
        ") is larger than 2^31 words; lower the capacity");
  uint32_t workgroup = plan.workgroupSize;
  if (workgroup > device.getMaxWorkgroupSize())
    return Status::invalidInput("the wavefront kernels of '" + plan.coroutine +
                                "' have " + std::to_string(workgroup) +
                                " threads per workgroup; " + device.getName() +
                                " has at most " +
                                std::to_string(device.getMaxWorkgroupSize()) +
                                " (lower --wavefront-workgroup-size)");
  uint64_t maxGroups = ceilDiv(capacity, workgroup);
  if (maxGroups > 65535)
    return Status::invalidInput(
        "a wavefront capacity of " + std::to_string(capacity) + " needs " +
        std::to_string(maxGroups) + " workgroups, more than 65535; lower it");
  uint32_t stateWords = wf::getStateWords(plan.tokens, plan.categories);

  // Buffers, in kernel-argument order.
  std::unique_ptr<Buffer> buffers[wf::kNumSchedulerBuffers];
  const uint64_t words[wf::kNumSchedulerBuffers] = {
      frameBufferWords,
      plan.queues ? wf::getQueueWords(plan.tokens, capacity, plan.sortsQueues())
                  : capacity,
      plan.queues && !plan.sortsQueues() ? 1 : capacity,
      plan.queues ? 1 : uint64_t(plan.categories) * maxGroups,
      stateWords,
      compaction ? capacity * plan.frameWords : 1};
  for (unsigned i = 0; i < wf::kNumSchedulerBuffers; ++i) {
    // The kernels index every buffer with 32-bit words.
    if (words[i] >= (uint64_t(1) << 31))
      return Status::invalidInput(
          "a wavefront buffer of " + std::to_string(capacity) + " slots (" +
          std::to_string(words[i]) +
          " words) is larger than 2^31 words; lower the capacity");
    if (words[i] * 4 > device.getMaxBufferBytes())
      return Status::invalidInput(
          "a wavefront buffer of " + std::to_string(capacity) + " slots (" +
          std::to_string(words[i] * 4) + " bytes) is larger than " +
          device.getName() + "'s largest buffer (" +
          std::to_string(device.getMaxBufferBytes()) +
          " bytes); lower the capacity");
    Status status;
    buffers[i] = device.createBuffer(words[i] * 4, status);
    if (!status.ok())
      return Status::failure("wavefront buffers (" + std::to_string(capacity) +
                             " slots): " + status.error);
  }
  Buffer &stateBuffer = *buffers[kStateBuffer];

  std::vector<uint32_t> state(stateWords, 0);
  state[wf::kCapacity] = capacity;
  state[wf::kTotalInstances] = instances;
  state[wf::kRefillPolicy] = options.refill == RefillPolicy::BelowHalf;
  state[wf::kOrderPolicy] = options.order == LaunchOrder::MostFirst;
  state[wf::kCompactPercent] = options.compactBelowPercent;
  state[wf::kTailPercent] = plan.tailBelowPercent;
  state[wf::kActiveSlots] = capacity;
  state[wf::kRefill] = 1;
  // The queue design: every slot in the free ring (its init kernel writes
  // the entries), the first round's advance fills in the rest.
  state[wf::kFreeHead] = 0;
  state[wf::kFreeTail] = capacity;
  for (uint32_t word : {wf::kSlotGroups, wf::kScatterGroups}) {
    state[word] = maxGroups;
    state[word + 1] = state[word + 2] = 1;
  }
  if (Status status =
          device.upload(stateBuffer, state.data(), state.size() * 4);
      !status.ok())
    return status;

  std::vector<KernelArg> args = gridArgs;
  for (unsigned i = 0; i < wf::kNumSchedulerBuffers; ++i)
    passBuffer(args, *buffers[i], words[i]);
  args.insert(args.end(), coroutineArgs.begin(), coroutineArgs.end());

  // A dispatch of `kernel` whose workgroup count the state word `word`
  // holds (indirect), or `groups` workgroups (direct) when `word` is 0.
  auto dispatch = [&](const std::string &kernel, uint32_t word,
                      uint64_t groups) {
    Dispatch d;
    d.kernel = kernel;
    d.groups = {static_cast<uint32_t>(groups), 1, 1};
    d.workgroup = {workgroup, 1, 1};
    d.args = args;
    if (word) {
      d.indirect = &stateBuffer;
      d.indirectOffset = word * 4;
    }
    return d;
  };
  const std::string &name = plan.coroutine;
  std::vector<Dispatch> round;
  if (plan.queues) {
    round.push_back(dispatch(name + wf::kAdvanceKernel, 0, 1));
    if (plan.sortsQueues())
      round.push_back(
          dispatch(name + wf::kScatterKernel, wf::kScatterGroups, maxGroups));
  } else {
    round.push_back(
        dispatch(name + wf::kClassifyKernel, wf::kSlotGroups, maxGroups));
    round.push_back(dispatch(name + wf::kScanKernel, 0, 1));
    round.push_back(
        dispatch(name + wf::kScatterKernel, wf::kScatterGroups, maxGroups));
  }
  if (compaction) {
    round.push_back(dispatch(name + wf::kCompactGatherKernel,
                             wf::kCompactGroups, maxGroups));
    round.push_back(dispatch(name + wf::kCompactScatterKernel,
                             wf::kCompactGroups, maxGroups));
  }
  size_t schedulingPerRound = round.size();
  // Grid-stride kernels: one launch of a fixed grid per subroutine, however
  // many instances its queue holds (no indirect dispatch, which CUDA
  // lacks, so no launch of the upper bound).
  // By default a device that limits each thread's loop passes (lavapipe)
  // gets a thread per slot, so that a thread runs one instance a round.
  uint64_t strideGroups =
      options.strideWorkgroups ? options.strideWorkgroups
      : device.limitsLoopIterations()
          ? maxGroups
          : std::max<uint64_t>(1, device.getResidentThreads() / workgroup);
  strideGroups = std::min(strideGroups, maxGroups);
  for (uint32_t token = 0; token < plan.tokens; ++token)
    round.push_back(dispatch(
        wf::getSubroutineKernelName(name, token),
        plan.gridStride ? 0 : wf::getTokenWord(token, wf::kTokenGroups),
        plan.gridStride ? strideGroups : maxGroups));
  // Work only in tail rounds, whose subroutine kernels advance gave none.
  if (plan.tailBelowPercent)
    round.push_back(dispatch(name + wf::kTailKernel,
                             plan.gridStride ? 0u : uint32_t(wf::kTailGroups),
                             plan.gridStride ? strideGroups : maxGroups));

  // What a loop cut short by the driver's limit says (kernels compiled with
  // count-loop-iterations report it). A tail kernel's thread runs
  // subroutines until its loops made 16384 passes, and the step that
  // crosses that may make many more.
  std::string loopLimitWhat =
      plan.gridStride ? "a thread of a grid-stride subroutine kernel"
                      : "a subroutine run";
  std::string loopLimitAdvice =
      plan.gridStride
          ? ": launch more workgroups per subroutine kernel (coro-run "
            "--wavefront-stride-workgroups), so that each thread runs "
            "fewer instances, or add suspension points to the long loops"
          : ": add suspension points to the long loops (each "
            "resumption is a fresh thread)";
  if (plan.tailBelowPercent) {
    loopLimitWhat += " or of the tail kernel";
    loopLimitAdvice += "; or run without the tail kernel (coro-run "
                       "--wavefront-tail-below=0), whose threads run several "
                       "subroutines each";
  }

  uint32_t roundsPerCheck = std::max(1u, options.roundsPerCheck);
  stats = WavefrontStats();
  RunMonitor monitor(options.limits, options.progress, "wavefront", "rounds");
  stats.capacity = capacity;
  stats.frameBufferBytes = frameBufferWords * 4;
  stats.recorded = options.replayRounds;
  // A submission's rounds; the first submission starts with the init
  // kernel. With replayRounds, the later ones launch one recording of them.
  std::vector<Dispatch> rounds;
  std::vector<bool> isScheduling;
  for (uint32_t r = 0; r < roundsPerCheck; ++r) {
    for (size_t i = 0; i < round.size(); ++i) {
      rounds.push_back(round[i]);
      isScheduling.push_back(i < schedulingPerRound);
    }
  }
  std::unique_ptr<RecordedBatch> recorded;
  bool first = true;
  while (true) {
    if (options.replayRounds) {
      // The first submission (the init kernel, then the rounds) is recorded
      // on its own and launched once, so that every submission is timed
      // the same way: whole.
      std::unique_ptr<RecordedBatch> opening;
      if (first || !recorded) {
        std::vector<Dispatch> batch;
        if (first)
          batch.push_back(dispatch(name + wf::kInitKernel, 0, maxGroups));
        batch.insert(batch.end(), rounds.begin(), rounds.end());
        Status status;
        std::unique_ptr<RecordedBatch> made = device.recordBatch(batch, status);
        if (!made)
          return status;
        (first ? opening : recorded) = std::move(made);
      }
      RecordedBatch *launched = first ? opening.get() : recorded.get();
      double milliseconds = 0;
      if (Status status =
              launched->launch(options.timing ? &milliseconds : nullptr);
          !status.ok())
        return status;
      stats.recordedMilliseconds += milliseconds;
      if (!first)
        ++stats.replays;
    } else {
      std::vector<Dispatch> batch;
      std::vector<bool> scheduling;
      if (first) {
        batch.push_back(dispatch(name + wf::kInitKernel, 0, maxGroups));
        scheduling.push_back(true);
      }
      batch.insert(batch.end(), rounds.begin(), rounds.end());
      scheduling.insert(scheduling.end(), isScheduling.begin(),
                        isScheduling.end());
      std::vector<double> times;
      if (Status status =
              device.launchBatch(batch, options.timing ? &times : nullptr);
          !status.ok())
        return status;
      for (size_t i = 0; i < times.size(); ++i) {
        (scheduling[i] ? stats.schedulingMilliseconds
                       : stats.subroutineMilliseconds) += times[i];
        auto it = std::find_if(
            stats.kernelMilliseconds.begin(), stats.kernelMilliseconds.end(),
            [&](const auto &entry) { return entry.first == batch[i].kernel; });
        if (it == stats.kernelMilliseconds.end())
          stats.kernelMilliseconds.emplace_back(batch[i].kernel, times[i]);
        else
          it->second += times[i];
      }
    }
    first = false;
    ++stats.submissions;
    if (Status status =
            device.download(stateBuffer, state.data(), state.size() * 4);
        !status.ok())
      return status;
    // A subroutine run that reached the driver's loop limit had its loops
    // ended early (kernels compiled with count-loop-iterations report it).
    if (Status status =
            checkLoopIterationLimit(device, state[wf::kMostLoopIterations],
                                    loopLimitWhat, "", loopLimitAdvice);
        !status.ok())
      return status;
    if (state[wf::kDone])
      break;
    RunProgress progress;
    progress.rounds = state[wf::kRounds];
    progress.started = std::min<uint64_t>(state[wf::kNextInstance], instances);
    progress.alive = state[wf::kAlive];
    progress.instances = instances;
    if (Status status = monitor.update(progress); !status.ok())
      return status;
  }
  stats.rounds = state[wf::kRounds];
  stats.launches = state[wf::kLaunches];
  stats.compactions = state[wf::kCompactions];
  for (uint32_t token = 0; token < plan.tokens; ++token)
    stats.instancesPerSubroutine.push_back(
        state[wf::getTokenWord(token, wf::kTokenTotal)]);
  return Status::success();
}

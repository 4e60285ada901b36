//===- Wavefront.h - the wavefront scheduler's host loop --------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs a coroutine whose kernels `coro-wavefront-to-gpu` generated: creates
// the frame and scheduler buffers, marks every slot free, then submits
// batches of rounds until the GPU-written termination flag is set: in the
// queue design advance and one dispatch per subroutine, in the classify
// design classify, scan, scatter, compaction and one dispatch per
// subroutine (indirect, or a fixed grid when the kernels stride).
// Queue sizes never travel to the host; the host reads the small state
// buffer once per batch.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_WAVEFRONT_H
#define COROGPU_RUNTIME_WAVEFRONT_H

#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/FrameArrayABI.h"

namespace corogpu::runtime {

/// What the compiler says about a coroutine's wavefront kernels (the
/// `coro.wavefront` module attribute).
struct WavefrontPlan {
  std::string coroutine;
  uint32_t tokens = 0;
  uint32_t categories = 0;
  uint32_t frameWords = 0;
  /// How the frame buffer holds the slots' frames (FrameArrayABI.h).
  FrameArrayLayout layout = FrameArrayLayout::SoA;
  uint32_t workgroupSize = 64;
  /// The queue design (WavefrontABI.h); otherwise classify.
  bool queues = false;
  /// The subroutine kernels stride over their queues: launched directly
  /// with WavefrontOptions::strideWorkgroups workgroups each round.
  bool gridStride = false;
  /// Queue design: with a tail kernel, the rounds that start once the grid
  /// is exhausted with fewer than this % of the slots alive run it, one
  /// launch finishing the instances, instead of the subroutine kernels; 0:
  /// no tail kernel.
  uint32_t tailBelowPercent = 0;

  /// The queue design with hint buckets: a scatter sorts each round's
  /// queues by category.
  bool sortsQueues() const { return queues && categories > tokens; }
};

enum class RefillPolicy { EveryRound, BelowHalf };
enum class LaunchOrder { Fixed, MostFirst };

struct WavefrontOptions {
  /// Instance slots; 0 sizes them from device memory (at most 2^24 and
  /// never more than the grid).
  uint64_t capacity = 0;
  RefillPolicy refill = RefillPolicy::EveryRound;
  LaunchOrder order = LaunchOrder::Fixed;
  /// Compact the frames when the grid is exhausted and fewer than this %
  /// of the active slots are alive; 0 turns compaction off.
  uint32_t compactBelowPercent = 0;
  /// Grid-stride plans: workgroups of each subroutine kernel; 0: enough to
  /// fill the device (Device::getResidentThreads), or a thread per slot on
  /// a device that limits loop passes; at most the capacity's.
  uint32_t strideWorkgroups = 0;
  /// Rounds recorded per submission; the host checks for completion
  /// after each.
  uint32_t roundsPerCheck = 8;
  /// Record a submission's rounds once (Device::recordBatch: a CUDA graph,
  /// a Vulkan command buffer) and launch that recording at every
  /// submission after the first (itself recorded with the init kernel), so
  /// that a round costs no host work per kernel. GPU time is then measured
  /// per submission, not per kernel (WavefrontStats::recordedMilliseconds):
  /// no timestamps between the dispatches.
  bool replayRounds = false;
  /// Time every dispatch (GPU timestamps / events); on by default, so
  /// that the GPU time is measured; off saves a timestamp per dispatch.
  bool timing = true;
  /// Rounds and wall-clock time before the run gives up (the rounds are
  /// checked after each submission, so a run may pass them by up to
  /// roundsPerCheck - 1).
  RunLimits limits = {/*maxRounds=*/uint64_t(1) << 20, /*maxSeconds=*/0};
  /// Called after each submission that did not finish the grid.
  RunProgressCallback progress;
};

struct WavefrontStats {
  uint64_t capacity = 0;
  /// Bytes of the frame buffer (aosoa: whole tiles of slots).
  uint64_t frameBufferBytes = 0;
  uint64_t rounds = 0;
  uint64_t submissions = 0;
  /// Subroutine kernels that had instances.
  uint64_t launches = 0;
  uint64_t compactions = 0;
  /// Instances each subroutine ran over all rounds.
  std::vector<uint64_t> instancesPerSubroutine;
  /// GPU milliseconds in the scheduling kernels and in the subroutines.
  double schedulingMilliseconds = 0, subroutineMilliseconds = 0;
  /// GPU milliseconds per kernel, in order of first launch.
  std::vector<std::pair<std::string, double>> kernelMilliseconds;
  /// With WavefrontOptions::replayRounds: the submissions after the first,
  /// which launched the recorded rounds again, and the GPU milliseconds of
  /// every submission, each timed whole (none of the above is measured).
  bool recorded = false;
  uint64_t replays = 0;
  double recordedMilliseconds = 0;
};

/// Runs `plan` over `grid` on `device`, whose loaded module holds its
/// kernels. `gridArgs` are the three leading kernel arguments (the grid
/// extents), `coroutineArgs` the coroutine's, both in the target's ABI.
Status runWavefront(Device &device, const WavefrontPlan &plan,
                    const WavefrontOptions &options,
                    std::array<uint32_t, 3> grid,
                    const std::vector<KernelArg> &gridArgs,
                    const std::vector<KernelArg> &coroutineArgs,
                    const BufferArgBuilder &passBuffer, WavefrontStats &stats);

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_WAVEFRONT_H

//===- Persistent.h - the persistent-threads scheduler's launch -*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs a coroutine whose kernel `coro-persistent-to-gpu` generated: creates
// the state buffer and the global memory extension, and launches the one
// kernel on a fixed number of resident workgroups, which take the grid's
// instances in batches until none is left (or, with a limit on batches per
// launch, launches it until none is left).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_PERSISTENT_H
#define COROGPU_RUNTIME_PERSISTENT_H

#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/FrameArrayABI.h"

#include <optional>

namespace corogpu::runtime {

/// What the compiler says about a coroutine's persistent kernel (the
/// `coro.persistent` module attribute).
struct PersistentPlan {
  std::string coroutine;
  uint32_t tokens = 0;
  /// Frame words kept per slot (the fields; token and id live apart).
  uint32_t frameWords = 0;
  /// How workgroup memory and the extension hold the slots' frames
  /// (FrameArrayABI.h).
  FrameArrayLayout layout = FrameArrayLayout::SoA;
  uint32_t workgroupSize = 64;
  /// Instance slots per workgroup, and how many of them keep their frame
  /// in workgroup memory (the others in the global memory extension).
  uint32_t batch = 0;
  uint32_t sharedSlots = 0;
  /// Workgroup memory the kernel uses.
  uint64_t workgroupBytes = 0;
  /// Bounded steps: a workgroup parks its slots after this many steps of a
  /// launch and the kernel is launched again (0: no bound; PersistentABI.h).
  uint32_t stepsPerLaunch = 0;
};

struct PersistentOptions {
  /// Resident threads (workgroups x workgroup size); 0: 2^15, the paper's
  /// setting. Never more workgroups than the grid's batches need.
  uint64_t threads = 0;
  /// Batches a workgroup takes in one launch (0: no limit). With a limit,
  /// a launch ends once its workgroups' instances have returned, and the
  /// host launches again until the grid is exhausted. Unset: 1 on a device
  /// that limits loop iterations (lavapipe: a workgroup must not run too
  /// many instances in one launch), no limit elsewhere.
  std::optional<uint32_t> batchesPerLaunch;
  /// Time the launches (GPU timestamps / events); on by default, so
  /// that the GPU time is measured; off saves a timestamp per dispatch.
  bool timing = true;
  /// Launches and wall-clock time before the run gives up.
  RunLimits limits;
  /// Called after each launch that did not finish the grid.
  RunProgressCallback progress;
};

struct PersistentStats {
  uint32_t workgroups = 0;
  uint64_t launches = 0;
  /// Bytes of the global memory extension.
  uint64_t extensionBytes = 0;
  /// Block-wise state-machine steps and batches taken, all workgroups.
  uint64_t steps = 0, acquisitions = 0;
  /// Frames swapped into workgroup memory (kernels with swap-frames).
  uint64_t swappedFrames = 0;
  /// Instances each subroutine ran.
  std::vector<uint64_t> instancesPerSubroutine;
  double gpuMilliseconds = 0;
};

/// Runs `plan` over `grid` on `device`, whose loaded module holds its
/// kernel. `gridArgs` are the three leading kernel arguments (the grid
/// extents), `coroutineArgs` the coroutine's, both in the target's ABI.
Status runPersistent(Device &device, const PersistentPlan &plan,
                     const PersistentOptions &options,
                     std::array<uint32_t, 3> grid,
                     const std::vector<KernelArg> &gridArgs,
                     const std::vector<KernelArg> &coroutineArgs,
                     const BufferArgBuilder &passBuffer,
                     PersistentStats &stats);

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_PERSISTENT_H

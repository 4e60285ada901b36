//===- PersistentToGPU.cpp - the persistent-threads scheduler on GPUs -----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The paper's persistent-threads scheduler (Sec. 6.3): one kernel whose
// workgroups stay resident and run block-wise state machines over batches of
// instances. For a coroutine @f with subroutines 0..T-1, `f__pt` is, per
// workgroup of W threads with B instance slots:
//
//   tokens[B], ids[B], queue[B], counts[T]: workgroup memory
//   frames of slots [0, S): workgroup memory (SoA or AoS)
//   frames of slots [S, B): the global memory extension
//   loop {
//     leader: if enough slots are free, take a batch of instances with one
//             global atomic (counts[0] += batch); pick the most common
//             token c (counts[c] = 0: all of them run); stop if none
//     free slots get the new instances (token 0); slots with token c are
//             queued
//     each queued instance: subroutine c, its frame loads and stores on
//             the slot's frame where it makes them, token t -> tokens[],
//             counts[t] += 1                           (workgroup atomics)
//   }
//
// With fall-through, each queued instance goes on to any later subroutine
// the chosen one leads to, in the same step (buildFallThroughDispatch).
//
// counts[t] is the number of live slots with token t, kept by the steps:
// three workgroup barriers per step, and no pass over the slots to count.
//
// With swap-frames (the paper's frame swapping), a slot's frame may move:
// frameOf[B] names the frame each slot uses, frames [0, S) in workgroup
// memory and [S, B) in the extension. Each step, the queued slots whose
// frames are in the extension trade frames with slots that do not run whose
// frames are in workgroup memory, before the run, behind one more barrier.
//
// The kernel's name, arguments and state words are fixed in
// corogpu/runtime/PersistentABI.h, shared with the runtime.
//
// This file is the pass: its options, how much of workgroup memory the
// frames get, and the plan it records. PersistentBuilder
// (PersistentBuilder.h) builds the kernel; a slot's frame is a
// PersistentSlotFrame (CoroGPU/Conversion/FrameStorage.h).
//
//===----------------------------------------------------------------------===//

#include "PersistentBuilder.h"

#include "CoroGPU/Conversion/Passes.h"

#include "llvm/Support/DebugLog.h"

#include <limits>

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROPERSISTENTTOGPU
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-persistent-to-gpu"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::persistent;

namespace {

struct CoroPersistentToGPUPass
    : coro::impl::CoroPersistentToGPUBase<CoroPersistentToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SchedulerPassOpening opening{getArgument(), workgroupSize};
    opening.checkOptions = [&] { return checkOptions(module); };
    opening.rejectLaunches = LaunchRejection{
        "persistent-threads",
        "its launch (state buffer, global memory extension, workgroup "
        "count) is done by the CoroGPU runtime (coro-run, "
        "corogpu/runtime/Persistent.h)"};
    auto lower = [&](ArrayRef<SplitOp> splits) {
      return lowerSplitsWithPlans(module, splits, *this);
    };
    if (failed(runSchedulerPass(module, opening, lower, numKernels)))
      signalPassFailure();
  }

  LogicalResult checkOptions(ModuleOp module) {
    // Slot numbers, ids and byte counts are i32 in the kernel.
    constexpr int64_t kMaxBatch = int64_t(1) << 20;
    if (batch < 1 || batch > kMaxBatch)
      return mlir::emitError(module.getLoc(), getArgument())
             << ": batch must be in [1, " << kMaxBatch << "], got "
             << static_cast<int64_t>(batch);
    if (stepsPerLaunch < 0 ||
        stepsPerLaunch > std::numeric_limits<int32_t>::max())
      return mlir::emitError(module.getLoc(), getArgument())
             << ": steps-per-launch must be in [0, 2^31), got "
             << static_cast<int64_t>(stepsPerLaunch);
    if (sharedMemory < 0 || sharedMemory > std::numeric_limits<int32_t>::max())
      return mlir::emitError(module.getLoc(), getArgument())
             << ": shared-memory must be in [0, 2^31), got "
             << static_cast<int64_t>(sharedMemory);
    return success();
  }

  /// Workgroup memory of the scheduler's own arrays (slot tokens, ids and
  /// queue; counts and runs per subroutine; the control words; with
  /// `swap`, each slot's frame and the swap list), padded as the targets
  /// may place them.
  int64_t getSchedulerBytes(SplitOp split, bool swap) {
    int64_t tokens = split.getSubroutines().size();
    auto bytes = &getWorkgroupArrayBytes;
    return (swap ? 5 : 3) * bytes(batch) + 2 * bytes(tokens) +
           bytes(getNumControlWords(swap, parksOnPasses()));
  }
  /// Whether bounded steps also park on the loop passes counted.
  bool parksOnPasses() const {
    return countLoopIterations && (stepsPerLaunch > 0 || boundSteps);
  }
  /// bound-steps: the steps per launch that take kLoopPassesPerLaunch
  /// passes of the
  /// scheduler's own loops in a thread: the leader's two over the
  /// subroutines, three over the slots a thread serves (refill and queue,
  /// run; five with the swap), the step loop itself and the counting.
  int64_t getBoundedSteps(int64_t tokens, bool swap) {
    int64_t slotsPerThread = llvm::divideCeil(batch, workgroupSize);
    int64_t perStep = 2 * tokens + (swap ? 5 : 3) * slotsPerThread + 2;
    return std::max<int64_t>(1, kLoopPassesPerLaunch / perStep);
  }

  /// All the workgroup memory of the kernel.
  int64_t getWorkgroupBytes(SplitOp split, int64_t sharedSlots, bool swap) {
    int64_t bodyWords = split.getFrameWords() - kFirstFieldWord;
    return getSchedulerBytes(split, swap) +
           getWorkgroupArrayBytes(
               getFrameArrayWords(layout, sharedSlots, bodyWords));
  }

  /// How many slots keep their frame in workgroup memory: as many as the
  /// budget holds after the scheduler's own arrays; an error if those do
  /// not fit.
  FailureOr<int64_t> getSharedSlots(SplitOp split, bool swap) {
    int64_t tokens = split.getSubroutines().size();
    int64_t bodyWords = split.getFrameWords() - kFirstFieldWord;
    int64_t schedulerBytes = getSchedulerBytes(split, swap);
    if (schedulerBytes > sharedMemory) {
      split.emitOpError("needs ")
          << schedulerBytes << " bytes of workgroup memory for "
          << static_cast<int64_t>(batch)
          << " persistent-threads slots (tokens, ids, queue), " << tokens
          << " subroutines (counts, runs) and the control words, more than "
             "shared-memory="
          << static_cast<int64_t>(sharedMemory) << "; lower the batch";
      return failure();
    }
    if (bodyWords == 0)
      return static_cast<int64_t>(batch);
    // The frame array, padded to the alignment, must fit what is left.
    int64_t left = llvm::alignDown(sharedMemory - schedulerBytes,
                                   kWorkgroupArrayAlignment);
    auto slots = static_cast<int64_t>(
        corogpu::runtime::getFrameArraySlots(layout, left / 4, bodyWords));
    return std::min<int64_t>(batch, slots);
  }

  LogicalResult lowerSplit(SplitOp split, SymbolTable &symbols,
                           gpu::GPUModuleOp kernels, RewriterBase &rewriter) {
    auto coroutine = symbols.lookup<FuncOp>(split.getCoroutine());
    FailureOr<SmallVector<func::FuncOp>> subroutines =
        split.lookupSubroutines(symbols);
    FailureOr<int64_t> sharedSlots = getSharedSlots(split, /*swap=*/false);
    if (failed(subroutines) || failed(sharedSlots))
      return failure();
    // Frames swap where some live in each place, once the swap's arrays
    // take their share of workgroup memory.
    bool swap = false;
    if (swapFrames && *sharedSlots < batch &&
        getSchedulerBytes(split, /*swap=*/true) <= sharedMemory) {
      FailureOr<int64_t> swapSlots = getSharedSlots(split, /*swap=*/true);
      if (failed(swapSlots))
        return failure();
      swap = *swapSlots > 0;
      if (swap)
        sharedSlots = swapSlots;
    }
    LDBG() << "@" << coroutine.getSymName() << ": " << *sharedSlots << " of "
           << batch << " frames in workgroup memory"
           << (swap ? ", swapped" : "");
    int64_t steps = stepsPerLaunch;
    if (steps == 0 && boundSteps)
      steps = getBoundedSteps(split.getSubroutines().size(), swap);
    LDBG() << "@" << coroutine.getSymName() << ": "
           << (steps ? std::to_string(steps) : std::string("unbounded"))
           << " steps per launch";
    PersistentBuilder builder(split, coroutine, kernels, workgroupSize, batch,
                              *sharedSlots, swap, fallThrough, layout, steps,
                              parksOnPasses(), rewriter);
    if (failed(builder.build(*subroutines)))
      return failure();
    if (countLoopIterations)
      builder.addIterationCounter();
    for (func::FuncOp subroutine : *subroutines)
      rewriter.eraseOp(subroutine);
    // The subroutines are named by their tags, in token order.
    plan::setPlan(
        split->getParentOfType<ModuleOp>(), split.getCoroutine(),
        plan::PersistentPlanAttr::get(
            &getContext(), workgroupSize, split.getSubroutines().size(),
            split.getFrameWords() - kFirstFieldWord, batch, *sharedSlots,
            getWorkgroupBytes(split, *sharedSlots, swap), layout,
            split.getNamesAttr(), static_cast<uint32_t>(steps)));
    rewriter.eraseOp(split);
    rewriter.eraseOp(coroutine);
    return success();
  }
};

} // namespace

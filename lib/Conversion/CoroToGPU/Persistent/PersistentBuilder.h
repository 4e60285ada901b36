//===- PersistentBuilder.h - the persistent-threads kernel ------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to coro-persistent-to-gpu: the builder of one split coroutine's
// kernel (PersistentBuilder.cpp) and what the pass and the builder both
// size it by, the control words in workgroup memory. PersistentToGPU.cpp
// says what the kernel is and runs the pass; a slot's frame is a
// PersistentSlotFrame (FrameStorage.h).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_COROTOGPU_PERSISTENT_PERSISTENTBUILDER_H
#define COROGPU_CONVERSION_COROTOGPU_PERSISTENT_PERSISTENTBUILDER_H

#include "CoroGPU/Conversion/GPUKernels.h"
#include "corogpu/runtime/PersistentABI.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>

namespace mlir {
namespace coro {
namespace persistent {

namespace pt = corogpu::runtime::persistent;

/// Words of the leader's decisions in workgroup memory.
enum ControlWord : int64_t {
  kChosenToken,  ///< The token this step runs.
  kRunning,      ///< 0 once the workgroup has nothing left to run.
  kBatchBase,    ///< First instance of the batch taken this step.
  kBatchSize,    ///< Instances taken this step.
  kFreeRank,     ///< Numbers the free slots that take them.
  kQueueLength,  ///< Instances queued this step.
  kExhausted,    ///< 1 once the grid had no instance for this workgroup,
                 ///< or it took its batches of this launch.
  kSteps,        ///< Statistics of this workgroup, added to the state
  kAcquisitions, ///< buffer at the end.
  kReturned,
  kSwapIn,  ///< With swap-frames only: queued slots whose frames are
  kSwapOut, ///< in the extension, and slots that do not run with
            ///< frames in workgroup memory, this step;
  kSwapped, ///< frames swapped in (statistics).
  kNumControlWords,
  kNumControlWordsWithoutSwap = kSwapIn,
};

/// Words of an array of `slots` frames of `frameWords` words (aosoa: whole
/// tiles; corogpu/runtime/FrameArrayABI.h).
inline int64_t getFrameArrayWords(FrameArrayLayout layout, int64_t slots,
                                  int64_t frameWords) {
  return static_cast<int64_t>(
      corogpu::runtime::getFrameArrayWords(layout, slots, frameWords));
}

/// The control words of a kernel: with parkOnPasses one more, last, the
/// most loop passes a thread of the workgroup made this launch.
inline int64_t getNumControlWords(bool swapFrames, bool parkOnPasses) {
  return (swapFrames ? kNumControlWords : kNumControlWordsWithoutSwap) +
         (parkOnPasses ? 1 : 0);
}

/// Bounded steps with loops counted: the workgroup parks once a thread made
/// kLoopPassesPerLaunch loop passes in the launch, a quarter of lavapipe's
/// limit, so that a step after it has room even where the driver counts
/// more than a thread does (a subgroup's busiest lane loop by loop).

/// Builds the kernel of one split coroutine. Every scheduler value in
/// workgroup or state memory is an i32.
class PersistentBuilder : public SchedulerKernelBuilder {
public:
  PersistentBuilder(SplitOp split, FuncOp coroutine, gpu::GPUModuleOp kernels,
                    int64_t workgroupSize, int64_t batch, int64_t sharedSlots,
                    bool swapFrames, bool fallThrough, FrameArrayLayout layout,
                    int64_t stepsPerLaunch, bool parkOnPasses,
                    RewriterBase &rewriter)
      : SchedulerKernelBuilder(rewriter, coroutine.getLoc()), split(split),
        coroutine(coroutine), kernels(kernels), workgroupSize(workgroupSize),
        batch(batch), sharedSlots(sharedSlots), swapFrames(swapFrames),
        fallThrough(fallThrough), layout(layout),
        stepsPerLaunch(stepsPerLaunch), parkOnPasses(parkOnPasses) {
    tokens = split.getSubroutines().size();
    bodyWords = split.getFrameWords() - kFirstFieldWord;
  }

  /// Counts every loop pass of a thread (scheduler loops included) into
  /// kMostLoopIterations: a driver's loop limit reached.
  /// With parkOnPasses, each thread also raises the workgroup's peak to its
  /// count at the end of every step, for the leader's next decision.
  void addIterationCounter();

  /// Builds `<f>__pt`; the subroutines' frame accesses are lowered (the
  /// caller erases them).
  LogicalResult build(ArrayRef<func::FuncOp> subroutines);

private:
  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  Value both(Value a, Value b) {
    return arith::AndIOp::create(rewriter, loc, a, b);
  }

  Value loadShared(Value array, Value at) {
    return memref::LoadOp::create(rewriter, loc, array, at);
  }
  void storeShared(Value array, Value at, Value value) {
    memref::StoreOp::create(rewriter, loc, value, array, at);
  }
  /// The control word of the peak of loop passes (parkOnPasses).
  int64_t getPassesPeakWord() const {
    return getNumControlWords(swapFrames, /*parkOnPasses=*/false);
  }
  Value loadControl(ControlWord word) {
    return loadShared(control, index(word));
  }
  void storeControl(ControlWord word, Value value) {
    storeShared(control, index(word), value);
  }
  /// Atomically adds `value` to `array[at]`; returns the old value.
  Value atomicAdd(Value array, Value at, Value value) {
    return memref::AtomicRMWOp::create(rewriter, loc,
                                       arith::AtomicRMWKind::addi, value, array,
                                       ValueRange{at});
  }
  void addToState(Value word, Value value) { atomicAdd(state, word, value); }

  /// The slots of this thread: lane, lane + W, ... below the batch.
  void forEachSlot(function_ref<void(Value)> body) {
    buildLoop(lane, index(batch), index(workgroupSize), body);
  }

  //===--------------------------------------------------------------------===//
  // The kernel
  //===--------------------------------------------------------------------===//

  Value addWorkgroupArray(int64_t size) {
    return SchedulerKernelBuilder::addWorkgroupArray(kernel, size);
  }

  void createKernelAndMemory();
  /// Thread 0: takes a batch of instances when at least a workgroup's worth
  /// of slots is free (or all are), then picks the most common token.
  void buildLeaderDecisions();

  /// Bounded steps: the first word of this workgroup's park area, after
  /// every workgroup's frames in the extension (PersistentABI.h).
  Value getParkBase();
  /// The word of `slot` in `array` of the park area at `park`.
  Value getParkedWord(Value park, pt::ParkArray array, Value slot);
  /// Words of the array of the frames in workgroup memory.
  int64_t getSharedFrameWords();
  /// Bounded steps, at the start of a launch after the first: the slots
  /// parked at the end of the last one (tokens, ids, frame table, the
  /// frames in workgroup memory) come back, and each live one counts
  /// itself at its token.
  void buildResume();
  /// Bounded steps, at the end of every launch: the slots, live or free,
  /// go to the park area for the next launch.
  void buildPark();

  /// Free slots take the batch's instances; slots with the chosen token go
  /// to the queue.
  void buildRefillAndQueue();
  /// The frame swap: the k-th queued slot with a frame in the extension and
  /// the k-th slot that does not run with a frame in workgroup memory trade
  /// frames (a free slot's frame is only overwritten), so that as many
  /// instances as workgroup memory holds run on it. A barrier separates the
  /// copies from the run, only in the steps that swap (a uniform test: the
  /// counts were written before the last barrier).
  void buildSwap();
  /// Each thread takes queued instances W apart and runs the chosen
  /// subroutine on each (with fall-through, and the later ones it leads to).
  LogicalResult buildRun(ArrayRef<func::FuncOp> subroutines);

  /// The frame of `slot`: its fields in workgroup memory below sharedSlots,
  /// in this workgroup's part of the extension above; its token in the
  /// private frame.
  PersistentSlotFrame getSlotFrame(Value slot);
  /// Frame `frame` (below sharedSlots) in workgroup memory.
  FrameArraySlot getSharedFrame(Value frame);
  /// Frame `frame` (sharedSlots or above) in this workgroup's part of the
  /// extension.
  FrameArraySlot getExtensionFrame(Value frame);

  SplitOp split;
  FuncOp coroutine;
  gpu::GPUModuleOp kernels;
  int64_t workgroupSize, batch, sharedSlots;
  /// Whether frames swap (swap-frames, and both places hold frames).
  bool swapFrames;
  /// Whether an instance goes on to later subroutines in the step that runs
  /// the chosen one (fall-through).
  bool fallThrough;
  FrameArrayLayout layout;
  /// Steps a workgroup runs per launch before it parks its slots (0: no
  /// bound).
  int64_t stepsPerLaunch;
  /// With bounded steps and loops counted: the workgroup also parks once a
  /// thread made kLoopPassesPerLaunch loop passes this launch, which the
  /// loops inside subroutines (a BVH traversal) make long.
  bool parkOnPasses;
  /// The barrier that ends a step's run.
  Operation *stepEnd = nullptr;
  int64_t tokens = 0, bodyWords = 0;

  gpu::GPUFuncOp kernel;
  Value nx, ny, state, extension;
  SmallVector<Value> coroutineArgs;
  Value slotTokens, slotIds, queue, counts, runs, control, sharedFrames;
  /// With swapFrames: the frame each slot uses, and the step's swap list.
  Value frameOf, swapList;
  Value lane, group;
  std::optional<PrivateFrame> privateFrame;
};

} // namespace persistent
} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_COROTOGPU_PERSISTENT_PERSISTENTBUILDER_H

//===- WavefrontBuilder.h - the wavefront scheduler's kernels ---*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to coro-wavefront-to-gpu: the builder of one split coroutine's
// kernels, shared by the files of the scheduler. WavefrontBuilder.cpp holds
// what both designs use (the subroutine kernels, the categories),
// ClassifyDesign.cpp and QueueDesign.cpp the scheduling kernels of each
// design; WavefrontToGPU.cpp says what the kernels are and runs the pass.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_COROTOGPU_WAVEFRONT_WAVEFRONTBUILDER_H
#define COROGPU_CONVERSION_COROTOGPU_WAVEFRONT_WAVEFRONTBUILDER_H

#include "CoroGPU/Conversion/GPUKernels.h"
#include "corogpu/runtime/WavefrontABI.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace coro {
namespace wavefront {

namespace wf = corogpu::runtime::wavefront;

/// The arguments every wavefront kernel takes (see WavefrontABI.h).
struct KernelArgs {
  Value nx, ny, nz;
  Value frames, queue, ranks, blocks, state, scratch;
  ValueRange coroutineArgs;

  explicit KernelArgs(gpu::GPUFuncOp kernel) {
    Block &entry = kernel.getBody().front();
    nx = entry.getArgument(0);
    ny = entry.getArgument(1);
    nz = entry.getArgument(2);
    frames = entry.getArgument(3);
    queue = entry.getArgument(4);
    ranks = entry.getArgument(5);
    blocks = entry.getArgument(6);
    state = entry.getArgument(7);
    scratch = entry.getArgument(8);
    // Not the workgroup attributions, which follow as block arguments.
    unsigned first = 3 + wf::kNumSchedulerBuffers;
    coroutineArgs =
        entry.getArguments().slice(first, kernel.getNumArguments() - first);
  }
};

/// Builds the kernels of one split coroutine. Small helpers name the
/// arithmetic; every value of the state buffer is an i32.
class WavefrontBuilder : public SchedulerKernelBuilder {
public:
  WavefrontBuilder(SplitOp split, FuncOp coroutine, gpu::GPUModuleOp kernels,
                   int64_t workgroupSize, FrameArrayLayout layout,
                   std::optional<FrameFieldAttr> hint, int64_t buckets,
                   bool queues, bool gridStride, bool subgroupAppends,
                   bool tail, bool countIterations, RewriterBase &rewriter)
      : SchedulerKernelBuilder(rewriter, coroutine.getLoc()), split(split),
        coroutine(coroutine), kernels(kernels), workgroupSize(workgroupSize),
        layout(layout), hint(hint), buckets(hint ? buckets : 1), queues(queues),
        gridStride(gridStride), subgroupAppends(queues && subgroupAppends),
        tail(queues && tail), countIterations(countIterations) {
    tokens = split.getSubroutines().size();
    categories = tokens * this->buckets;
    frameWords = split.getFrameWords();
  }

  int64_t getNumCategories() const { return categories; }
  /// The queue design with hint buckets: the round's queues are sorted by
  /// category (a scatter kernel after advance).
  bool sortsQueues() const { return queues && buckets > 1; }

  /// The queue design's tail kernel (tail-below): one thread per instance
  /// the round's queues hold, which runs it through its subroutines, as the
  /// state machine does, from the token its frame holds, then appends it to
  /// the free ring or the queue of the token it stopped at. Clones the
  /// bodies of `subroutines` (token order), which stay.
  LogicalResult buildTailKernel(ArrayRef<func::FuncOp> subroutines);

  /// The scheduling kernels of the design: init and advance (queues; and
  /// scatter with hint buckets), or init, classify, scan, scatter and the
  /// two compaction kernels.
  void buildSchedulingKernels();

  /// The kernel of subroutine `token`: its body runs on the frame of each
  /// slot of its queue. Its frame accesses are lowered; the caller erases
  /// the subroutine.
  LogicalResult buildSubroutineKernel(func::FuncOp subroutine, unsigned token);

private:
  //===--------------------------------------------------------------------===//
  // Helpers (WavefrontBuilder.cpp)
  //===--------------------------------------------------------------------===//

  Value loadState(const KernelArgs &args, Value word) {
    return memref::LoadOp::create(rewriter, loc, args.state, word);
  }
  Value loadState(const KernelArgs &args, uint32_t word) {
    return loadState(args, index(word));
  }
  void storeState(const KernelArgs &args, uint32_t word, Value value) {
    memref::StoreOp::create(rewriter, loc, value, args.state,
                            ValueRange{index(word)});
  }
  void addToState(const KernelArgs &args, uint32_t word, Value value) {
    storeState(args, word, add(loadState(args, word), value));
  }
  /// Writes x = `groups`, y = z = 1 at `word`: indirect dispatch arguments.
  void storeGroups(const KernelArgs &args, uint32_t word, Value groups) {
    storeState(args, word, groups);
    storeState(args, word + 1, i32(1));
    storeState(args, word + 2, i32(1));
  }

  /// Creates the kernel `<coroutine><suffix>` with the common arguments and
  /// sets the insertion point before its return.
  KernelArgs beginKernel(const std::string &name);
  KernelArgs beginSchedulingKernel(const char *suffix) {
    return beginKernel(coroutine.getSymName().str() + suffix);
  }

  /// The threads of the launch (an index): a grid-stride kernel's step
  /// over queue positions.
  Value getGridThreads();

  /// Workgroup memory of `size` i32 in the current kernel.
  Value addWorkgroupArray(int64_t size) {
    return SchedulerKernelBuilder::addWorkgroupArray(currentKernel, size);
  }

  Value getCapacity(const KernelArgs &args) {
    return toIndex(loadState(args, wf::kCapacity));
  }
  /// The frame of `slot` (an index) in the frame buffer.
  FrameArraySlot getFrame(const KernelArgs &args, Value slot) {
    return FrameArraySlot(args.frames, frameWords, slot, getCapacity(args),
                          layout);
  }
  /// Workgroups of the slot kernels when all slots are scanned.
  Value getMaxSlotGroups(const KernelArgs &args) {
    return ceilDiv(getCapacity(args), workgroupSize);
  }

  /// The category of an alive slot whose token is `token` (i32):
  /// token * buckets + the bucket of its hint.
  Value getCategory(const FrameArraySlot &frame, Value token);

  //===--------------------------------------------------------------------===//
  // The classify design (ClassifyDesign.cpp)
  //===--------------------------------------------------------------------===//

  /// Every slot free.
  void buildInit();
  /// One thread per slot of [0, active): refill, category, rank in the
  /// workgroup, and per category the workgroup's first place in its queue.
  void buildClassify();

  /// How per-category counters of a workgroup pack into i32 words: each
  /// holds up to workgroupSize, so `bits` bits, `perWord` per word.
  struct CounterPacking {
    int64_t bits, perWord, words;
  };
  /// None when classify would need more than 16 KiB of workgroup memory,
  /// the least Vulkan guarantees, with the packed counters.
  std::optional<CounterPacking> getCounterPacking() const;
  /// Whether classify counts the categories in a histogram: where the
  /// packed counters take more than four words per lane (more than 16
  /// categories with workgroups under 256 threads, as sort-by's buckets
  /// make), whose scan then costs more per slot than one atomic, and where
  /// the histogram fits in 16 KiB beside the refill's arrays.
  bool usesHistogram(const std::optional<CounterPacking> &packing) const;
  /// Whether classify's workgroup memory fits in 16 KiB, the least Vulkan
  /// guarantees, with `counterWords` words counting the categories: beside
  /// them, the free-slot prefix sums and the workgroup's first instance.
  bool fitsClassifyMemory(int64_t counterWords) const;

  /// The refill part of classify: returns the slot's token afterwards.
  Value buildRefill(const KernelArgs &args, const FrameArraySlot &frame,
                    Value shared, Value sharedBase, Value lane, Value inRange,
                    Value oldToken);
  /// One workgroup: the category totals (classify's counters, cleared for
  /// the next round), their offsets (thread 0) and the decisions of the
  /// round.
  void buildScan();
  void buildRoundDecisions(const KernelArgs &args, Value totals);
  /// One thread per slot of the round: queue[place] = slot.
  void buildScatter();
  /// Compaction, in two kernels so that no frame is overwritten before it
  /// is copied: the alive frames (queue order) to `scratch`, then back to
  /// the first slots, and the queue then names those slots.
  void buildCompaction(bool gather);

  //===--------------------------------------------------------------------===//
  // The queue design (QueueDesign.cpp)
  //===--------------------------------------------------------------------===//

  Value getFreeRingStart(const KernelArgs &args);
  /// Where entry `position` (any count: the ring wraps) of the free ring
  /// is in the queue buffer.
  Value getFreeRingPlace(const KernelArgs &args, Value position);
  /// Where the queue of `token` in `half` of the queue buffer starts (the
  /// layout of WavefrontABI.h), in the type of the values given.
  Value getQueueStart(Value half, Value token, Value capacity);

  /// Where a slot goes after its subroutine ran: the queue of the token its
  /// instance now waits at, or bin `tokens` (the free ring) once it
  /// returned.
  Value getQueueBin(const FrameArraySlot &frame);
  /// The bins subroutine `token` may leave a slot in: the tokens it sets
  /// (the free ring for the termination token), and its own unless its
  /// body sets a target on every path (one in its top-level block; the
  /// split's exits do), since a path that sets none leaves it in place.
  SmallVector<int64_t> getReachableBins(func::FuncOp subroutine,
                                        unsigned token);
  /// The bin of a lane that ran no instance (subgroup appends).
  int64_t getNoQueueBin() const { return tokens + 1; }

  /// Puts `slot` at `place` of `bin` (getQueueBin): the next round's queue
  /// or the free ring.
  void storeAppended(const KernelArgs &args, Value bin, Value place,
                     Value slot);
  /// The state word that counts the appends to `bin`.
  Value getAppendCounter(Value bin);

  /// After a subroutine ran on `slot`: the slot joins `bin`, with one
  /// atomic per slot (see QueueDesign.cpp).
  void appendToNextQueue(const KernelArgs &args, Value bin, Value slot);
  /// The same for every lane of a subgroup at once, with one atomic per
  /// subgroup and bin (see QueueDesign.cpp).
  void appendBySubgroup(const KernelArgs &args, ArrayRef<int64_t> bins,
                        Value bin, Value slot);

  /// With sorted queues: numbers a slot that joins the queue of `bin` in
  /// its category (one atomic on the category's counter), into `ranks`.
  void rankInCategory(const KernelArgs &args, const FrameArraySlot &frame,
                      Value bin, Value slot);
  /// With sorted queues, in advance: the categories' places in the sorted
  /// region (prefix sums of their counters, which it clears) and each
  /// token's start there, into `starts`.
  void placeCategories(const KernelArgs &args, Value capacity,
                       MutableArrayRef<Value> starts);
  /// With sorted queues: one thread per instance appended last round moves
  /// its slot to its place in the sorted region.
  void buildSortedScatter();

  /// Instance `position` (an index) of the queues of the tokens after the
  /// entry laid end to end, token t's `count(t)` instances from `start(t)`
  /// (indices): its place in the queue buffer, its token (i32), and the
  /// queues' total.
  struct QueuedInstance {
    Value place, token, total;
  };
  QueuedInstance locateInQueues(Value position,
                                function_ref<Value(unsigned)> count,
                                function_ref<Value(unsigned)> start);

  /// Every slot in the free ring.
  void buildQueueInit();
  /// One thread, before the subroutine kernels of a round: the queues
  /// filled last round become this round's, new instances take free
  /// slots, and the round's counts, dispatch sizes, statistics and
  /// termination follow; in a tail round (tail-below), the tail kernel's
  /// counts instead of the subroutine kernels'.
  void buildAdvance();

  SplitOp split;
  FuncOp coroutine;
  gpu::GPUModuleOp kernels;
  int64_t workgroupSize;
  FrameArrayLayout layout;
  std::optional<FrameFieldAttr> hint;
  int64_t buckets;
  /// The queue design; otherwise classify.
  bool queues;
  /// Subroutine kernels stride over their queue (grid-stride).
  bool gridStride;
  /// The queue design's appends are one atomic per subgroup and queue.
  bool subgroupAppends;
  /// The queue design has a tail kernel (tail-below).
  bool tail;
  /// Count loop iterations into kMostLoopIterations (count-loop-iterations).
  bool countIterations;
  int64_t tokens = 0, categories = 0, frameWords = 0;
  gpu::GPUFuncOp currentKernel;
};

} // namespace wavefront
} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_COROTOGPU_WAVEFRONT_WAVEFRONTBUILDER_H

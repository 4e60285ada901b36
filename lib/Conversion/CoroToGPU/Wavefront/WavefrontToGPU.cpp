//===- WavefrontToGPU.cpp - the wavefront scheduler on GPUs ---------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The paper's wavefront scheduler (Sec. 6.2): one kernel per subroutine, the
// frames of `capacity` instance slots in global memory, and scheduling
// kernels that build one queue per subroutine every round, with no host
// read-back. For a coroutine @f with subroutines 0..T-1, the classify
// design:
//
//   f__wf_init            every slot free (token -1)
//   per round:
//     f__wf_classify      refill free slots; category and rank of each slot
//     f__wf_scan          prefix sums; queue places, workgroup counts, flags
//     f__wf_scatter       queue[place] = slot (stable multi-split)
//     f__wf_compact_*     move the alive frames to the first slots (rarely)
//     f__wf_0 .. f__wf_T-1   subroutine t on the slots of its queue
//
// and the queue design (the default), where the subroutine kernels append
// the slots they leave to the next round's queues:
//
//   f__wf_init            every slot in the free ring
//   per round:
//     f__wf_advance       swap the queues; counts, dispatches, new instances
//     f__wf_0 .. f__wf_T-1   subroutine t on its queue, then the appends
//
// The state buffer's words, the kernels' arguments and names are fixed in
// corogpu/runtime/WavefrontABI.h, shared with the runtime's host loop.
//
// This file is the pass: its options and checks, the plan it records, and
// the order in which WavefrontBuilder (WavefrontBuilder.h) builds the
// kernels. The scheduling kernels of each design are in ClassifyDesign.cpp
// and QueueDesign.cpp; they read and write the same state words and queues,
// whose protocol WavefrontABI.h fixes.
//
//===----------------------------------------------------------------------===//

#include "WavefrontBuilder.h"

#include "CoroGPU/Conversion/Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROWAVEFRONTTOGPU
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-wavefront-to-gpu"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::wavefront;

namespace {

struct CoroWavefrontToGPUPass
    : coro::impl::CoroWavefrontToGPUBase<CoroWavefrontToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SchedulerPassOpening opening{getArgument(), workgroupSize};
    opening.checkOptions = [&]() -> LogicalResult {
      if (!sortBy.empty() && hintBuckets < 1)
        return mlir::emitError(module.getLoc(), getArgument())
               << ": hint-buckets must be positive, got "
               << static_cast<int64_t>(hintBuckets);
      if (tailBelow > 100)
        return mlir::emitError(module.getLoc(), getArgument())
               << ": tail-below is a percentage of the slots, got "
               << static_cast<int64_t>(tailBelow);
      if (tailBelow != 0 && design == WavefrontDesign::Classify)
        return mlir::emitError(module.getLoc(), getArgument())
               << ": tail-below needs the queue design; the classify "
                  "design (design=classify, and in coro-run chosen by "
                  "--compact-below, --order=most-first and --refill=half) "
                  "has no tail kernel";
      return success();
    };
    opening.rejectLaunches = LaunchRejection{
        "wavefront", "its host loop runs in the CoroGPU runtime (coro-run, "
                     "corogpu/runtime/Wavefront.h)"};
    auto lower = [&](ArrayRef<SplitOp> splits) -> LogicalResult {
      if (failed(checkSortByIsUsed(module, splits)))
        return failure();
      return lowerSplitsWithPlans(module, splits, *this);
    };
    if (failed(runSchedulerPass(module, opening, lower, numKernels)))
      signalPassFailure();
  }

  /// The promise field named by sort-by in `split`, if it has one; an
  /// error if it is not an integer.
  FailureOr<std::optional<FrameFieldAttr>> findHintField(SplitOp split) {
    if (sortBy.empty())
      return std::optional<FrameFieldAttr>();
    for (FrameFieldAttr field : split.getFrameFields()) {
      if (!field.getPromise() || field.getName() != sortBy)
        continue;
      Type type = field.getType();
      if (!type.isIndex() && !type.isSignlessInteger()) {
        split.emitOpError("sort-by field \"")
            << sortBy << "\" must be an integer or index, not " << type;
        return failure();
      }
      return std::optional<FrameFieldAttr>(field);
    }
    return std::optional<FrameFieldAttr>();
  }

  /// Fails unless some coroutine of `splits` has the sort-by promise.
  LogicalResult checkSortByIsUsed(ModuleOp module, ArrayRef<SplitOp> splits) {
    if (sortBy.empty())
      return success();
    llvm::SetVector<StringRef> promises;
    for (SplitOp split : splits)
      for (FrameFieldAttr field : split.getFrameFields())
        if (field.getPromise()) {
          if (field.getName() == sortBy)
            return success();
          promises.insert(field.getName().getValue());
        }
    // Not module.emitError: the note would print the whole module.
    mlir::emitError(module.getLoc(), getArgument())
        << ": no coroutine has a promise field \"" << sortBy
        << "\" to sort by (promise fields: "
        << (promises.empty() ? "none" : llvm::join(promises, ", ")) << ")";
    return failure();
  }

  LogicalResult lowerSplit(SplitOp split, SymbolTable &symbols,
                           gpu::GPUModuleOp kernels, RewriterBase &rewriter) {
    auto coroutine = symbols.lookup<FuncOp>(split.getCoroutine());
    FailureOr<SmallVector<func::FuncOp>> subroutines =
        split.lookupSubroutines(symbols);
    FailureOr<std::optional<FrameFieldAttr>> hint = findHintField(split);
    if (failed(subroutines) || failed(hint))
      return failure();
    bool queues = design != WavefrontDesign::Classify;
    // A target must name a subroutine; and the queue design starts
    // instances only from free slots, so an instance that asked to run the
    // entry again would be lost.
    int64_t tokens = split.getSubroutines().size();
    for (func::FuncOp subroutine : *subroutines) {
      WalkResult walk = subroutine.walk([&](FrameSetTargetOp op) {
        int32_t target = op.getToken();
        if (target != kTerminatedToken && (target < 0 || target >= tokens)) {
          op.emitOpError("targets token ")
              << target << ", which no subroutine has (tokens 0 to "
              << tokens - 1 << ", or -1 for the end)";
          return WalkResult::interrupt();
        }
        if (queues && target == kEntryToken) {
          op.emitOpError("targets token 0: the wavefront's queue design "
                         "resumes tokens 1 to ")
              << tokens - 1
              << " (the entry runs once, on a new instance); use "
                 "design=classify";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
    }
    WavefrontBuilder builder(split, coroutine, kernels, workgroupSize, layout,
                             *hint, hintBuckets, queues, gridStride,
                             subgroupAppends, tailBelow != 0,
                             countLoopIterations, rewriter);
    // The scan keeps one total per category in workgroup memory.
    constexpr int64_t kMaxCategories = 4096;
    if (builder.getNumCategories() > kMaxCategories) {
      split.emitOpError("has ")
          << builder.getNumCategories()
          << " wavefront queues (subroutines x hint-buckets), more than "
          << kMaxCategories;
      return failure();
    }
    builder.buildSchedulingKernels();
    if (queues && tailBelow != 0 &&
        failed(builder.buildTailKernel(*subroutines)))
      return failure();
    for (auto [token, subroutine] : llvm::enumerate(*subroutines)) {
      if (failed(builder.buildSubroutineKernel(subroutine, token)))
        return failure();
      rewriter.eraseOp(subroutine);
    }
    // The subroutines are named by their tags, in token order.
    plan::setPlan(
        split->getParentOfType<ModuleOp>(), split.getCoroutine(),
        plan::WavefrontPlanAttr::get(
            &getContext(), workgroupSize, split.getSubroutines().size(),
            builder.getNumCategories(), split.getFrameWords(), layout,
            split.getNamesAttr(),
            queues ? WavefrontDesign::Queues : WavefrontDesign::Classify,
            gridStride, queues ? tailBelow.getValue() : 0));
    rewriter.eraseOp(split);
    rewriter.eraseOp(coroutine);
    return success();
  }
};

} // namespace

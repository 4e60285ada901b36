//===- LiveState.cpp - what crosses each suspension point -----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LiveState.h"
#include "ContinuationBuilder.h"
#include "FrameSpill.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-split"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::split;

LogicalResult mlir::coro::split::computeLiveSets(
    FuncOp coroutine, ArrayRef<CheckpointOp> checkpoints,
    ArrayRef<std::string> names, const MustSuspendAnalysis &analysis,
    RecomputeAnalysis &recomputation,
    function_ref<func::FuncOp(IRMapping &)> createScratch,
    llvm::SetVector<Value> &naiveValues, RewriterBase &rewriter) {
  bool changed = true;
  int rounds = 0;
  while (changed) {
    changed = false;
    ++rounds;
    // Later suspension points first: state flows backwards, so most
    // programs settle in one or two rounds.
    for (CheckpointOp checkpoint : llvm::reverse(checkpoints)) {
      IRMapping mapping;
      func::FuncOp scratch = createScratch(mapping);
      OpBuilder builder = OpBuilder::atBlockEnd(&scratch.getBody().front());
      ContinuationBuilder(builder, mapping, analysis)
          .buildContinuation(checkpoint);
      llvm::SetVector<Value> live;
      for (Value value : collectExternalValues(scratch)) {
        Operation *def = value.getDefiningOp();
        bool isArgument = !def && cast<BlockArgument>(value).getOwner() ==
                                      &coroutine.getBody().front();
        if (!isArgument && (!def || (!isa<IdOp>(def) &&
                                     !def->hasTrait<OpTrait::ConstantLike>())))
          naiveValues.insert(value);
        recomputation.addFrameInputs(value, live);
      }
      scratch.erase();
      for (Value value : live) {
        if (RecomputeAnalysis::getFrameBits(value))
          continue;
        return emitError(value.getLoc(), "this value of type ")
               << value.getType() << " is live across suspension point '"
               << names[checkpoint.getToken()]
               << "' and cannot be kept in the frame; only scalars, "
                  "fixed-size vectors and local arrays (memref.alloca of "
                  "static shape, at most "
               << kMaxLocalArrayElements
               << " elements) may cross; buffers are passed as arguments "
                  "(and views recomputed from them)";
      }
      // Keep the existing order and append what is new, so the fixed point
      // is reached monotonically.
      llvm::SetVector<Value> merged(checkpoint.getLive().begin(),
                                    checkpoint.getLive().end());
      merged.insert(live.begin(), live.end());
      if (merged.size() == checkpoint.getLive().size())
        continue;
      LDBG() << "round " << rounds << ": '" << names[checkpoint.getToken()]
             << "' has " << merged.size() << " live values (was "
             << checkpoint.getLive().size() << ")";
      rewriter.modifyOpInPlace(checkpoint, [&] {
        checkpoint.getLiveMutable().assign(merged.getArrayRef());
      });
      changed = true;
    }
  }
  LDBG() << "live sets settled after " << rounds << " rounds";
  return success();
}

void mlir::coro::split::reduceLiveSets(ArrayRef<CheckpointOp> checkpoints,
                                       RecomputeAnalysis &recomputation,
                                       RewriterBase &rewriter) {
  for (CheckpointOp checkpoint : checkpoints) {
    llvm::SetVector<Value> live(checkpoint.getLive().begin(),
                                checkpoint.getLive().end());
    SmallVector<Value> candidates(live.begin(), live.end());
    llvm::stable_sort(candidates, [](Value a, Value b) {
      return *RecomputeAnalysis::getFrameBits(a) >
             *RecomputeAnalysis::getFrameBits(b);
    });
    for (Value value : candidates) {
      llvm::SetVector<Value> others = live;
      others.remove(value);
      FailureOr<llvm::SetVector<Value>> leaves =
          recomputation.getLeavesGiven(value, others);
      if (failed(leaves))
        continue;
      int64_t leafBits = 0;
      for (Value leaf : *leaves)
        leafBits += *RecomputeAnalysis::getFrameBits(leaf);
      if (leafBits >= *RecomputeAnalysis::getFrameBits(value))
        continue;
      others.insert_range(*leaves);
      live = std::move(others);
    }
    LDBG() << "checkpoint " << checkpoint.getToken() << ": "
           << checkpoint.getLive().size() << " live values, " << live.size()
           << " after recomputation";
    rewriter.modifyOpInPlace(checkpoint, [&] {
      checkpoint.getLiveMutable().assign(live.getArrayRef());
    });
  }
}

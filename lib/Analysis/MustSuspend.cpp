//===- MustSuspend.cpp - where control must suspend -----------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/MustSuspend.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-must-suspend"

using namespace mlir;
using namespace mlir::coro;

MustSuspendAnalysis::MustSuspendAnalysis(
    Operation *root, const llvm::SmallPtrSetImpl<Operation *> &nonEmptyLoops) {
  root->walk([&](Operation *op) { // Post-order: nested ops first.
    if (computeMustSuspend(op, nonEmptyLoops)) {
      mustSuspend.insert(op);
      LDBG() << "must suspend in "
             << OpWithFlags(op, OpPrintingFlags().skipRegions());
    }
  });
}

bool MustSuspendAnalysis::blockMustSuspend(Block &block) const {
  return llvm::any_of(block,
                      [&](Operation &op) { return mustSuspend.contains(&op); });
}

bool MustSuspendAnalysis::regionMustSuspend(Region &region) const {
  return !region.empty() && blockMustSuspend(region.front());
}

bool MustSuspendAnalysis::computeMustSuspend(
    Operation *op,
    const llvm::SmallPtrSetImpl<Operation *> &nonEmptyLoops) const {
  if (isa<CheckpointOp>(op))
    return true;
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
    return llvm::all_of(op->getRegions(), [&](Region &region) {
      return regionMustSuspend(region);
    });
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return regionMustSuspend(loop.getBefore()) ||
           (nonEmptyLoops.contains(op) && regionMustSuspend(loop.getAfter()));
  return false;
}

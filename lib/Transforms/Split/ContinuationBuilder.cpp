//===- ContinuationBuilder.cpp - subroutine bodies for coro-split ---------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ContinuationBuilder.h"
#include "CoroGPU/Dialect/Coro/Utils/PlaceholderValue.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-split"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::split;

void ContinuationBuilder::buildEntry(FuncOp coroutine) {
  (void)cloneTail(&coroutine.getBody().front(), nullptr);
}

void ContinuationBuilder::buildContinuation(Operation *point) {
  Operation *current = point;
  std::optional<SmallVector<Value>> yielded =
      cloneTail(point->getBlock(), point);
  while (yielded && !isa<FuncOp>(current->getParentOp())) {
    Operation *parent = current->getParentOp();
    LDBG() << "continuation of " << *point << " finishes " << parent->getName();
    std::optional<SmallVector<Value>> results =
        finishParent(parent, current->getParentRegion(), *yielded);
    if (!results)
      return;
    mapping.map(parent->getResults(), *results);
    current = parent;
    yielded = cloneTail(parent->getBlock(), parent);
  }
}

std::optional<SmallVector<Value>>
ContinuationBuilder::cloneTail(Block *block, Operation *from) {
  auto it = from ? std::next(from->getIterator()) : block->begin();
  for (; &*it != block->getTerminator(); ++it) {
    auto loop = dyn_cast<scf::WhileOp>(&*it);
    if (loop && analysis.mustSuspendInBody(loop)) {
      SmallVector<Value> inits = llvm::map_to_vector(
          loop.getInits(), [&](Value v) { return mapping.lookupOrDefault(v); });
      mapping.map(loop.getResults(), cloneLoopFrom(loop, inits));
    } else {
      cloneFresh(&*it);
    }
    if (analysis.mustSuspendIn(&*it))
      return std::nullopt;
  }
  return llvm::map_to_vector(
      block->getTerminator()->getOperands(),
      [&](Value v) { return mapping.lookupOrDefault(v); });
}

std::optional<SmallVector<Value>>
ContinuationBuilder::finishParent(Operation *parent, Region *region,
                                  ArrayRef<Value> yielded) {
  auto loop = dyn_cast<scf::WhileOp>(parent);
  if (!loop) // scf.if, scf.index_switch: the region's values are the results
    return SmallVector<Value>(yielded);
  if (region == &loop.getAfter())
    return cloneLoopFrom(loop, yielded);
  return replayCondition(loop, yielded);
}

SmallVector<Value>
ContinuationBuilder::replayCondition(scf::WhileOp loop,
                                     ArrayRef<Value> yielded) {
  Location loc = loop.getLoc();
  Value condition = yielded.front();
  ArrayRef<Value> args = yielded.drop_front();
  auto replay = scf::IfOp::create(builder, loc, loop.getResultTypes(),
                                  condition, /*withElseRegion=*/true);
  // Start from empty branches: without results the builder put an
  // scf.yield in each (for a loop that carries nothing).
  for (Block *branch : {replay.thenBlock(), replay.elseBlock()})
    if (!branch->empty())
      branch->back().erase();
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(replay.thenBlock());
    Block *after = loop.getAfterBody();
    mapping.map(after->getArguments(), args);
    if (std::optional<SmallVector<Value>> next = cloneTail(after, nullptr)) {
      scf::YieldOp::create(builder, loc, cloneLoopFrom(loop, *next));
    } else {
      // Suspends inside the after region; the results are never used.
      scf::YieldOp::create(builder, loc,
                           createPlaceholders(loc, loop.getResultTypes()));
    }
    builder.setInsertionPointToStart(replay.elseBlock());
    scf::YieldOp::create(builder, loc, args);
  }
  return replay.getResults();
}

SmallVector<Value> ContinuationBuilder::cloneLoopFrom(scf::WhileOp loop,
                                                      ArrayRef<Value> inits) {
  if (analysis.mustSuspendInBody(loop)) {
    Block *before = loop.getBeforeBody();
    mapping.map(before->getArguments(), inits);
    if (std::optional<SmallVector<Value>> yielded = cloneTail(before, nullptr))
      return replayCondition(loop, *yielded);
    return createPlaceholders(loop.getLoc(), loop.getResultTypes());
  }
  Operation *copy = cloneFresh(loop);
  copy->setOperands(inits);
  return copy->getResults();
}

SmallVector<Value> ContinuationBuilder::createPlaceholders(Location loc,
                                                           TypeRange types) {
  return llvm::map_to_vector(types, [&](Type type) {
    return createPlaceholderValue(builder, loc, type);
  });
}

Operation *ContinuationBuilder::cloneFresh(Operation *op) {
  for (Region &region : op->getRegions())
    region.walk([&](Block *block) {
      for (BlockArgument arg : block->getArguments())
        mapping.erase(arg);
    });
  return builder.clone(*op, mapping);
}

//===- ResolveHandles.cpp - lower handles over the drive graph ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A coroutine that code drives (coro.handle ops, coro.for_each) may drive
// frames itself, and hold them across its own suspension points: a generator
// over a generator. Its split must see those frames as local arrays, so the
// handles it holds are lowered first. This pass runs rounds of
//
//   coro-split{handle-targets-only}   the driven coroutines that drive nothing
//   coro-materialize-frame
//   coro-lower-handles{skip-unsplit}  the ops that drive split coroutines
//
// until no op drives a frame: one round per level of the drive graph.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Pipelines/Passes.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORORESOLVEHANDLES
#include "CoroGPU/Pipelines/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-resolve-handles"

using namespace mlir;
using namespace mlir::coro;

namespace {

struct CoroResolveHandlesPass
    : coro::impl::CoroResolveHandlesBase<CoroResolveHandlesPass> {
  using Base::Base;

  /// One round over the drive graph.
  static OpPassManager buildRound() {
    OpPassManager round(ModuleOp::getOperationName());
    CoroSplitOptions split;
    split.handleTargetsOnly = true;
    round.addPass(createCoroSplit(split));
    round.addPass(createCoroMaterializeFrame());
    CoroLowerHandlesOptions lower;
    lower.skipUnsplit = true;
    round.addPass(createCoroLowerHandles(lower));
    return round;
  }

  /// The dialects the rounds create ops of (a dynamic pipeline cannot load
  /// them while it runs).
  void getDependentDialects(DialectRegistry &registry) const override {
    buildRound().getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpPassManager round = buildRound();
    while (true) {
      int64_t drivingBefore = countDrivingOps(module);
      if (drivingBefore == 0)
        return;
      int64_t splitsBefore = countSplits(module);
      ++numRounds;
      LDBG() << "round " << numRounds.getValue() << ": " << drivingBefore
             << " ops drive frames, " << splitsBefore << " coroutines split";
      if (failed(runPipeline(round, module)))
        return signalPassFailure();
      // Each round splits a coroutine or lowers an op, unless the remaining
      // driven coroutines all drive one another.
      if (countDrivingOps(module) == drivingBefore &&
          countSplits(module) == splitsBefore) {
        reportDriveCycle(module);
        return signalPassFailure();
      }
    }
  }

  static int64_t countDrivingOps(ModuleOp module) {
    int64_t count = 0;
    module.walk([&](Operation *op) {
      if (getDrivenCoroutine(op))
        ++count;
    });
    return count;
  }

  static int64_t countSplits(ModuleOp module) {
    return llvm::range_size(module.getOps<SplitOp>());
  }

  /// Every driven coroutine left unsplit drives another unsplit one (else
  /// the last round would have split it): follow those edges from any of
  /// them until a coroutine repeats, and report the op that closes the
  /// cycle.
  static void reportDriveCycle(ModuleOp module) {
    llvm::StringSet<> split = getSplitCoroutines(module);
    SymbolTable symbols(module);
    // The first op in `function` that drives an unsplit coroutine.
    auto findUnsplitDriver = [&](Operation *function) -> Operation * {
      Operation *found = nullptr;
      function->walk([&](Operation *op) {
        FlatSymbolRefAttr driven = getDrivenCoroutine(op);
        if (!driven || split.contains(driven.getValue()))
          return WalkResult::advance();
        found = op;
        return WalkResult::interrupt();
      });
      return found;
    };
    Operation *op = findUnsplitDriver(module);
    llvm::StringSet<> visited;
    while (op) {
      StringRef next = getDrivenCoroutine(op).getValue();
      if (!visited.insert(next).second)
        break;
      auto coroutine = symbols.lookup<FuncOp>(next);
      op = coroutine ? findUnsplitDriver(coroutine) : nullptr;
    }
    if (!op) {
      module.emitError("coro-resolve-handles made no progress");
      return;
    }
    FlatSymbolRefAttr driven = getDrivenCoroutine(op);
    auto holder = op->getParentOfType<FuncOp>();
    if (holder && holder.getSymName() == driven.getValue()) {
      op->emitOpError("drives a frame of its own coroutine ")
          << driven << ": a frame cannot hold one of its own kind";
      return;
    }
    op->emitOpError("drives a frame of ")
        << driven
        << ", which drives frames of this op's coroutine (directly or "
           "through other coroutines): a frame cannot hold one of its own "
           "kind";
  }
};

} // namespace

//===- NormalizeControlFlow.cpp - cf -> scf inside coroutines -------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lifts the unstructured regions of a coroutine to scf with MLIR's CFG-to-SCF
// transformation, innermost first:
//
//   coro.func @f(%c: i1) {          coro.func @f(%c: i1) {
//     cf.cond_br %c, ^a, ^b           scf.if %c {
//   ^a:                     ==>         coro.suspend "a"
//     coro.suspend "a"                } else {
//     coro.return                     }
//   ^b:                               coro.return
//     coro.return                   }
//   }
//
// The upstream ControlFlowToSCFTransformation builds the scf ops; only the
// "unreachable" terminator it needs after an infinite loop is ours, because
// the region is a coroutine body (coro.return) or an scf.execute_region
// (scf.yield of poison values).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/PlaceholderValue.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORONORMALIZECONTROLFLOW
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-normalize-control-flow"

using namespace mlir;
using namespace mlir::coro;

namespace {

/// The upstream cf -> scf lifting, with terminators for the two kinds of
/// regions found in a coroutine.
class CoroutineCFGToSCF : public ControlFlowToSCFTransformation {
public:
  FailureOr<Operation *> createUnreachableTerminator(Location loc,
                                                     OpBuilder &builder,
                                                     Region &region) override {
    Operation *parent = region.getParentOp();
    if (isa<FuncOp>(parent))
      return ReturnOp::create(builder, loc).getOperation();
    auto executeRegion = dyn_cast<scf::ExecuteRegionOp>(parent);
    if (!executeRegion)
      return emitError(loc, "cannot end a region of '")
             << parent->getName() << "' after an infinite loop";
    SmallVector<Value> unread = llvm::map_to_vector(
        executeRegion.getResultTypes(),
        [&](Type type) -> Value { return getUndefValue(loc, builder, type); });
    return scf::YieldOp::create(builder, loc, unread).getOperation();
  }

  /// A value undefined on some path (never read there): a zero, not the
  /// default poison, which LLVM 22's folders crash on in places.
  Value getUndefValue(Location loc, OpBuilder &builder, Type type) override {
    return createPlaceholderValue(builder, loc, type);
  }
};

struct CoroNormalizeControlFlowPass
    : coro::impl::CoroNormalizeControlFlowBase<CoroNormalizeControlFlowPass> {
  using Base::Base;

  void runOnOperation() override {
    FuncOp coroutine = getOperation();
    llvm::MapVector<StringAttr, Type> promises = collectPromises(coroutine);
    if (failed(liftUnstructuredRegions(coroutine)) ||
        failed(simplify(coroutine)) ||
        failed(checkNoUnstructuredOps(coroutine)))
      return signalPassFailure();
    keepPromiseFields(coroutine, promises);
  }

  /// The promise fields `coroutine` writes: name and type.
  static llvm::MapVector<StringAttr, Type> collectPromises(FuncOp coroutine) {
    llvm::MapVector<StringAttr, Type> promises;
    coroutine.walk([&](PromiseOp promise) {
      promises.insert({promise.getNameAttr(), promise.getValue().getType()});
    });
    return promises;
  }

  /// A promise whose every write sat in unreachable code is gone with that
  /// code. Its field stays, written with zero at the start, so that what
  /// names it (a scheduler's sort-by, the frame report) still finds it.
  static void keepPromiseFields(FuncOp coroutine,
                                const llvm::MapVector<StringAttr, Type> &all) {
    llvm::MapVector<StringAttr, Type> missing = all;
    for (const auto &kept : collectPromises(coroutine))
      missing.erase(kept.first);
    OpBuilder builder = OpBuilder::atBlockBegin(&coroutine.getBody().front());
    for (auto [name, type] : missing) {
      auto zero = dyn_cast_or_null<TypedAttr>(builder.getZeroAttr(type));
      if (!zero)
        continue;
      Location loc = coroutine.getLoc();
      Value value = arith::ConstantOp::create(builder, loc, zero);
      PromiseOp::create(builder, loc, name, value);
    }
  }

  /// Lifts every multi-block region, innermost first (a post-order walk
  /// visits nested execute_regions before their parents).
  LogicalResult liftUnstructuredRegions(FuncOp coroutine) {
    SmallVector<Region *> regions;
    coroutine.walk([&](scf::ExecuteRegionOp op) {
      if (!op.getRegion().hasOneBlock())
        regions.push_back(&op.getRegion());
    });
    if (!coroutine.getBody().hasOneBlock())
      regions.push_back(&coroutine.getBody());

    // The upstream lifting leaves broken IR behind when it meets a branch it
    // does not know, so reject those before touching anything.
    for (Region *region : regions)
      if (failed(checkBranchesAreLiftable(*region)))
        return failure();

    CoroutineCFGToSCF transformation;
    for (Region *region : regions) {
      DominanceInfo dominance(region->getParentOp());
      if (failed(transformCFGToSCF(*region, transformation, dominance)))
        return region->getParentOp()->emitOpError(
            "control flow could not be structured");
    }
    return success();
  }

  static LogicalResult checkBranchesAreLiftable(Region &region) {
    for (Block &block : region) {
      Operation *terminator = block.getTerminator();
      if (terminator->getNumSuccessors() == 0 ||
          isa<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp>(terminator))
        continue;
      return terminator->emitOpError(
          "is a branch the coroutine control-flow normalization does not "
          "know; use cf.br, cf.cond_br or cf.switch");
    }
    return success();
  }

  /// Inlines the execute_regions that are now single blocks and folds the
  /// structured ops (dead or single-trip loops, constant conditions).
  LogicalResult simplify(FuncOp coroutine) {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    scf::ExecuteRegionOp::getCanonicalizationPatterns(patterns, context);
    scf::IfOp::getCanonicalizationPatterns(patterns, context);
    scf::WhileOp::getCanonicalizationPatterns(patterns, context);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    scf::IndexSwitchOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(coroutine, std::move(patterns))))
      return coroutine.emitOpError(
          "control-flow simplification did not converge");
    return success();
  }

  LogicalResult checkNoUnstructuredOps(FuncOp coroutine) {
    WalkResult result = coroutine.walk([](Operation *op) {
      if (!isa<cf::ControlFlowDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitOpError("is left after control-flow normalization; the "
                      "coroutine cannot be split");
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }
};

} // namespace

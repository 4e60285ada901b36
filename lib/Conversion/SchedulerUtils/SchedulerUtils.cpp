//===- SchedulerUtils.cpp - building blocks for schedulers ----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-scheduler-utils"

using namespace mlir;
using namespace mlir::coro;

Value InstancePosition::getId(OpBuilder &builder, Location loc,
                              std::optional<uint32_t> dim) const {
  if (dim)
    return *dim == 0 ? x : *dim == 1 ? y : z;
  // x + nx * (y + ny * z)
  Value plane = arith::MulIOp::create(builder, loc, ny, z);
  Value row = arith::AddIOp::create(builder, loc, y, plane);
  Value rows = arith::MulIOp::create(builder, loc, nx, row);
  return arith::AddIOp::create(builder, loc, x, rows);
}

void mlir::coro::lowerLaunchToLoops(
    LaunchOp launch, RewriterBase &rewriter,
    function_ref<void(OpBuilder &, Location, const InstancePosition &)>
        buildInstance) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value, 3> extents(launch.getGrid());
  extents.resize(3, one);

  auto zLoop = scf::ForOp::create(rewriter, loc, zero, extents[2], one);
  rewriter.setInsertionPointToStart(zLoop.getBody());
  auto yLoop = scf::ForOp::create(rewriter, loc, zero, extents[1], one);
  rewriter.setInsertionPointToStart(yLoop.getBody());
  auto xLoop = scf::ForOp::create(rewriter, loc, zero, extents[0], one);
  rewriter.setInsertionPointToStart(xLoop.getBody());
  InstancePosition position{xLoop.getInductionVar(), yLoop.getInductionVar(),
                            zLoop.getInductionVar(), extents[0], extents[1]};
  buildInstance(rewriter, loc, position);
  rewriter.eraseOp(launch);
}

void mlir::coro::lowerToMegakernelBody(
    Region &body, Block &entry, const InstancePosition &position,
    RewriterBase &rewriter, function_ref<void(ReturnOp)> replaceReturn) {
  Value linearId;
  auto getId = [&](Location loc, std::optional<uint32_t> dim) {
    if (dim)
      return position.getId(rewriter, loc, dim);
    if (!linearId) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&entry);
      linearId = position.getId(rewriter, loc, std::nullopt);
    }
    return linearId;
  };
  SmallVector<Operation *> ops;
  body.walk([&](Operation *op) {
    if (isa<IdOp, SuspendOp, PromiseOp, ReturnOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    if (auto id = dyn_cast<IdOp>(op))
      rewriter.replaceOp(id, getId(id.getLoc(), id.getDim()));
    else if (auto ret = dyn_cast<ReturnOp>(op))
      replaceReturn(ret);
    else
      rewriter.eraseOp(op);
  }
}

void mlir::coro::replacePoisonWithZero(Operation *root,
                                       RewriterBase &rewriter) {
  SmallVector<ub::PoisonOp> poisons;
  root->walk([&](ub::PoisonOp poison) { poisons.push_back(poison); });
  for (ub::PoisonOp poison : poisons) {
    rewriter.setInsertionPoint(poison);
    Type type = poison.getType();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        poison, type, cast<TypedAttr>(rewriter.getZeroAttr(type)));
  }
}

/// Moves the remaining cases of `switchOp`, from `caseIndex` on, and its
/// default into `region` (empty) as nested scf.ifs.
static void buildCaseChain(scf::IndexSwitchOp switchOp, unsigned caseIndex,
                           Region &region, RewriterBase &rewriter) {
  if (caseIndex == switchOp.getNumCases()) {
    rewriter.inlineRegionBefore(switchOp.getDefaultRegion(), region,
                                region.end());
    return;
  }
  Location loc = switchOp.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  Block *block = rewriter.createBlock(&region);
  Value caseValue = arith::ConstantIndexOp::create(
      rewriter, loc, switchOp.getCases()[caseIndex]);
  Value matches = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        switchOp.getArg(), caseValue);
  auto ifOp = scf::IfOp::create(rewriter, loc, switchOp.getResultTypes(),
                                matches, /*addThenBlock=*/false,
                                /*addElseBlock=*/false);
  rewriter.inlineRegionBefore(switchOp.getCaseRegions()[caseIndex],
                              ifOp.getThenRegion(), ifOp.getThenRegion().end());
  buildCaseChain(switchOp, caseIndex + 1, ifOp.getElseRegion(), rewriter);
  rewriter.setInsertionPointToEnd(block);
  scf::YieldOp::create(rewriter, loc, ifOp.getResults());
}

void mlir::coro::lowerIndexSwitchToIf(Operation *root, RewriterBase &rewriter) {
  SmallVector<scf::IndexSwitchOp> switches;
  root->walk([&](scf::IndexSwitchOp op) { switches.push_back(op); });
  // Post-order: nested switches are rewritten before the ones around them.
  for (scf::IndexSwitchOp switchOp : switches) {
    rewriter.setInsertionPoint(switchOp);
    auto wrapper = scf::ExecuteRegionOp::create(rewriter, switchOp.getLoc(),
                                                switchOp.getResultTypes());
    buildCaseChain(switchOp, 0, wrapper.getRegion(), rewriter);
    rewriter.replaceOp(switchOp, wrapper.getResults());
    // The chain is one block: inline it in place of the wrapper.
    Block &chain = wrapper.getRegion().front();
    auto yield = cast<scf::YieldOp>(chain.getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&chain, wrapper);
    rewriter.replaceOp(wrapper, results);
  }
}

void mlir::coro::cloneSubroutineBody(OpBuilder &builder,
                                     func::FuncOp subroutine, ValueRange args) {
  Block &body = subroutine.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments().drop_front(), args);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
}

Value mlir::coro::compareWithTerminatedToken(OpBuilder &builder, Location loc,
                                             Value token,
                                             arith::CmpIPredicate predicate) {
  Value terminated =
      arith::ConstantIntOp::create(builder, loc, kTerminatedToken, 32);
  return arith::CmpIOp::create(builder, loc, predicate, token, terminated);
}

namespace {
/// A memref<1xi32> variable's value, and a store to it.
Value loadScalar(OpBuilder &builder, Location loc, Value variable) {
  return memref::LoadOp::create(
      builder, loc, variable,
      ValueRange{arith::ConstantIndexOp::create(builder, loc, 0)});
}
void storeScalar(OpBuilder &builder, Location loc, Value value,
                 Value variable) {
  memref::StoreOp::create(
      builder, loc, value, variable,
      ValueRange{arith::ConstantIndexOp::create(builder, loc, 0)});
}
} // namespace

LoopPassBudget LoopPassBudget::create(OpBuilder &builder, Location loc) {
  Value passes = memref::AllocaOp::create(
      builder, loc, MemRefType::get({1}, builder.getI32Type()));
  storeScalar(builder, loc, arith::ConstantIntOp::create(builder, loc, 0, 32),
              passes);
  return LoopPassBudget(passes);
}

Value LoopPassBudget::isLeft(OpBuilder &builder, Location loc) const {
  return arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::ult, loadScalar(builder, loc, passes),
      arith::ConstantIntOp::create(builder, loc, kLoopPassesPerLaunch, 32));
}

void LoopPassBudget::noteAtStepEnds(OpBuilder &builder, Location loc,
                                    scf::WhileOp loop, Value counter) const {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getAfterBody()->getTerminator());
  storeScalar(builder, loc, loadScalar(builder, loc, counter), passes);
}

scf::WhileOp mlir::coro::buildStateMachineLoop(
    OpBuilder &builder, Location loc, const FrameStorage &frame,
    unsigned numSubroutines,
    function_ref<void(OpBuilder &, Location, unsigned)> buildCase,
    std::optional<int64_t> maxSteps, bool fallThrough,
    const LoopPassBudget *budget) {
  if (!maxSteps) {
    Value entry = arith::ConstantIntOp::create(builder, loc, kEntryToken, 32);
    frame.storeToken(builder, loc, entry);
  }
  Value returned =
      arith::ConstantIntOp::create(builder, loc, kTerminatedToken, 32);
  // With a step bound the loop carries the steps taken so far.
  SmallVector<Value> initialSteps;
  Value stepBound, one;
  if (maxSteps) {
    initialSteps.push_back(arith::ConstantIntOp::create(builder, loc, 0, 32));
    stepBound = arith::ConstantIntOp::create(builder, loc, *maxSteps, 32);
    one = arith::ConstantIntOp::create(builder, loc, 1, 32);
  }
  TypeRange stepTypes = ValueRange(initialSteps).getTypes();

  return scf::WhileOp::create(
      builder, loc, stepTypes, initialSteps,
      [&](OpBuilder &b, Location loc, ValueRange steps) {
        Value current = frame.loadToken(b, loc);
        Value running = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                              current, returned);
        if (maxSteps) {
          Value belowBound = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, steps.front(), stepBound);
          running = arith::AndIOp::create(b, loc, running, belowBound);
        }
        if (budget)
          running =
              arith::AndIOp::create(b, loc, running, budget->isLeft(b, loc));
        scf::ConditionOp::create(b, loc, running, steps);
      },
      [&](OpBuilder &b, Location loc, ValueRange steps) {
        if (fallThrough) {
          buildFallThroughDispatch(b, loc, frame, numSubroutines, buildCase);
          // As the switch's default below: no other token spins the loop.
          Value last = frame.loadToken(b, loc);
          Value count =
              arith::ConstantIntOp::create(b, loc, numSubroutines, 32);
          Value invalid = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::uge, last, count);
          auto end = scf::IfOp::create(b, loc, invalid);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(end.thenBlock());
          frame.storeToken(b, loc, returned);
        } else {
          Value current = frame.loadToken(b, loc);
          Value index =
              arith::IndexCastOp::create(b, loc, b.getIndexType(), current);
          // No valid token reaches the default. It still ends the instance:
          // left empty, it would be a loop that spins on an unchanged token,
          // and LLVM turns that into a self-loop in front of the jump table
          // that NVIDIA's ptxas (CUDA 13.0) crashes on (a random program
          // whose dispatch had an empty default did).
          buildSwitchDispatch(b, loc, index, numSubroutines, buildCase,
                              [&](OpBuilder &defaultBuilder, Location at) {
                                frame.storeToken(defaultBuilder, at, returned);
                              });
        }
        SmallVector<Value> nextSteps;
        if (maxSteps)
          nextSteps.push_back(
              arith::AddIOp::create(b, loc, steps.front(), one));
        scf::YieldOp::create(b, loc, nextSteps);
      });
}

void mlir::coro::buildSwitchDispatch(
    OpBuilder &builder, Location loc, Value token, unsigned numSubroutines,
    function_ref<void(OpBuilder &, Location, unsigned)> buildCase,
    function_ref<void(OpBuilder &, Location)> buildDefault) {
  SmallVector<int64_t> cases =
      llvm::to_vector(llvm::seq<int64_t>(0, numSubroutines));
  auto dispatch = scf::IndexSwitchOp::create(builder, loc, TypeRange{}, token,
                                             cases, cases.size());
  OpBuilder::InsertionGuard guard(builder);
  for (auto [caseToken, region] : llvm::enumerate(dispatch.getCaseRegions())) {
    builder.createBlock(&region);
    buildCase(builder, loc, caseToken);
    scf::YieldOp::create(builder, loc);
  }
  builder.createBlock(&dispatch.getDefaultRegion());
  if (buildDefault)
    buildDefault(builder, loc);
  scf::YieldOp::create(builder, loc);
}

void mlir::coro::buildFallThroughDispatch(
    OpBuilder &builder, Location loc, const FrameStorage &frame,
    unsigned numSubroutines,
    function_ref<void(OpBuilder &, Location, unsigned)> buildCase) {
  for (unsigned token = 0; token < numSubroutines; ++token) {
    Value current = frame.loadToken(builder, loc);
    Value caseToken = arith::ConstantIntOp::create(builder, loc, token, 32);
    Value matches = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, current, caseToken);
    auto ifOp = scf::IfOp::create(builder, loc, matches);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    buildCase(builder, loc, token);
  }
}

FailureOr<llvm::StringMap<SmallVector<LaunchOp>>>
mlir::coro::collectLaunchesOfSplitCoroutines(ModuleOp module) {
  llvm::StringMap<SmallVector<LaunchOp>> launches;
  for (SplitOp split : module.getOps<SplitOp>())
    launches.try_emplace(split.getCoroutine());
  WalkResult result = module.walk([&](LaunchOp launch) {
    auto it = launches.find(launch.getCallee());
    if (it != launches.end()) {
      it->second.push_back(launch);
      return WalkResult::advance();
    }
    launch.emitOpError("launches @")
        << launch.getCallee()
        << ", which has no coro.split; run coro-split first";
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  return launches;
}

InstancePosition mlir::coro::delinearizeInstanceId(OpBuilder &builder,
                                                   Location loc, Value id,
                                                   Value nx, Value ny) {
  Value row = arith::DivUIOp::create(builder, loc, id, nx); // y + ny * z
  return {arith::RemUIOp::create(builder, loc, id, nx),
          arith::RemUIOp::create(builder, loc, row, ny),
          arith::DivUIOp::create(builder, loc, row, ny), nx, ny};
}

void mlir::coro::eraseSplits(ModuleOp module, RewriterBase &rewriter) {
  SymbolTable symbols(module);
  for (SplitOp split : llvm::to_vector(module.getOps<SplitOp>())) {
    for (auto symbol : split.getSubroutines().getAsRange<FlatSymbolRefAttr>())
      if (Operation *subroutine = symbols.lookup(symbol.getValue()))
        rewriter.eraseOp(subroutine);
    rewriter.eraseOp(split);
  }
}

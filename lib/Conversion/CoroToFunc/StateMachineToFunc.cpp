//===- StateMachineToFunc.cpp - the state-machine scheduler on the host ---===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The paper's state-machine scheduler (Sec. 6.1) on the host: each instance
// has a private frame and runs the subroutine its target token names until
// the token says it has returned.
//
//   coro.launch @f[%n](%a)   ==>   frame allocas
//                                  scf.for x, y, z:
//                                    token = 0
//                                    scf.while (token != -1):
//                                      scf.index_switch token:
//                                        case t: call @f__<name t>(...)
//
// The frame becomes one rank-0 memref per slot plus one for the token;
// subroutines take (token, x, y, z, nx, ny, slots..., args...) instead of
// !coro.frame.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSTATEMACHINETOFUNC
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-state-machine-to-func"

using namespace mlir;
using namespace mlir::coro;

namespace {

/// Lowers the subroutines and the launches of one split coroutine.
class StateMachineLowering {
public:
  StateMachineLowering(SplitOp split, RewriterBase &rewriter)
      : split(split), rewriter(rewriter) {}

  /// (frame, args) -> (frame words, x, y, z, nx, ny, args)
  LogicalResult lowerSubroutine(func::FuncOp subroutine) {
    Block &entry = subroutine.getBody().front();
    Location loc = subroutine.getLoc();
    Value frame = entry.getArgument(0);
    MLIRContext *context = rewriter.getContext();

    SmallVector<Type> frameTypes = {PrivateFrame::getType(split)};
    frameTypes.append(kNumPositionArgs, IndexType::get(context));
    for (auto [offset, type] : llvm::enumerate(frameTypes))
      entry.insertArgument(1 + offset, type, loc);
    ValueRange frameArgs = entry.getArguments().slice(1, frameTypes.size());
    PrivateFrame storage(frameArgs[0], split.getFrameWords());
    InstancePosition position{frameArgs[1], frameArgs[2], frameArgs[3],
                              frameArgs[4], frameArgs[5]};
    if (failed(lowerFrameAccesses(frame, split, storage, position)))
      return failure();
    entry.eraseArgument(0);
    subroutine.setType(FunctionType::get(context, entry.getArgumentTypes(),
                                         subroutine.getResultTypes()));
    return success();
  }

  void lowerLaunch(LaunchOp launch, ArrayRef<func::FuncOp> subroutines) {
    // One frame, reused by the instances, which run one after the other.
    rewriter.setInsertionPoint(launch);
    PrivateFrame storage =
        PrivateFrame::allocate(rewriter, launch.getLoc(), split);
    SmallVector<Value> args(launch.getArgs());
    lowerLaunchToLoops(
        launch, rewriter,
        [&](OpBuilder &builder, Location loc, const InstancePosition &pos) {
          SmallVector<Value> operands = {storage.getWords()};
          llvm::append_range(operands, pos.asArguments());
          llvm::append_range(operands, args);
          buildStateMachineLoop(
              builder, loc, storage, subroutines.size(),
              [&](OpBuilder &b, Location loc, unsigned token) {
                func::CallOp::create(b, loc, subroutines[token], operands);
              });
        });
  }

private:
  SplitOp split;
  RewriterBase &rewriter;
};

struct CoroStateMachineToFuncPass
    : coro::impl::CoroStateMachineToFuncBase<CoroStateMachineToFuncPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkHandlesLowered(module, getArgument())))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    SymbolTable symbols(module);

    FailureOr<llvm::StringMap<SmallVector<LaunchOp>>> launchesByCallee =
        collectLaunchesOfSplitCoroutines(module);
    if (failed(launchesByCallee))
      return signalPassFailure();
    if (failed(checkSplitRan(module, getArgument())))
      return signalPassFailure();

    SmallVector<SplitOp> splits(module.getOps<SplitOp>());
    for (SplitOp split : splits) {
      StringRef name = split.getCoroutine();
      FailureOr<SmallVector<func::FuncOp>> subroutines =
          split.lookupSubroutines(symbols);
      if (failed(subroutines))
        return signalPassFailure();
      StateMachineLowering lowering(split, rewriter);
      for (func::FuncOp subroutine : *subroutines)
        if (failed(lowering.lowerSubroutine(subroutine)))
          return signalPassFailure();
      for (LaunchOp launch : launchesByCallee->lookup(name))
        lowering.lowerLaunch(launch, *subroutines);
      rewriter.eraseOp(symbols.lookup(name));
      rewriter.eraseOp(split);
    }
  }
};

} // namespace

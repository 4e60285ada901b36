//===- MegakernelToFunc.cpp - the mega-kernel reference on the host -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   coro.func @f(%a: f32) {                func.func @f(%x: index, %y: index,
//     %id = coro.id : index                  %z: index, %nx: index,
//     coro.suspend "s"           ==>          %ny: index, %a: f32) {
//     coro.return                           %id = x + nx * (y + ny * z)
//   }                                        return
//                                          }
//   coro.await @g(%a)              ==>     call @g(%x, %y, %z, %nx, %ny, %a)
//   coro.launch @f[%n](%a)         ==>     scf.for z, y, x: call @f(...)
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROMEGAKERNELTOFUNC
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-megakernel-to-func"

using namespace mlir;
using namespace mlir::coro;

/// Replaces `coroutine` by a func.func of the same name whose body is the
/// coroutine's with the suspension points erased.
static void lowerCoroutine(FuncOp coroutine, RewriterBase &rewriter) {
  Location loc = coroutine.getLoc();
  Type index = rewriter.getIndexType();
  SmallVector<Type> inputs(kNumPositionArgs, index);
  llvm::append_range(inputs, coroutine.getArgumentTypes());

  rewriter.setInsertionPoint(coroutine);
  auto function = func::FuncOp::create(rewriter, loc, coroutine.getSymName(),
                                       rewriter.getFunctionType(inputs, {}));
  function.setVisibility(coroutine.getVisibility());
  rewriter.inlineRegionBefore(coroutine.getBody(), function.getBody(),
                              function.getBody().end());
  Block &entry = function.getBody().front();
  for (unsigned i = 0; i < kNumPositionArgs; ++i)
    entry.insertArgument(i, index, loc);
  InstancePosition position{entry.getArgument(0), entry.getArgument(1),
                            entry.getArgument(2), entry.getArgument(3),
                            entry.getArgument(4)};
  // The callee of an await runs to completion for the same instance; a
  // yield is a promise and a suspension, both erased.
  SmallVector<Operation *> ops;
  function.walk([&](Operation *op) {
    if (isa<AwaitOp, YieldOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto await = dyn_cast<AwaitOp>(op)) {
      rewriter.setInsertionPoint(await);
      SmallVector<Value> operands = position.asArguments();
      llvm::append_range(operands, await.getOperands());
      func::CallOp::create(rewriter, await.getLoc(), await.getCallee(),
                           TypeRange{}, operands);
    }
    rewriter.eraseOp(op);
  }
  lowerToMegakernelBody(
      function.getBody(), entry, position, rewriter,
      [&](ReturnOp ret) { rewriter.replaceOpWithNewOp<func::ReturnOp>(ret); });
  rewriter.eraseOp(coroutine);
}

namespace {

struct CoroMegakernelToFuncPass
    : coro::impl::CoroMegakernelToFuncBase<CoroMegakernelToFuncPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkHandlesLowered(module, getArgument())))
      return signalPassFailure();
    SmallVector<FuncOp> coroutines(module.getOps<FuncOp>());

    IRRewriter rewriter(&getContext());
    eraseSplits(module, rewriter);
    module.walk([&](LaunchOp launch) {
      lowerLaunchToLoops(launch, rewriter,
                         [&](OpBuilder &builder, Location loc,
                             const InstancePosition &position) {
                           SmallVector<Value> operands = position.asArguments();
                           llvm::append_range(operands, launch.getArgs());
                           func::CallOp::create(builder, loc,
                                                launch.getCallee(), TypeRange{},
                                                operands);
                         });
    });
    for (FuncOp coroutine : coroutines)
      lowerCoroutine(coroutine, rewriter);
  }
};

} // namespace

//===- MegakernelToGPU.cpp - the mega-kernel scheduler on GPUs ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   coro.func @f(%a: f32) { ... }   ==>  gpu.module @coro_kernels {
//                                           gpu.func @f(%nx, %ny, %nz: index,
//                                                       %a: f32) kernel {
//                                             if (global id inside the grid)
//                                               body, suspensions erased
//                                           } }
//   coro.launch @f[%n](%a)          ==>  gpu.launch_func @coro_kernels::@f
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/GPUKernels.h"
#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "corogpu/runtime/InstanceABI.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROMEGAKERNELTOGPU
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-megakernel-to-gpu"

using namespace mlir;
using namespace mlir::coro;

static LogicalResult checkLowerable(FuncOp coroutine) {
  if (!coroutine.getBody().hasOneBlock())
    return coroutine.emitOpError(
        "has unstructured control flow, which SPIR-V cannot express; run "
        "coro-normalize-control-flow first");
  return checkFrontHalfRanOnAll(coroutine, "the GPU mega-kernel lowering");
}

/// Builds the kernel of `coroutine` in `kernels` and erases the coroutine.
static void lowerCoroutine(FuncOp coroutine, gpu::GPUModuleOp kernels,
                           int64_t workgroupSize, bool instanceStatus,
                           bool countLoopIterations, RewriterBase &rewriter) {
  InstanceKernel kernel = createInstanceKernel(
      kernels, coroutine.getSymName(), coroutine.getArgumentTypes(),
      workgroupSize, instanceStatus, coroutine.getLoc(), rewriter);
  // Move the body into the kernel; its arguments are the kernel's.
  rewriter.inlineBlockBefore(&coroutine.getBody().front(),
                             kernel.body->getTerminator(), kernel.args);
  lowerToMegakernelBody(*kernel.body->getParent(), *kernel.body,
                        kernel.position, rewriter, [&](ReturnOp ret) {
                          if (kernel.status) {
                            rewriter.setInsertionPoint(ret);
                            recordInstanceReturned(rewriter, ret.getLoc(),
                                                   kernel.status);
                          }
                          rewriter.eraseOp(ret);
                        });
  if (kernel.status && countLoopIterations)
    addLoopIterationCounter(kernel.body, kernel.status,
                            corogpu::runtime::instance::kMostLoopIterations,
                            rewriter);
  rewriter.eraseOp(coroutine);
}

namespace {

struct CoroMegakernelToGPUPass
    : coro::impl::CoroMegakernelToGPUBase<CoroMegakernelToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Whole coroutines, a split or not: no split check, and launches are
    // lowered here.
    SchedulerPassOpening opening{getArgument(), workgroupSize,
                                 SplitCheck::None};
    auto lower = [&](ArrayRef<SplitOp>) -> LogicalResult {
      SmallVector<FuncOp> coroutines(module.getOps<FuncOp>());
      for (FuncOp coroutine : coroutines)
        if (failed(checkLowerable(coroutine)))
          return failure();
      if (coroutines.empty())
        return success();

      IRRewriter rewriter(&getContext());
      eraseSplits(module, rewriter);
      gpu::GPUModuleOp kernels = getOrCreateKernelModule(module, rewriter);
      module.walk([&](LaunchOp launch) {
        lowerLaunchToGPU(launch, workgroupSize, instanceStatus, rewriter);
      });
      for (FuncOp coroutine : coroutines) {
        plan::setPlan(
            module, coroutine.getSymName(),
            plan::MegakernelPlanAttr::get(&getContext(), workgroupSize));
        lowerCoroutine(coroutine, kernels, workgroupSize, instanceStatus,
                       countLoopIterations, rewriter);
      }
      legalizeKernelsForTargets(kernels, rewriter);
      return success();
    };
    if (failed(runSchedulerPass(module, opening, lower, numKernels)))
      signalPassFailure();
  }
};

} // namespace

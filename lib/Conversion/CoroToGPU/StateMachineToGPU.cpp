//===- StateMachineToGPU.cpp - the state-machine scheduler on GPUs --------===//
//
// Part of the CoroGPU project.
//
// The paper's state-machine scheduler (Sec. 6.1): one instance per thread,
// its frame in thread-private memory, and a loop that runs the subroutine
// the target token names until the instance returns. The subroutines are
// inlined into the cases of the dispatch, so the kernel needs no calls:
//
//   gpu.func @f(%nx, %ny, %nz, args) kernel {
//     if (instance inside the grid) {
//       token = 0; frame slots = alloca
//       while (token != -1)
//         switch (token) { case t: <body of subroutine t> }
//     }
//   }
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/GPUKernels.h"
#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "corogpu/runtime/InstanceABI.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSTATEMACHINETOGPU
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-state-machine-to-gpu"

using namespace mlir;
using namespace mlir::coro;

namespace {

struct CoroStateMachineToGPUPass
    : coro::impl::CoroStateMachineToGPUBase<CoroStateMachineToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkSchedulerInput(module, getArgument(), workgroupSize)))
      return signalPassFailure();
    int64_t kernelsBefore = countSchedulerKernels(module);
    llvm::scope_exit countKernels(
        [&] { numKernels += countSchedulerKernels(module) - kernelsBefore; });
    SymbolTable symbols(module);
    if (failed(collectLaunchesOfSplitCoroutines(module)))
      return signalPassFailure();
    if (failed(checkSplitRan(module, getArgument())))
      return signalPassFailure();

    SmallVector<SplitOp> splits(module.getOps<SplitOp>());
    if (splits.empty())
      return;
    IRRewriter rewriter(&getContext());
    gpu::GPUModuleOp kernels = getOrCreateKernelModule(module, rewriter);
    module.walk([&](LaunchOp launch) {
      lowerLaunchToGPU(launch, workgroupSize, instanceStatus, rewriter);
    });
    for (SplitOp split : splits)
      if (failed(lowerSplit(split, symbols, kernels, rewriter)))
        return signalPassFailure();
    legalizeKernelsForTargets(kernels, rewriter);
  }

  /// Builds the kernel of one split coroutine and erases the coroutine, its
  /// subroutines and its coro.split.
  LogicalResult lowerSplit(SplitOp split, SymbolTable &symbols,
                           gpu::GPUModuleOp kernels, RewriterBase &rewriter) {
    auto coroutine = symbols.lookup<FuncOp>(split.getCoroutine());
    FailureOr<SmallVector<func::FuncOp>> found =
        split.lookupSubroutines(symbols);
    if (failed(found))
      return failure();
    SmallVector<func::FuncOp> &subroutines = *found;
    InstanceKernel kernel = createInstanceKernel(
        kernels, coroutine.getSymName(), coroutine.getArgumentTypes(),
        workgroupSize, instanceStatus, coroutine.getLoc(), rewriter);
    Location loc = coroutine.getLoc();
    rewriter.setInsertionPoint(kernel.body->getTerminator());
    PrivateFrame storage = PrivateFrame::allocate(rewriter, loc, split);
    buildStateMachineLoop(rewriter, loc, storage, subroutines.size(),
                          [&](OpBuilder &builder, Location, unsigned token) {
                            // Its frame accesses are lowered below, copies
                            // included.
                            cloneSubroutineBody(builder, subroutines[token],
                                                kernel.args);
                          });
    if (kernel.status) {
      // The loop ends when the instance returns, or earlier where a driver
      // ends loops that ran too long: count only the former.
      Value token = storage.loadToken(rewriter, loc);
      Value terminated =
          arith::ConstantIntOp::create(rewriter, loc, kTerminatedToken, 32);
      Value returned = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, token, terminated);
      auto ifReturned =
          scf::IfOp::create(rewriter, loc, returned, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifReturned.thenBlock()->getTerminator());
      recordInstanceReturned(rewriter, loc, kernel.status);
    }
    for (func::FuncOp subroutine : subroutines) {
      if (failed(lowerFrameAccesses(subroutine.getArgument(0), split, storage,
                                    kernel.position, kernel.kernel)))
        return failure();
      rewriter.eraseOp(subroutine);
    }
    if (kernel.status && countLoopIterations)
      addLoopIterationCounter(kernel.body, kernel.status,
                              corogpu::runtime::instance::kMostLoopIterations,
                              rewriter);
    rewriter.eraseOp(split);
    rewriter.eraseOp(coroutine);
    return success();
  }
};

} // namespace

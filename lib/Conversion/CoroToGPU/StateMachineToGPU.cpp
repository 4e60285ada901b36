//===- StateMachineToGPU.cpp - the state-machine scheduler on GPUs --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
// With `fall-through` the switch is `if (token == 0) {...}; if (token == 1)
// {...}; ...`, each on the token the cases before it left, so a pass runs
// every later subroutine an instance leads to (buildFallThroughDispatch).
//
// With `steps-per-launch=N` the frame lives in a global frame buffer between
// launches, and each launch resumes an unfinished instance for at most N
// passes: a driver that limits a thread's loop iterations then still
// finishes instances that resume many times (InstanceABI.h).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/GPUKernels.h"
#include "CoroGPU/Conversion/Passes.h"
#include "corogpu/runtime/InstanceABI.h"
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
    // Launches first: an error at a launch of an unsplit coroutine names
    // the launch.
    SchedulerPassOpening opening{getArgument(), workgroupSize,
                                 SplitCheck::AfterLaunches};
    opening.checkOptions = [&] { return checkStepsPerLaunch(module); };
    if (isBounded())
      opening.rejectLaunches = LaunchRejection{
          "state-machine",
          "with steps-per-launch its host loop, which relaunches the "
          "kernel until every instance returned, runs in the CoroGPU "
          "runtime (coro-run, corogpu/runtime/InstanceKernel.h)",
          "use steps-per-launch=0 for launches in IR"};
    auto lower = [&](ArrayRef<SplitOp> splits) {
      IRRewriter rewriter(&getContext());
      module.walk([&](LaunchOp launch) {
        lowerLaunchToGPU(launch, workgroupSize, instanceStatus, rewriter);
      });
      return lowerSplitsWithPlans(module, splits, *this);
    };
    if (failed(runSchedulerPass(module, opening, lower, numKernels)))
      signalPassFailure();
  }

  /// Whether a launch runs a bounded number of steps: the host relaunches
  /// until every instance returned, which it learns from the status buffer.
  bool isBounded() const {
    return stepsPerLaunch > 0 || (boundSteps && instanceStatus);
  }
  /// The steps a launch runs, bounded.
  int64_t getStepBound() const {
    return stepsPerLaunch > 0 ? stepsPerLaunch : kLoopPassesPerLaunch;
  }
  /// Whether the loop passes counted bound the steps as well (bound-steps).
  bool boundsLoopPasses() const {
    return stepsPerLaunch == 0 && isBounded() && countLoopIterations;
  }

  /// Bounded steps need a count of the instances that returned: the host
  /// relaunches until it reaches the grid's size.
  LogicalResult checkStepsPerLaunch(ModuleOp module) {
    if (stepsPerLaunch < 0)
      return module.emitError()
             << getArgument() << ": steps-per-launch must not be negative, got "
             << stepsPerLaunch.getValue();
    if (stepsPerLaunch > INT32_MAX)
      return module.emitError()
             << getArgument() << ": steps-per-launch must be below 2^31, got "
             << stepsPerLaunch.getValue();
    if (stepsPerLaunch > 0 && !instanceStatus)
      return module.emitError()
             << getArgument()
             << ": steps-per-launch needs instance-status (the host "
                "relaunches until every instance returned)";
    return success();
  }

  /// Builds the kernel of one split coroutine, erases the coroutine, its
  /// subroutines and its coro.split, and returns its plan.
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
    bool bounded = isBounded();
    // Kept apart: bounded steps add an argument to the kernel, which moves
    // its block arguments.
    SmallVector<Value> args(kernel.args);
    PrivateFrame storage =
        PrivateFrame::allocate(rewriter, loc, split, /*zeroed=*/!bounded);
    // bound-steps: the thread's loop passes so far, as of the last step's
    // end (the counter itself exists once the loops are built).
    std::optional<LoopPassBudget> budget;
    if (boundsLoopPasses())
      budget = LoopPassBudget::create(rewriter, loc);
    scf::WhileOp loop;
    auto buildLoop = [&](std::optional<int64_t> maxSteps) {
      loop = buildStateMachineLoop(
          rewriter, loc, storage, subroutines.size(),
          [&](OpBuilder &builder, Location, unsigned token) {
            // Its frame accesses are lowered below, copies included.
            cloneSubroutineBody(builder, subroutines[token], args);
          },
          maxSteps, fallThrough, budget ? &*budget : nullptr);
    };
    if (bounded) {
      if (failed(
              buildBoundedSteps(kernel, split, storage, buildLoop, rewriter)))
        return failure();
    } else {
      buildLoop(std::nullopt);
      if (kernel.status)
        recordReturnedIfTerminated(storage, kernel.status, rewriter, loc);
    }
    for (func::FuncOp subroutine : subroutines) {
      if (failed(lowerFrameAccesses(subroutine.getArgument(0), split, storage,
                                    kernel.position, kernel.kernel)))
        return failure();
      rewriter.eraseOp(subroutine);
    }
    if (kernel.status && countLoopIterations) {
      Value counter = addLoopIterationCounter(
          kernel.body, kernel.status,
          corogpu::runtime::instance::kMostLoopIterations, rewriter);
      if (budget)
        budget->noteAtStepEnds(rewriter, loc, loop, counter);
    }
    // The subroutines are named by their tags, in token order.
    plan::setPlan(split->getParentOfType<ModuleOp>(), split.getCoroutine(),
                  plan::StateMachinePlanAttr::get(
                      &getContext(), workgroupSize, split.getFrameWords(),
                      bounded ? getStepBound() : 0, split.getNamesAttr()));
    rewriter.eraseOp(split);
    rewriter.eraseOp(coroutine);
    return success();
  }

  /// The kernel body of bounded steps: the frame buffer becomes the last
  /// argument; an unfinished instance copies its frame in, runs the loop
  /// `buildLoop` builds with the step bound, and copies its frame back.
  LogicalResult
  buildBoundedSteps(InstanceKernel &kernel, SplitOp split,
                    const PrivateFrame &storage,
                    function_ref<void(std::optional<int64_t>)> buildLoop,
                    RewriterBase &rewriter) {
    gpu::GPUFuncOp function = kernel.kernel;
    Location loc = function.getLoc();
    unsigned framesIndex = function.getNumArguments();
    auto framesType =
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI32Type());
    if (failed(function.insertArgument(framesIndex, framesType, {}, loc)))
      return failure();
    Value frames = function.getArgument(framesIndex);
    // Word w of instance i is at w * instances + i (SoA): the threads of a
    // workgroup touch consecutive words.
    ValueRange extents = function.getArguments().take_front(3);
    Value instances = arith::MulIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, extents[0], extents[1]),
        extents[2]);
    Value id = kernel.position.getId(rewriter, loc, std::nullopt);
    FrameArraySlot global(frames, split.getFrameWords(), id, instances,
                          FrameArrayLayout::SoA);
    Value token = global.loadToken(rewriter, loc);
    Value unfinished = compareWithTerminatedToken(rewriter, loc, token,
                                                  arith::CmpIPredicate::ne);
    auto ifUnfinished =
        scf::IfOp::create(rewriter, loc, unfinished, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifUnfinished.thenBlock()->getTerminator());
    // The token (word 0) is loaded already.
    storage.storeToken(rewriter, loc, token);
    SmallVector<int64_t> fieldWords =
        llvm::to_vector(llvm::seq<int64_t>(1, split.getFrameWords()));
    copyFrameWords(rewriter, loc, global, storage, fieldWords);
    buildLoop(getStepBound());
    fieldWords.insert(fieldWords.begin(), 0);
    copyFrameWords(rewriter, loc, storage, global, fieldWords);
    recordReturnedIfTerminated(storage, kernel.status, rewriter, loc);
    return success();
  }

  /// The loop ends when the instance returns, or earlier where a driver ends
  /// loops that ran too long or the step bound is reached: count only the
  /// former.
  static void recordReturnedIfTerminated(const FrameStorage &frame,
                                         Value status, RewriterBase &rewriter,
                                         Location loc) {
    Value returned = compareWithTerminatedToken(rewriter, loc,
                                                frame.loadToken(rewriter, loc));
    auto ifReturned =
        scf::IfOp::create(rewriter, loc, returned, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifReturned.thenBlock()->getTerminator());
    recordInstanceReturned(rewriter, loc, status);
  }
};

} // namespace

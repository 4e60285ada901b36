//===- MegakernelToFunc.cpp - the mega-kernel reference on the host -------===//
//
// Part of the CoroGPU project.
//
//   coro.func @f(%a: f32) {                func.func @f(%x: index, %y: index,
//     %id = coro.id : index                  %z: index, %nx: index,
//     coro.suspend "s"           ==>          %ny: index, %a: f32) {
//     coro.return                           %id = x + nx * (y + ny * z)
//   }                                        return
//                                          }
//   coro.launch @f[%n](%a)         ==>     scf.for z, y, x: call @f(...)
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROMEGAKERNELTOFUNC
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;
using namespace mlir::coro;

/// The leading arguments of a lowered coroutine: instance x, y, z and the
/// grid extents nx, ny.
static constexpr unsigned kNumInstanceArgs = 5;

/// Fails with a located error if the coroutine still has ops this lowering
/// expects earlier passes to have removed.
static LogicalResult checkPreconditions(FuncOp coroutine) {
  WalkResult result = coroutine.walk([](Operation *op) {
    if (isa<AwaitOp>(op)) {
      op->emitOpError("must be inlined before the mega-kernel lowering; run "
                      "coro-inline-awaits first");
      return WalkResult::interrupt();
    }
    if (isa<YieldOp>(op)) {
      op->emitOpError("must be expanded before the mega-kernel lowering; run "
                      "coro-expand-yield first");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Replaces `coroutine` by a func.func of the same name whose body is the
/// coroutine's with the suspension points erased.
static void lowerCoroutine(FuncOp coroutine, RewriterBase &rewriter) {
  Location loc = coroutine.getLoc();
  Type index = rewriter.getIndexType();
  SmallVector<Type> inputs(kNumInstanceArgs, index);
  llvm::append_range(inputs, coroutine.getArgumentTypes());

  rewriter.setInsertionPoint(coroutine);
  auto function = func::FuncOp::create(rewriter, loc, coroutine.getSymName(),
                                       rewriter.getFunctionType(inputs, {}));
  function.setVisibility(coroutine.getVisibility());
  rewriter.inlineRegionBefore(coroutine.getBody(), function.getBody(),
                              function.getBody().end());
  Block &entry = function.getBody().front();
  for (unsigned i = 0; i < kNumInstanceArgs; ++i)
    entry.insertArgument(i, index, loc);
  Value x = entry.getArgument(0), y = entry.getArgument(1),
        z = entry.getArgument(2), nx = entry.getArgument(3),
        ny = entry.getArgument(4);

  // The linear id is computed once, at the top, only if it is used.
  Value linearId;
  auto getLinearId = [&]() {
    if (linearId)
      return linearId;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&entry);
    Value plane = arith::MulIOp::create(rewriter, loc, ny, z);
    Value row = arith::AddIOp::create(rewriter, loc, y, plane);
    Value rows = arith::MulIOp::create(rewriter, loc, nx, row);
    linearId = arith::AddIOp::create(rewriter, loc, x, rows);
    return linearId;
  };

  function.walk([&](Operation *op) {
    if (auto id = dyn_cast<IdOp>(op)) {
      std::optional<uint32_t> dim = id.getDim();
      Value replacement = !dim        ? getLinearId()
                          : *dim == 0 ? x
                          : *dim == 1 ? y
                                      : z;
      rewriter.replaceOp(id, replacement);
    } else if (isa<SuspendOp, PromiseOp>(op)) {
      rewriter.eraseOp(op);
    } else if (auto ret = dyn_cast<ReturnOp>(op)) {
      rewriter.setInsertionPoint(ret);
      rewriter.replaceOpWithNewOp<func::ReturnOp>(ret);
    }
  });
  rewriter.eraseOp(coroutine);
}

/// Replaces a launch by a loop nest over its grid calling the lowered
/// coroutine once per instance.
static void lowerLaunch(LaunchOp launch, RewriterBase &rewriter) {
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
  SmallVector<Value> operands = {
      xLoop.getInductionVar(), yLoop.getInductionVar(), zLoop.getInductionVar(),
      extents[0], extents[1]};
  llvm::append_range(operands, launch.getArgs());
  func::CallOp::create(rewriter, loc, launch.getCallee(), TypeRange{},
                       operands);
  rewriter.eraseOp(launch);
}

namespace {

struct CoroMegakernelToFuncPass
    : coro::impl::CoroMegakernelToFuncBase<CoroMegakernelToFuncPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<FuncOp> coroutines(module.getOps<FuncOp>());
    for (FuncOp coroutine : coroutines)
      if (failed(checkPreconditions(coroutine)))
        return signalPassFailure();

    IRRewriter rewriter(&getContext());
    module.walk([&](LaunchOp launch) { lowerLaunch(launch, rewriter); });
    for (FuncOp coroutine : coroutines)
      lowerCoroutine(coroutine, rewriter);
  }
};

} // namespace

//===- MegakernelToGPU.cpp - the mega-kernel scheduler on GPUs ------------===//
//
// Part of the CoroGPU project.
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

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Conversion/SchedulerUtils.h"
#include "CoroGPU/Transforms/PipelineChecks.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROMEGAKERNELTOGPU
#include "CoroGPU/Conversion/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;
using namespace mlir::coro;

/// Name of the gpu.module that holds the kernels of all coroutines.
static constexpr llvm::StringLiteral kKernelModuleName = "coro_kernels";

static LogicalResult checkLowerable(FuncOp coroutine) {
  if (!coroutine.getBody().hasOneBlock())
    return coroutine.emitOpError(
        "has unstructured control flow, which SPIR-V cannot express; run "
        "coro-normalize-control-flow first");
  WalkResult result = coroutine.walk([](Operation *op) {
    return failed(checkFrontHalfRan(op, "the GPU mega-kernel lowering"))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Builds the kernel of `coroutine` in `kernels` and erases the coroutine.
static void lowerCoroutine(FuncOp coroutine, gpu::GPUModuleOp kernels,
                           int64_t workgroupSize, RewriterBase &rewriter) {
  Location loc = coroutine.getLoc();
  Type index = rewriter.getIndexType();
  SmallVector<Type> inputs(3, index);
  llvm::append_range(inputs, coroutine.getArgumentTypes());

  rewriter.setInsertionPointToEnd(kernels.getBody());
  auto kernel = gpu::GPUFuncOp::create(rewriter, loc, coroutine.getSymName(),
                                       rewriter.getFunctionType(inputs, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  rewriter.getUnitAttr());
  kernel->setAttr(
      spirv::getEntryPointABIAttrName(),
      spirv::getEntryPointABIAttr(rewriter.getContext(),
                                  {static_cast<int32_t>(workgroupSize), 1, 1}));
  Block &entry = kernel.getBody().front();
  ValueRange extents = entry.getArguments().take_front(3);
  ValueRange args = entry.getArguments().drop_front(3);

  rewriter.setInsertionPointToStart(&entry);
  Value x = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value y = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::y);
  Value z = gpu::GlobalIdOp::create(rewriter, loc, gpu::Dimension::z);
  Value inside;
  Value ids[] = {x, y, z};
  for (auto [id, extent] : llvm::zip_equal(ids, extents)) {
    Value below = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::ult, id, extent);
    inside =
        inside ? arith::AndIOp::create(rewriter, loc, inside, below) : below;
  }
  auto guard = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
  gpu::ReturnOp::create(rewriter, loc);

  // Move the body into the guard; its arguments are the kernel's.
  Block &body = coroutine.getBody().front();
  Block *thenBlock = guard.thenBlock();
  rewriter.inlineBlockBefore(&body, thenBlock->getTerminator(), args);
  InstancePosition position{x, y, z, extents[0], extents[1]};
  lowerToMegakernelBody(guard.getThenRegion(), *thenBlock, position, rewriter,
                        [&](ReturnOp ret) { rewriter.eraseOp(ret); });
  rewriter.eraseOp(coroutine);
}

/// Replaces `launch` by a gpu.launch_func of the coroutine's kernel.
static void lowerLaunch(LaunchOp launch, int64_t workgroupSize,
                        RewriterBase &rewriter) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value, 3> extents(launch.getGrid());
  extents.resize(3, one);
  Value size = arith::ConstantIndexOp::create(rewriter, loc, workgroupSize);
  Value rounded = arith::CeilDivUIOp::create(rewriter, loc, extents[0], size);
  SmallVector<Value> operands(extents.begin(), extents.end());
  llvm::append_range(operands, launch.getArgs());
  auto kernel = SymbolRefAttr::get(
      rewriter.getStringAttr(kKernelModuleName),
      {FlatSymbolRefAttr::get(rewriter.getStringAttr(launch.getCallee()))});
  gpu::LaunchFuncOp::create(rewriter, loc, kernel,
                            gpu::KernelDim3{rounded, extents[1], extents[2]},
                            gpu::KernelDim3{size, one, one},
                            /*dynamicSharedMemorySize=*/Value(), operands);
  rewriter.eraseOp(launch);
}

namespace {

struct CoroMegakernelToGPUPass
    : coro::impl::CoroMegakernelToGPUBase<CoroMegakernelToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (workgroupSize <= 0) {
      module.emitError("coro-megakernel-to-gpu: workgroup-size must be "
                       "positive, got ")
          << static_cast<int64_t>(workgroupSize);
      return signalPassFailure();
    }
    SmallVector<FuncOp> coroutines(module.getOps<FuncOp>());
    for (FuncOp coroutine : coroutines)
      if (failed(checkLowerable(coroutine)))
        return signalPassFailure();
    if (coroutines.empty())
      return;

    IRRewriter rewriter(&getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    rewriter.getUnitAttr());
    rewriter.setInsertionPointToEnd(module.getBody());
    auto kernels =
        gpu::GPUModuleOp::create(rewriter, module.getLoc(), kKernelModuleName);
    module.walk(
        [&](LaunchOp launch) { lowerLaunch(launch, workgroupSize, rewriter); });
    for (FuncOp coroutine : coroutines)
      lowerCoroutine(coroutine, kernels, workgroupSize, rewriter);
    replacePoisonWithZero(kernels, rewriter);
    lowerIndexSwitchToIf(kernels, rewriter);
  }
};

} // namespace

//===- SPIRVConvertGPU.cpp - the GPU to SPIR-V conversion, completed ------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's convert-gpu-to-spirv for Vulkan (each gpu.module cloned into a
// spirv.module, its memory spaces mapped to storage classes, the GPU, SCF,
// arith, memref, func and vector patterns applied), with patterns for the
// ops it leaves out that SPIR-V has instructions for, which no rewrite
// before it can reach (they need the converted pointer or a GLSL
// instruction): math.exp2 as GLSL.std.450 Exp2, memref.atomic_rmw assign
// as OpAtomicExchange and memref.atomic_rmw xori as OpAtomicXor. Before
// converting, it reports memref.dim of a dynamic size at the op: a Vulkan
// kernel has no buffer sizes.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-convert-gpu"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVCONVERTGPU
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

/// The scope of an atomic on memory of `type`'s storage class, as the
/// upstream atomic_rmw patterns choose it: the workgroup for workgroup
/// memory, the device for buffers; none for other storage classes.
static std::optional<spirv::Scope> getAtomicScope(MemRefType type) {
  auto storage =
      dyn_cast_or_null<spirv::StorageClassAttr>(type.getMemorySpace());
  if (!storage)
    return std::nullopt;
  switch (storage.getValue()) {
  case spirv::StorageClass::StorageBuffer:
  case spirv::StorageClass::PhysicalStorageBuffer:
  case spirv::StorageClass::CrossWorkgroup:
    return spirv::Scope::Device;
  case spirv::StorageClass::Workgroup:
    return spirv::Scope::Workgroup;
  default:
    return std::nullopt;
  }
}

namespace {

/// `math.exp2` -> `spirv.GL.Exp2` (16- and 32-bit floats and vectors of
/// them; Vulkan's precision: 3 + 2|x| ULP).
struct Exp2Pattern : OpConversionPattern<math::Exp2Op> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(math::Exp2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(op.getType());
    if (!element.isF16() && !element.isF32())
      return rewriter.notifyMatchFailure(op, "GL Exp2 takes f16 and f32");
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || type != adaptor.getOperand().getType())
      return rewriter.notifyMatchFailure(op, "an emulated type");
    LDBG() << "converting " << op;
    rewriter.replaceOpWithNewOp<spirv::GLExp2Op>(op, type,
                                                 adaptor.getOperand());
    return success();
  }
};

/// `memref.atomic_rmw assign` (an exchange) -> `spirv.AtomicExchange` and
/// `memref.atomic_rmw xori` -> `spirv.AtomicXor` on the element's pointer,
/// with the scope (by storage class) and semantics of the upstream
/// atomic_rmw patterns (coro-spirv-relaxed-atomics relaxes them). Integer
/// elements kept as they are (32 or 64 bits): not narrow ones, which the
/// conversion emulates in words, nor floats, whose exchange Vulkan needs a
/// device feature for.
struct AtomicRMWPattern : OpConversionPattern<memref::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(memref::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    arith::AtomicRMWKind kind = op.getKind();
    if (kind != arith::AtomicRMWKind::assign &&
        kind != arith::AtomicRMWKind::xori)
      return rewriter.notifyMatchFailure(op, "a kind upstream lowers");
    Type element = op.getType();
    if (!element.isInteger(32) && !element.isInteger(64))
      return rewriter.notifyMatchFailure(op, "takes 32- and 64-bit ints");
    std::optional<spirv::Scope> scope = getAtomicScope(op.getMemRefType());
    if (!scope)
      return rewriter.notifyMatchFailure(op, "no atomics in its memory");
    const auto &typeConverter = *getTypeConverter<SPIRVTypeConverter>();
    Type type = typeConverter.convertType(element);
    if (type != element)
      return rewriter.notifyMatchFailure(op, "an emulated element type");
    Value pointer = spirv::getElementPtr(
        typeConverter, op.getMemRefType(), adaptor.getMemref(),
        adaptor.getIndices(), op.getLoc(), rewriter);
    if (!pointer)
      return rewriter.notifyMatchFailure(op, "no element pointer");
    LDBG() << "converting " << op;
    if (kind == arith::AtomicRMWKind::assign)
      rewriter.replaceOpWithNewOp<spirv::AtomicExchangeOp>(
          op, type, pointer, *scope, spirv::MemorySemantics::AcquireRelease,
          adaptor.getValue());
    else
      rewriter.replaceOpWithNewOp<spirv::AtomicXorOp>(
          op, type, pointer, *scope, spirv::MemorySemantics::AcquireRelease,
          adaptor.getValue());
    return success();
  }
};

/// Replaces memref.dim of a static size by the size; reports memref.dim of a
/// dynamic one (a buffer argument's length, which Vulkan kernels are not
/// given) at the op.
LogicalResult resolveDims(Operation *root) {
  SmallVector<memref::DimOp> dims;
  root->walk([&](memref::DimOp dim) { dims.push_back(dim); });
  bool failed = false;
  for (memref::DimOp dim : dims) {
    std::optional<int64_t> index = dim.getConstantIndex();
    auto type = dyn_cast<MemRefType>(dim.getSource().getType());
    if (type && index && *index >= 0 && *index < type.getRank() &&
        !type.isDynamicDim(*index)) {
      OpBuilder builder(dim);
      Value size = arith::ConstantIndexOp::create(builder, dim.getLoc(),
                                                  type.getDimSize(*index));
      dim.replaceAllUsesWith(size);
      dim.erase();
      continue;
    }
    dim.emitOpError("the size of a buffer argument is not available in "
                    "SPIR-V kernels; pass it as an argument");
    failed = true;
  }
  return failure(failed);
}

struct CoroSPIRVConvertGPUPass
    : coro::impl::CoroSPIRVConvertGPUBase<CoroSPIRVConvertGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ModuleOp module = getOperation();
    WalkResult dims = module.walk([](gpu::GPUModuleOp gpuModule) {
      return failed(resolveDims(gpuModule)) ? WalkResult::interrupt()
                                            : WalkResult::advance();
    });
    if (dims.wasInterrupted())
      return signalPassFailure();

    // The launches still name the gpu.modules: convert clones, placed
    // before them as upstream places Vulkan modules.
    SmallVector<Operation *> gpuModules;
    OpBuilder builder(context);
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      builder.setInsertionPoint(gpuModule);
      gpuModules.push_back(builder.clone(*gpuModule));
    });

    for (Operation *gpuModule : gpuModules) {
      spirv::TargetEnvAttr targetAttr =
          spirv::lookupTargetEnvOrDefault(gpuModule);

      spirv::MemorySpaceToStorageClassConverter storageClasses(
          spirv::mapMemorySpaceToVulkanStorageClass);
      spirv::convertMemRefTypesAndAttrs(gpuModule, storageClasses);
      std::unique_ptr<ConversionTarget> mapped =
          spirv::getMemorySpaceToStorageClassTarget(*context);
      WalkResult unmapped = gpuModule->walk([&](Operation *op) {
        if (!mapped->isIllegal(op))
          return WalkResult::advance();
        op->emitOpError("failed to legalize memory space");
        return WalkResult::interrupt();
      });
      if (unmapped.wasInterrupted())
        return signalPassFailure();

      std::unique_ptr<ConversionTarget> target =
          SPIRVConversionTarget::get(targetAttr);
      SPIRVConversionOptions options;
      options.use64bitIndex = use64bitIndex;
      SPIRVTypeConverter typeConverter(targetAttr, options);
      populateMMAToSPIRVCoopMatrixTypeConversion(typeConverter);

      RewritePatternSet patterns(context);
      populateGPUToSPIRVPatterns(typeConverter, patterns);
      populateGpuWMMAToSPIRVCoopMatrixKHRConversionPatterns(typeConverter,
                                                            patterns);
      ScfToSPIRVContext scfContext;
      populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
      arith::populateArithToSPIRVPatterns(typeConverter, patterns);
      populateMemRefToSPIRVPatterns(typeConverter, patterns);
      populateFuncToSPIRVPatterns(typeConverter, patterns);
      populateVectorToSPIRVPatterns(typeConverter, patterns);
      patterns.add<Exp2Pattern, AtomicRMWPattern>(typeConverter, context);

      if (failed(applyFullConversion(gpuModule, *target, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace

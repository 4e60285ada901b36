//===- SPIRVKernelArguments.cpp - kernel arguments Vulkan can pass --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVKERNELARGUMENTS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-kernel-arguments"

using namespace mlir;

Type mlir::coro::getSPIRVKernelArgumentType(Type type) {
  if (type.isInteger(1) || type.isInteger(8))
    return IntegerType::get(type.getContext(), 32);
  return type;
}

bool mlir::coro::isSPIRVVectorArgumentType(VectorType type) {
  Type element = type.getElementType();
  bool elementOk = element.isInteger(1) || element.isInteger(8) ||
                   element.isInteger(16) || element.isInteger(32) ||
                   element.isInteger(64) || element.isIndex() ||
                   element.isF16() || element.isF32() || element.isF64();
  return type.getRank() == 1 && !type.isScalable() &&
         type.getNumElements() <= 4 && elementOk;
}

namespace {

/// The type a kernel argument of `type` becomes; `type` itself when the
/// kernel can take it as it is.
Type getPassedType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return MemRefType::get(
        {vector.getNumElements()},
        coro::getSPIRVKernelArgumentType(vector.getElementType()));
  return coro::getSPIRVKernelArgumentType(type);
}

/// `value` of a narrow integer type widened to `type` (zero-extended: the
/// kernel truncates it back), or `value` when it has that type.
Value widen(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return arith::ExtUIOp::create(builder, loc, type, value);
}

/// `value` truncated back to `type`, or `value` when it has that type.
Value narrow(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return arith::TruncIOp::create(builder, loc, type, value);
}

struct CoroSPIRVKernelArgumentsPass
    : coro::impl::CoroSPIRVKernelArgumentsBase<CoroSPIRVKernelArgumentsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // kernel -> the positions of its changed arguments.
    DenseMap<Operation *, SmallVector<unsigned>> rewritten;
    WalkResult result = module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return WalkResult::advance();
      SmallVector<unsigned> positions;
      for (BlockArgument argument : kernel.getArguments()) {
        Type type = argument.getType();
        auto vector = dyn_cast<VectorType>(type);
        if (vector && !coro::isSPIRVVectorArgumentType(vector)) {
          kernel.emitError("kernel argument ")
              << argument.getArgNumber() << " is " << type << ": "
              << coro::kSPIRVVectorArgumentTypes;
          return WalkResult::interrupt();
        }
        if (getPassedType(type) != type)
          positions.push_back(argument.getArgNumber());
      }
      if (positions.empty())
        return WalkResult::advance();
      changeArguments(kernel, positions);
      rewritten[kernel] = positions;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (rewritten.empty())
      return;
    SymbolTableCollection symbols;
    module.walk([&](gpu::LaunchFuncOp launch) {
      Operation *kernel =
          symbols.lookupNearestSymbolFrom(launch, launch.getKernel());
      auto it = rewritten.find(kernel);
      if (it != rewritten.end())
        changeLaunchOperands(launch, it->second);
    });
  }

  /// Host launches pass a narrow integer widened, a vector in a buffer.
  static void changeLaunchOperands(gpu::LaunchFuncOp launch,
                                   ArrayRef<unsigned> positions) {
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    for (unsigned position : positions) {
      Value operand = launch.getKernelOperands()[position];
      Type passedType = getPassedType(operand.getType());
      auto vector = dyn_cast<VectorType>(operand.getType());
      if (!vector) {
        launch.getKernelOperandsMutable()[position].set(
            widen(builder, loc, operand, passedType));
        continue;
      }
      auto bufferType = cast<MemRefType>(passedType);
      auto buffer = memref::AllocOp::create(builder, loc, bufferType);
      for (int64_t i = 0; i < vector.getNumElements(); ++i) {
        Value element = vector::ExtractOp::create(builder, loc, operand, i);
        Value index = arith::ConstantIndexOp::create(builder, loc, i);
        memref::StoreOp::create(
            builder, loc,
            widen(builder, loc, element, bufferType.getElementType()), buffer,
            index);
      }
      launch.getKernelOperandsMutable()[position].set(buffer);
      // The launch is synchronous (no async token): the buffer is free
      // after it.
      if (!launch.getAsyncToken()) {
        OpBuilder after(launch->getContext());
        after.setInsertionPointAfter(launch);
        memref::DeallocOp::create(after, loc, buffer);
      }
    }
  }

  /// Changes the arguments of `kernel` at `positions` to the types it is
  /// passed in, and rebuilds their values at the start of the body.
  void changeArguments(gpu::GPUFuncOp kernel, ArrayRef<unsigned> positions) {
    Block &entry = kernel.getBody().front();
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    Location loc = kernel.getLoc();
    SmallVector<Type> inputs(kernel.getArgumentTypes());
    for (unsigned position : positions) {
      BlockArgument argument = entry.getArgument(position);
      Type type = argument.getType();
      Type passedType = getPassedType(type);
      argument.setType(passedType);
      inputs[position] = passedType;
      // The ops made here read the argument; every other use takes the
      // rebuilt value.
      SmallPtrSet<Operation *, 4> readers;
      Value value;
      if (auto vector = dyn_cast<VectorType>(type)) {
        SmallVector<Value> elements;
        for (int64_t i = 0; i < vector.getNumElements(); ++i) {
          Value index = arith::ConstantIndexOp::create(builder, loc, i);
          auto load = memref::LoadOp::create(builder, loc, argument, index);
          readers.insert(load);
          elements.push_back(
              narrow(builder, loc, load, vector.getElementType()));
        }
        value = vector::FromElementsOp::create(builder, loc, vector, elements);
        ++numVectorArguments;
      } else {
        value = narrow(builder, loc, argument, type);
        readers.insert(value.getDefiningOp());
        ++numNarrowArguments;
      }
      argument.replaceUsesWithIf(value, [&](OpOperand &use) {
        return !readers.contains(use.getOwner());
      });
      LDBG() << "@" << kernel.getName() << ": argument " << position << " ("
             << type << ") passed as " << passedType;
    }
    kernel.setFunctionType(FunctionType::get(
        &getContext(), inputs, kernel.getFunctionType().getResults()));
  }
};

} // namespace

//===- SPIRVVectorArguments.cpp - vector kernel arguments in buffers ------===//
//
// Part of the CoroGPU project.
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
#define GEN_PASS_DEF_COROSPIRVVECTORARGUMENTS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-vector-arguments"

using namespace mlir;

bool mlir::coro::isSPIRVVectorArgumentType(VectorType type) {
  Type element = type.getElementType();
  bool elementOk = element.isInteger(16) || element.isInteger(32) ||
                   element.isInteger(64) || element.isIndex() ||
                   element.isF16() || element.isF32() || element.isF64();
  return type.getRank() == 1 && !type.isScalable() &&
         type.getNumElements() <= 4 && elementOk;
}

namespace {

/// The buffer a vector argument of `type` is passed in: its elements, packed
/// (what the runtime passes a scalar argument of that many bytes in).
MemRefType getArgumentBufferType(VectorType type) {
  return MemRefType::get({type.getNumElements()}, type.getElementType());
}

struct CoroSPIRVVectorArgumentsPass
    : coro::impl::CoroSPIRVVectorArgumentsBase<CoroSPIRVVectorArgumentsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // kernel -> the positions of its vector arguments.
    DenseMap<Operation *, SmallVector<unsigned>> rewritten;
    WalkResult result = module.walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return WalkResult::advance();
      SmallVector<unsigned> positions;
      for (BlockArgument argument : kernel.getArguments()) {
        auto type = dyn_cast<VectorType>(argument.getType());
        if (!type)
          continue;
        if (!coro::isSPIRVVectorArgumentType(type)) {
          kernel.emitError("kernel argument ")
              << argument.getArgNumber() << " is " << type << ": "
              << coro::kSPIRVVectorArgumentTypes;
          return WalkResult::interrupt();
        }
        positions.push_back(argument.getArgNumber());
      }
      if (positions.empty())
        return WalkResult::advance();
      passInBuffers(kernel, positions);
      rewritten[kernel] = positions;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (rewritten.empty())
      return;
    // Host launches pass a buffer holding the vector.
    SymbolTableCollection symbols;
    module.walk([&](gpu::LaunchFuncOp launch) {
      Operation *kernel =
          symbols.lookupNearestSymbolFrom(launch, launch.getKernel());
      auto it = rewritten.find(kernel);
      if (it == rewritten.end())
        return;
      OpBuilder builder(launch);
      Location loc = launch.getLoc();
      for (unsigned position : it->second) {
        Value vector = launch.getKernelOperands()[position];
        auto type = cast<VectorType>(vector.getType());
        auto buffer =
            memref::AllocOp::create(builder, loc, getArgumentBufferType(type));
        for (int64_t i = 0; i < type.getNumElements(); ++i) {
          Value element = vector::ExtractOp::create(builder, loc, vector, i);
          Value index = arith::ConstantIndexOp::create(builder, loc, i);
          memref::StoreOp::create(builder, loc, element, buffer, index);
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
    });
  }

  /// Turns the arguments of `kernel` at `positions` into buffers of their
  /// elements, loaded at the start of the body.
  void passInBuffers(gpu::GPUFuncOp kernel, ArrayRef<unsigned> positions) {
    Block &entry = kernel.getBody().front();
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    Location loc = kernel.getLoc();
    SmallVector<Type> inputs(kernel.getArgumentTypes());
    for (unsigned position : positions) {
      BlockArgument argument = entry.getArgument(position);
      auto type = cast<VectorType>(argument.getType());
      MemRefType bufferType = getArgumentBufferType(type);
      argument.setType(bufferType);
      SmallVector<Value> elements;
      SmallPtrSet<Operation *, 4> loads;
      for (int64_t i = 0; i < type.getNumElements(); ++i) {
        Value index = arith::ConstantIndexOp::create(builder, loc, i);
        auto load = memref::LoadOp::create(builder, loc, argument, index);
        elements.push_back(load);
        loads.insert(load);
      }
      auto vector =
          vector::FromElementsOp::create(builder, loc, type, elements);
      argument.replaceUsesWithIf(vector.getResult(), [&](OpOperand &use) {
        return !loads.contains(use.getOwner());
      });
      inputs[position] = bufferType;
      ++numArguments;
      LDBG() << "@" << kernel.getName() << ": argument " << position << " ("
             << type << ") passed in a buffer";
    }
    kernel.setFunctionType(FunctionType::get(
        &getContext(), inputs, kernel.getFunctionType().getResults()));
  }
};

} // namespace

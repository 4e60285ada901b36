//===- SPIRVLocalArrays.cpp - local arrays in SPIR-V Function storage -----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVLOCALARRAYS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-local-arrays"

using namespace mlir;

namespace {

/// The element type a local array of `type` keeps in Function storage: the
/// conversion takes no array of index or of boolean vectors ("failed to
/// legalize operation 'memref.alloca'"), so those hold i32 elements (index
/// is 32 bits in these kernels), and it gave an array of bf16 wrong values
/// (it keeps bf16 values in f32s), so that holds f32 elements; any other
/// type itself.
Type getStoredElementType(Type type) {
  Builder builder(type.getContext());
  Type element = getElementTypeOrSelf(type);
  Type stored = element;
  if (element.isIndex() || (element.isInteger(1) && isa<VectorType>(type)))
    stored = builder.getI32Type();
  else if (element.isBF16())
    stored = builder.getF32Type();
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(stored);
  return stored;
}

/// `value` of `from` as a value of `to`, one of getStoredElementType's pairs.
Value convertElement(OpBuilder &builder, Location loc, Value value, Type to) {
  Type from = getElementTypeOrSelf(value.getType());
  Type target = getElementTypeOrSelf(to);
  if (from.isIndex() || target.isIndex())
    return arith::IndexCastOp::create(builder, loc, to, value);
  if (from.isBF16())
    return arith::ExtFOp::create(builder, loc, to, value);
  if (target.isBF16())
    return arith::TruncFOp::create(builder, loc, to, value);
  if (from.isInteger(1))
    return arith::ExtUIOp::create(builder, loc, to, value);
  return arith::TruncIOp::create(builder, loc, to, value);
}

/// Gives `alloca` the elements getStoredElementType names, converting at its
/// loads and stores; leaves it (for the conversion to report) when anything
/// else uses it.
void storeConvertedElements(memref::AllocaOp alloca) {
  MemRefType type = alloca.getType();
  Type element = type.getElementType();
  Type stored = getStoredElementType(element);
  if (stored == element ||
      !llvm::all_of(alloca->getUsers(), [&](Operation *user) {
        auto store = dyn_cast<memref::StoreOp>(user);
        return isa<memref::LoadOp>(user) ||
               (store && store.getValueToStore() != alloca.getResult());
      }))
    return;
  alloca.getResult().setType(MemRefType::get(
      type.getShape(), stored, type.getLayout(), type.getMemorySpace()));
  for (Operation *user : llvm::to_vector(alloca->getUsers())) {
    OpBuilder builder(user);
    if (auto store = dyn_cast<memref::StoreOp>(user)) {
      store.getValueMutable().assign(convertElement(
          builder, store.getLoc(), store.getValueToStore(), stored));
      continue;
    }
    auto load = cast<memref::LoadOp>(user);
    load.getResult().setType(stored);
    builder.setInsertionPointAfter(load);
    Value value = convertElement(builder, load.getLoc(), load, element);
    load.getResult().replaceAllUsesExcept(value, value.getDefiningOp());
  }
}

struct CoroSPIRVLocalArraysPass
    : coro::impl::CoroSPIRVLocalArraysBase<CoroSPIRVLocalArraysPass> {
  using Base::Base;

  void runOnOperation() override {
    auto function = spirv::StorageClassAttr::get(&getContext(),
                                                 spirv::StorageClass::Function);
    getOperation().walk([&](gpu::GPUModuleOp kernels) {
      kernels.walk([&](memref::AllocaOp alloca) {
        MemRefType type = alloca.getType();
        if (type.getMemorySpace())
          return;
        // Loads and stores, the only users of local arrays in kernels, take
        // any memory space.
        LDBG() << "a Function-storage array: " << alloca;
        alloca.getResult().setType(MemRefType::get(type.getShape(),
                                                   type.getElementType(),
                                                   type.getLayout(), function));
        storeConvertedElements(alloca);
      });
    });
  }
};

} // namespace

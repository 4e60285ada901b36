//===- FrameSpill.cpp - frame stores and loads of coro-split --------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FrameSpill.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::split;

/// The position of element `linear` in row-major order of `shape`.
static SmallVector<int64_t> delinearize(ArrayRef<int64_t> shape,
                                        int64_t linear) {
  SmallVector<int64_t> position(shape.size());
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    position[dim] = linear % shape[dim];
    linear /= shape[dim];
  }
  return position;
}

static SmallVector<Value> getElementIndices(OpBuilder &builder, Location loc,
                                            ArrayRef<int64_t> shape,
                                            int64_t linear) {
  return llvm::map_to_vector(delinearize(shape, linear), [&](int64_t i) {
    return Value(arith::ConstantIndexOp::create(builder, loc, i));
  });
}

int64_t mlir::coro::split::storeToFrame(OpBuilder &builder, Location loc,
                                        Value value, Value frame,
                                        int64_t field) {
  Type type = value.getType();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    for (int64_t i = 0, e = memref.getNumElements(); i < e; ++i) {
      Value element = memref::LoadOp::create(
          builder, loc, value,
          getElementIndices(builder, loc, memref.getShape(), i));
      field = storeToFrame(builder, loc, element, frame, field);
    }
    return field;
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i) {
      Value lane = vector::ExtractOp::create(builder, loc, value,
                                             delinearize(vector.getShape(), i));
      FrameStoreOp::create(builder, loc, lane, frame, field++);
    }
    return field;
  }
  FrameStoreOp::create(builder, loc, value, frame, field);
  return field + 1;
}

Value mlir::coro::split::loadFromFrame(OpBuilder &builder, Location loc,
                                       Type type, Value frame, int64_t &field) {
  if (auto memref = dyn_cast<MemRefType>(type)) {
    Value array = memref::AllocaOp::create(builder, loc, memref);
    for (int64_t i = 0, e = memref.getNumElements(); i < e; ++i) {
      Value element =
          loadFromFrame(builder, loc, memref.getElementType(), frame, field);
      memref::StoreOp::create(
          builder, loc, element, array,
          getElementIndices(builder, loc, memref.getShape(), i));
    }
    return array;
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    SmallVector<Value> lanes;
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i)
      lanes.push_back(FrameLoadOp::create(builder, loc, vector.getElementType(),
                                          frame, field++));
    return vector::FromElementsOp::create(builder, loc, vector, lanes);
  }
  return FrameLoadOp::create(builder, loc, type, frame, field++);
}

llvm::SetVector<Value>
mlir::coro::split::collectExternalValues(Operation *function) {
  llvm::SetVector<Value> external;
  function->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Region *region = operand.getParentRegion();
      if (!function->isProperAncestor(region->getParentOp()) &&
          region->getParentOp() != function)
        external.insert(operand);
    }
  });
  return external;
}

//===- VectorAccesses.cpp - vector loads and stores by element ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/VectorAccesses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

/// The memref indices of element `position` (an index into the vector's
/// shape) of an access at `base`: the position added to the trailing ones.
static SmallVector<Value> getElementIndices(OpBuilder &builder, Location loc,
                                            ValueRange base,
                                            ArrayRef<int64_t> position) {
  SmallVector<Value> indices(base);
  size_t first = indices.size() - position.size();
  for (auto [dim, offset] : llvm::enumerate(position)) {
    if (offset == 0)
      continue;
    Value step = arith::ConstantIndexOp::create(builder, loc, offset);
    indices[first + dim] =
        arith::AddIOp::create(builder, loc, indices[first + dim], step);
  }
  return indices;
}

/// Calls `visit` with each position of `shape`, in row-major order.
static void forEachPosition(ArrayRef<int64_t> shape,
                            function_ref<void(ArrayRef<int64_t>)> visit) {
  int64_t count = computeProduct(shape);
  SmallVector<int64_t> strides = computeStrides(shape);
  for (int64_t linear = 0; linear < count; ++linear)
    visit(delinearize(linear, strides));
}

/// Whether the vector of an access to `memref` is one of its elements.
static bool isElement(MemRefType memref, VectorType vector) {
  return memref.getElementType() == vector;
}

/// Whether `op` is an access scalarizeVectorAccesses rewrites.
static bool isScalarizable(Operation *op) {
  auto rewritable = [](MemRefType memref, VectorType vector) {
    return !vector.isScalable() && (!isa<VectorType>(memref.getElementType()) ||
                                    isElement(memref, vector));
  };
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return rewritable(load.getMemRefType(), load.getVectorType());
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return rewritable(store.getMemRefType(), store.getVectorType());
  return false;
}

/// Rewrites one access (isScalarizable).
static void scalarize(Operation *access, RewriterBase &rewriter) {
  rewriter.setInsertionPoint(access);
  Location loc = access->getLoc();
  if (auto load = dyn_cast<vector::LoadOp>(access);
      load && isElement(load.getMemRefType(), load.getVectorType())) {
    rewriter.replaceOpWithNewOp<memref::LoadOp>(load, load.getBase(),
                                                load.getIndices());
    return;
  }
  if (auto store = dyn_cast<vector::StoreOp>(access);
      store && isElement(store.getMemRefType(), store.getVectorType())) {
    rewriter.replaceOpWithNewOp<memref::StoreOp>(
        store, store.getValueToStore(), store.getBase(), store.getIndices());
    return;
  }
  if (auto load = dyn_cast<vector::LoadOp>(access)) {
    VectorType type = load.getVectorType();
    SmallVector<Value> elements;
    forEachPosition(type.getShape(), [&](ArrayRef<int64_t> position) {
      SmallVector<Value> indices =
          getElementIndices(rewriter, loc, load.getIndices(), position);
      elements.push_back(
          memref::LoadOp::create(rewriter, loc, load.getBase(), indices));
    });
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(load, type, elements);
    return;
  }
  auto store = cast<vector::StoreOp>(access);
  forEachPosition(
      store.getVectorType().getShape(), [&](ArrayRef<int64_t> position) {
        Value element = vector::ExtractOp::create(
            rewriter, loc, store.getValueToStore(), position);
        SmallVector<Value> indices =
            getElementIndices(rewriter, loc, store.getIndices(), position);
        memref::StoreOp::create(rewriter, loc, element, store.getBase(),
                                indices);
      });
  rewriter.eraseOp(store);
}

unsigned mlir::coro::scalarizeVectorAccesses(Operation *root,
                                             RewriterBase &rewriter) {
  SmallVector<Operation *> accesses;
  root->walk([&](Operation *op) {
    if (isScalarizable(op))
      accesses.push_back(op);
  });
  OpBuilder::InsertionGuard guard(rewriter);
  for (Operation *access : accesses)
    scalarize(access, rewriter);
  return accesses.size();
}

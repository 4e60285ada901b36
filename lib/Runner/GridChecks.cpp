//===- GridChecks.cpp - a grid against the buffers it indexes -------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/GridChecks.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::coro;

namespace {
/// An access of a memref: the memref, its indices, the elements it touches
/// and whether it writes.
struct MemRefAccess {
  Value memref;
  ValueRange indices;
  int64_t width = 1;
  bool writes = false;
};
} // namespace

static std::optional<MemRefAccess> getAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return MemRefAccess{load.getMemRef(), load.getIndices(), 1, false};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return MemRefAccess{store.getMemRef(), store.getIndices(), 1, true};
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return MemRefAccess{atomic.getMemref(), atomic.getIndices(), 1, true};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return MemRefAccess{load.getBase(), load.getIndices(),
                        load.getVectorType().getNumElements(), false};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return MemRefAccess{store.getBase(), store.getIndices(),
                        store.getVectorType().getNumElements(), true};
  return std::nullopt;
}

/// Whether `index` is the (linear) instance id, possibly cast between
/// integer types. (A component, `coro.id 0`, ranges over one extent only.)
static bool isInstanceId(Value index) {
  while (Operation *def = index.getDefiningOp()) {
    if (auto id = dyn_cast<IdOp>(def))
      return !id.getDim();
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
             arith::ExtSIOp>(def))
      return false;
    index = def->getOperand(0);
  }
  return false;
}

/// The argument number of `memref` when it is one of `coroutine`'s.
static std::optional<unsigned> getArgumentNumber(FuncOp coroutine,
                                                 Value memref) {
  auto argument = dyn_cast<BlockArgument>(memref);
  if (!argument || argument.getOwner() != &coroutine.getBody().front())
    return std::nullopt;
  return argument.getArgNumber();
}

/// Every value of `coroutine`'s body computed from its instance id (an op's
/// results when any operand is; a block argument is not followed).
static llvm::DenseSet<Value> getIdDerivedValues(FuncOp coroutine) {
  llvm::DenseSet<Value> derived;
  coroutine.walk([&](Operation *op) {
    if (isa<IdOp>(op) || llvm::any_of(op->getOperands(), [&](Value operand) {
          return derived.contains(operand);
        }))
      derived.insert(op->result_begin(), op->result_end());
  });
  return derived;
}

/// Whether every instance that starts runs `op`: it is in the body's entry
/// block, nested in nothing but loops whose bounds are the same for every
/// instance (a guard such as `scf.if %id < %n`, a branch, or a trip count
/// computed from the id may keep instances from it, and then a smaller
/// buffer is correct).
static bool runsInEveryInstance(FuncOp coroutine, Operation *op,
                                const llvm::DenseSet<Value> &derived) {
  for (Operation *at = op; at != coroutine.getOperation();
       at = at->getParentOp()) {
    Operation *parent = at->getParentOp();
    if (parent == coroutine.getOperation())
      return at->getBlock() == &coroutine.getBody().front();
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop || derived.contains(loop.getLowerBound()) ||
        derived.contains(loop.getUpperBound()) ||
        derived.contains(loop.getStep()))
      return false;
  }
  return false;
}

OwningOpRef<ModuleOp> runner::getStructuredCopy(FuncOp coroutine) {
  auto module = coroutine->getParentOfType<ModuleOp>();
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  pm.nest<FuncOp>().addPass(createCoroNormalizeControlFlow());
  if (failed(pm.run(*copy)))
    return nullptr;
  return copy;
}

SmallVector<runner::InstanceIndexedAccess>
runner::findInstanceIndexedAccesses(FuncOp coroutine) {
  SmallVector<InstanceIndexedAccess> found;
  llvm::DenseSet<unsigned> seen;
  llvm::DenseSet<Value> derived = getIdDerivedValues(coroutine);
  coroutine.walk([&](Operation *op) {
    std::optional<MemRefAccess> access = getAccess(op);
    if (!access || access->indices.size() != 1 ||
        !isInstanceId(access->indices.front()) ||
        !runsInEveryInstance(coroutine, op, derived))
      return;
    std::optional<unsigned> argument =
        getArgumentNumber(coroutine, access->memref);
    if (argument && seen.insert(*argument).second)
      found.push_back({*argument, op, access->width});
  });
  return found;
}

SmallVector<unsigned> runner::findInstanceDerivedWrites(FuncOp coroutine) {
  llvm::DenseSet<Value> derived = getIdDerivedValues(coroutine);
  llvm::SetVector<unsigned> arguments;
  coroutine.walk([&](Operation *op) {
    std::optional<MemRefAccess> access = getAccess(op);
    if (!access || !access->writes ||
        !runsInEveryInstance(coroutine, op, derived) ||
        llvm::none_of(access->indices,
                      [&](Value index) { return derived.contains(index); }) ||
        (access->indices.size() == 1 && isInstanceId(access->indices.front())))
      return;
    if (std::optional<unsigned> argument =
            getArgumentNumber(coroutine, access->memref))
      arguments.insert(*argument);
  });
  return arguments.takeVector();
}

//===- Recomputation.cpp - values recomputed after a suspension -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/Recomputation.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-recomputation"

using namespace mlir;
using namespace mlir::coro;

/// Recursion limit of the recomputation chains, memrefs included.
static constexpr unsigned kMaxDepth = 16;

bool mlir::coro::isLocalArray(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && value.getDefiningOp<memref::AllocaOp>() &&
         type.hasStaticShape() && type.getLayout().isIdentity() &&
         type.getNumElements() <= kMaxLocalArrayElements;
}

int64_t mlir::coro::getNumFrameFields(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.getNumElements() * getNumFrameFields(memref.getElementType());
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

Type mlir::coro::getFrameFieldType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return getFrameFieldType(shaped.getElementType());
  return type;
}

/// Whether `type` is or holds a scalable vector, which has no fixed number
/// of lanes to keep.
static bool hasScalableVector(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return hasScalableVector(memref.getElementType());
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.isScalable();
}

std::optional<int64_t> RecomputeAnalysis::getFrameBits(Value value) {
  Type type = value.getType();
  if ((isa<MemRefType>(type) && !isLocalArray(value)) ||
      hasScalableVector(type))
    return std::nullopt;
  Type field = getFrameFieldType(type);
  if (!field.isSignlessIntOrIndexOrFloat())
    return std::nullopt;
  return getNumFrameFields(type) * FrameFieldAttr::getStorageBits(field);
}

/// Whether every use of `buffer`, through pure ops that derive views from
/// it, only reads it.
static bool isOnlyRead(Value buffer) {
  SmallVector<Value> worklist = {buffer};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    for (Operation *user : current.getUsers()) {
      if (isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp,
              memref::DimOp>(user))
        continue;
      if (!isPure(user) || user->getNumRegions() != 0)
        return false;
      for (Value result : user->getResults())
        if (isa<MemRefType>(result.getType()))
          worklist.push_back(result);
    }
  }
  return true;
}

/// Whether `op` may run again after a suspension point on the operands it
/// had, in whatever thread the instance resumes in: it is pure, or it is an
/// integer division, which is not speculatable only because it may trap, and
/// it did not trap when it ran on these operands before the suspension (it
/// dominates every suspension its result is live across). Ops that read
/// which thread runs them or which threads run with it (`gpu.lane_id`,
/// `gpu.subgroup_broadcast`, NVVM special registers, inline assembly) give
/// another result there, so their results stay in the frame.
static bool isRerunnable(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  StringRef dialect = op->getName().getDialectNamespace();
  if (dialect == "gpu" || dialect == "nvvm" || dialect == "rocdl" ||
      op->getName().getStringRef() == "llvm.inline_asm")
    return false;
  if (isPure(op))
    return true;
  return isMemoryEffectFree(op) &&
         isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
             arith::CeilDivUIOp, arith::CeilDivSIOp, arith::FloorDivSIOp>(op);
}

RecomputeAnalysis::RecomputeAnalysis(FunctionOpInterface coroutine,
                                     Options options)
    : coroutine(coroutine), options(options) {
  for (BlockArgument arg : coroutine.getArguments())
    if (isa<MemRefType>(arg.getType()) && isOnlyRead(arg))
      readOnlyArguments.insert(arg);
}

bool RecomputeAnalysis::isDeferrableLoad(Operation *op) const {
  Value buffer;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    buffer = load.getMemref();
  else if (auto load = dyn_cast<vector::LoadOp>(op))
    buffer = load.getBase();
  else
    return false;
  // Walk back through the views to the argument.
  while (Operation *def = buffer.getDefiningOp()) {
    if (!isPure(def))
      return false;
    auto source = llvm::find_if(def->getOperands(), [](Value operand) {
      return isa<MemRefType>(operand.getType());
    });
    if (source == def->operand_end())
      return false;
    buffer = *source;
  }
  return readOnlyArguments.contains(buffer);
}

const RecomputeAnalysis::Decision &
RecomputeAnalysis::getDecision(Value value, unsigned depth) {
  auto it = decisions.find(value);
  if (it != decisions.end())
    return it->second;
  Decision decision = decide(value, depth);
  LDBG() << (decision.recompute ? "recompute " : "store ") << value << " ("
         << decision.ops << " ops from " << decision.inputs.size()
         << " inputs)";
  return decisions[value] = std::move(decision);
}

RecomputeAnalysis::Decision RecomputeAnalysis::decide(Value value,
                                                      unsigned depth) {
  Decision stored;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Decision atHand;
    atHand.recompute = true;
    return arg.getOwner() == &coroutine.getFunctionBody().front() ? atHand
                                                                  : stored;
  }
  Operation *def = value.getDefiningOp();
  if (isa<IdOp>(def) || def->hasTrait<OpTrait::ConstantLike>()) {
    Decision atHand;
    atHand.recompute = true;
    return atHand;
  }
  if (depth >= kMaxDepth ||
      !(isRerunnable(def) || (options.deferLoads && isDeferrableLoad(def))))
    return stored;

  Decision recomputed;
  recomputed.recompute = true;
  recomputed.ops = 1;
  llvm::SetVector<Value> inputs;
  for (Value operand : def->getOperands()) {
    Decision operandDecision = getDecision(operand, depth + 1);
    if (operandDecision.recompute) {
      recomputed.ops += operandDecision.ops;
      inputs.insert_range(operandDecision.inputs);
    } else {
      inputs.insert(operand);
    }
  }
  recomputed.inputs = inputs.takeVector();
  // A memref cannot be stored: recompute it whenever possible.
  std::optional<int64_t> valueBits = getFrameBits(value);
  if (!valueBits)
    return recomputed;
  if (recomputed.ops > options.maxOps)
    return stored;
  int64_t inputBits = 0;
  for (Value input : recomputed.inputs) {
    std::optional<int64_t> bits = getFrameBits(input);
    if (!bits)
      return stored;
    inputBits += *bits;
  }
  return inputBits < *valueBits ? recomputed : stored;
}

void RecomputeAnalysis::addFrameInputs(Value value,
                                       llvm::SetVector<Value> &inputs) {
  const Decision &decision = getDecision(value);
  if (!decision.recompute) {
    inputs.insert(value);
    return;
  }
  inputs.insert_range(decision.inputs);
}

bool RecomputeAnalysis::canRecompute(Operation *op) const {
  if (isa<IdOp>(op) || op->hasTrait<OpTrait::ConstantLike>())
    return true;
  return isRerunnable(op) || (options.deferLoads && isDeferrableLoad(op));
}

/// Values at hand after any suspension point at no frame cost.
bool RecomputeAnalysis::isFree(Value value) {
  const Decision &decision = getDecision(value);
  return decision.recompute && decision.inputs.empty();
}

namespace {
/// How to make a value available after a suspension point: the values to
/// keep in the frame for it and their bits (kImpossible when it cannot be).
struct LeafPlan {
  static constexpr int64_t kImpossible = std::numeric_limits<int64_t>::max();
  int64_t bits = kImpossible;
  SmallVector<Value> leaves;
};
} // namespace

/// The cheapest way, in frame bits, to have `value` with at most `budget`
/// recomputed ops (dynamic programming over the budget; shared operands are
/// counted once per use, which only overestimates).
static LeafPlan
planLeaves(Value value, unsigned budget, bool isRoot,
           function_ref<bool(Value)> isAtHand,
           function_ref<bool(Operation *)> canRecompute,
           DenseMap<std::pair<Value, unsigned>, LeafPlan> &memo) {
  if (!isRoot && isAtHand(value))
    return {0, {}};
  auto key = std::make_pair(value, budget);
  if (!isRoot)
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
  LeafPlan best;
  if (!isRoot)
    if (std::optional<int64_t> bits = RecomputeAnalysis::getFrameBits(value))
      best = {*bits, {value}};
  Operation *def = value.getDefiningOp();
  if (def && budget > 0 && canRecompute(def)) {
    // Split the remaining budget among the operands, one after the other.
    unsigned remaining = budget - 1;
    SmallVector<LeafPlan> byBudget(remaining + 1, LeafPlan{0, {}});
    for (Value operand : def->getOperands()) {
      SmallVector<LeafPlan> next(remaining + 1);
      for (unsigned total = 0; total <= remaining; ++total) {
        for (unsigned used = 0; used <= total; ++used) {
          const LeafPlan &before = byBudget[total - used];
          if (before.bits == LeafPlan::kImpossible)
            continue;
          LeafPlan here = planLeaves(operand, used, /*isRoot=*/false, isAtHand,
                                     canRecompute, memo);
          if (here.bits == LeafPlan::kImpossible ||
              before.bits + here.bits >= next[total].bits)
            continue;
          next[total].bits = before.bits + here.bits;
          next[total].leaves = before.leaves;
          llvm::append_range(next[total].leaves, here.leaves);
        }
      }
      byBudget = std::move(next);
    }
    // Recompute only when strictly cheaper than keeping the value.
    if (byBudget[remaining].bits < best.bits)
      best = byBudget[remaining];
  }
  if (!isRoot)
    memo[key] = best;
  return best;
}

FailureOr<llvm::SetVector<Value>>
RecomputeAnalysis::getLeavesGiven(Value value,
                                  const llvm::SetVector<Value> &available) {
  DenseMap<std::pair<Value, unsigned>, LeafPlan> memo;
  LeafPlan plan = planLeaves(
      value, options.maxOps, /*isRoot=*/true,
      [&](Value v) { return available.contains(v) || isFree(v); },
      [&](Operation *op) { return canRecompute(op); }, memo);
  if (plan.bits == LeafPlan::kImpossible)
    return failure();
  return llvm::SetVector<Value>(plan.leaves.begin(), plan.leaves.end());
}

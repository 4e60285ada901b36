//===- Recomputation.cpp - values recomputed after a suspension -----------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/Recomputation.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

static std::optional<int64_t> getTypeFrameBits(Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return std::nullopt;
    std::optional<int64_t> bits = getTypeFrameBits(vector.getElementType());
    if (!bits)
      return std::nullopt;
    return *bits * vector.getNumElements();
  }
  if (!type.isSignlessIntOrIndexOrFloat())
    return std::nullopt;
  return FrameFieldAttr::getStorageBits(type);
}

std::optional<int64_t> RecomputeAnalysis::getFrameBits(Value value) {
  auto memref = dyn_cast<MemRefType>(value.getType());
  if (!memref)
    return getTypeFrameBits(value.getType());
  if (!isLocalArray(value))
    return std::nullopt;
  std::optional<int64_t> bits = getTypeFrameBits(memref.getElementType());
  if (!bits)
    return std::nullopt;
  return *bits * memref.getNumElements();
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
  if (depth >= kMaxDepth || def->getNumRegions() != 0 ||
      !(isPure(def) || (options.deferLoads && isDeferrableLoad(def))))
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

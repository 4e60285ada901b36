//===- Recomputation.h - values recomputed after a suspension ---*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Live-state reduction (paper App. C.1.2): which values a continuation
// recomputes instead of finding them in the frame, and what it needs from the
// frame to do so.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_ANALYSIS_RECOMPUTATION_H
#define COROGPU_ANALYSIS_RECOMPUTATION_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace coro {

/// Local arrays larger than this are not copied element by element into the
/// frame.
inline constexpr int64_t kMaxLocalArrayElements = 1024;

/// A local array (`memref.alloca` of static shape, at most
/// kMaxLocalArrayElements elements): kept in the frame element by element
/// when it is live across a suspension point.
bool isLocalArray(Value value);

/// Number of scalar frame fields a value of `type` needs: one per vector
/// lane and per local-array element.
int64_t getNumFrameFields(Type type);

/// The scalar type of the frame fields of a value of `type`.
Type getFrameFieldType(Type type);

/// Decides, for each value a continuation uses from before a suspension
/// point, whether the frame keeps the value or what it is recomputed from:
///
/// - arguments of the coroutine, constants and `coro.id` are always at hand;
/// - a pure op, or an integer division, is recomputed when its chain of
///   recomputed ops is at most `maxOps` long and the values it then needs
///   from the frame take fewer bits than the value itself (nothing, for a
///   chain that starts at arguments and constants);
/// - a deferred load: `memref.load` / `vector.load` of a buffer argument the
///   coroutine never writes is redone after the suspension when its indices
///   are smaller than the loaded value (a `vector<4xf32>` at an index, a
///   whole record at a pointer-sized cause). This assumes that distinct
///   buffer arguments do not alias, as with distinct Vulkan bindings;
/// - memref values cannot be stored and are recomputed whenever possible.
///
/// A division need not be speculatable (by an argument, say): it reruns on
/// the operands it had, after it ran on them before the suspension without
/// trapping. Ops that read the thread they run in (`gpu.lane_id`, NVVM
/// special registers, inline assembly) are never recomputed: an instance
/// may resume in another thread.
class RecomputeAnalysis {
public:
  struct Options {
    /// Longest chain of ops recomputed for one scalar or vector value.
    unsigned maxOps = 16;
    /// Whether loads of read-only buffer arguments may be deferred.
    bool deferLoads = true;
  };

  RecomputeAnalysis(FunctionOpInterface coroutine, Options options);

  /// Whether `value` is recomputed after a suspension point.
  bool isRecomputed(Value value) { return getDecision(value).recompute; }

  /// Adds to `inputs` the values the frame must keep so that `value` is
  /// available after a suspension point: `value` itself when it is stored,
  /// the inputs of its recomputation otherwise.
  void addFrameInputs(Value value, llvm::SetVector<Value> &inputs);

  /// Bits `value` takes in the frame: the sum of its scalar fields;
  /// nothing for a memref that is not a local array.
  static std::optional<int64_t> getFrameBits(Value value);

  /// With `available` kept in the frame anyway, tries to recompute `value`
  /// from them: on success returns the further values the frame must keep
  /// (the leaves of the recomputation that are not available), within a
  /// chain of at most `maxOps` ops; fails when that is not possible.
  FailureOr<llvm::SetVector<Value>>
  getLeavesGiven(Value value, const llvm::SetVector<Value> &available);

  /// Whether `op` may be cloned after a suspension point: pure and
  /// region-free, a deferrable load, a constant or `coro.id`.
  bool canRecompute(Operation *op) const;

  /// Whether buffer argument `arg` is only ever read by the coroutine.
  bool isReadOnlyArgument(Value arg) const {
    return readOnlyArguments.contains(arg);
  }

private:
  struct Decision {
    bool recompute = false;
    unsigned ops = 0;
    SmallVector<Value> inputs;
  };

  const Decision &getDecision(Value value, unsigned depth = 0);
  bool isFree(Value value);
  Decision decide(Value value, unsigned depth);
  bool isDeferrableLoad(Operation *op) const;

  FunctionOpInterface coroutine;
  Options options;
  llvm::SmallPtrSet<Value, 8> readOnlyArguments;
  llvm::DenseMap<Value, Decision> decisions;
};

} // namespace coro
} // namespace mlir

#endif // COROGPU_ANALYSIS_RECOMPUTATION_H

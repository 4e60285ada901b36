//===- LiveState.h - what crosses each suspension point ---------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to coro-split (like LLVM's SuspendCrossingInfo): the values live
// across each suspension point, kept as the live operands of its
// checkpoint.
//
// This is not in lib/Analysis: the live set of a suspension point is what
// its continuation uses and does not define, so the fixed point is reached
// by building continuations (ContinuationBuilder) and updating the
// checkpoints they re-save, which is transformation machinery.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TRANSFORMS_SPLIT_LIVESTATE_H
#define COROGPU_TRANSFORMS_SPLIT_LIVESTATE_H

#include "CoroGPU/Analysis/MustSuspend.h"
#include "CoroGPU/Analysis/Recomputation.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir {
namespace coro {
namespace split {

/// Sets the live operands of each of `checkpoints` (in the prepared copy of
/// a coroutine) to what its continuation needs from the frame: the values
/// it uses but does not define, less what `recomputation` recomputes from
/// other values (which join instead). Since a continuation re-saves the
/// state of the suspension points it reaches, this is repeated until no set
/// grows. `createScratch` makes an empty function to build a continuation
/// in, with the coroutine's arguments mapped in the mapping it is given.
/// Adds to `naiveValues` every value live across some suspension point,
/// recomputable ones included (the frame report's baseline). Fails with a
/// located error on a value that cannot be kept in a frame (`names`: the
/// suspension points' names by token).
LogicalResult
computeLiveSets(FuncOp coroutine, ArrayRef<CheckpointOp> checkpoints,
                ArrayRef<std::string> names,
                const MustSuspendAnalysis &analysis,
                RecomputeAnalysis &recomputation,
                function_ref<func::FuncOp(IRMapping &)> createScratch,
                llvm::SetVector<Value> &naiveValues, RewriterBase &rewriter);

/// Shrinks each live set with the values that are in it anyway: a value
/// whose recomputation needs only those (and at most a few more bits than
/// it has itself) leaves the frame; what its recomputation needs from
/// outside the set joins it. Widest values first.
void reduceLiveSets(ArrayRef<CheckpointOp> checkpoints,
                    RecomputeAnalysis &recomputation, RewriterBase &rewriter);

} // namespace split
} // namespace coro
} // namespace mlir

#endif // COROGPU_TRANSFORMS_SPLIT_LIVESTATE_H

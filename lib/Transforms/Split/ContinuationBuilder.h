//===- ContinuationBuilder.h - subroutine bodies for coro-split -*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to coro-split (like LLVM's CoroCloner): builds the body of a
// subroutine by cloning parts of the prepared coroutine. See
// SplitCoroutine.cpp for what a continuation is.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TRANSFORMS_SPLIT_CONTINUATIONBUILDER_H
#define COROGPU_TRANSFORMS_SPLIT_CONTINUATIONBUILDER_H

#include "CoroGPU/Analysis/MustSuspend.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace mlir {
namespace coro {
namespace split {

/// Builds subroutine bodies at the insertion point of `builder` by cloning
/// parts of the prepared coroutine (its loops with suspension points are
/// scf.while, its suspension points checkpoints), mapping its values with
/// `mapping`.
class ContinuationBuilder {
public:
  ContinuationBuilder(OpBuilder &builder, IRMapping &mapping,
                      const MustSuspendAnalysis &analysis)
      : builder(builder), mapping(mapping), analysis(analysis) {}

  /// Clones the whole body (the entry subroutine).
  void buildEntry(FuncOp coroutine);

  /// Clones what runs after `point` up to the end of the coroutine, or up to
  /// the first suspension point that must be reached.
  void buildContinuation(Operation *point);

private:
  /// Clones the ops of `block` after `from` (all when null), excluding the
  /// terminator, and returns the terminator's operands as mapped; or nothing
  /// when a cloned op must suspend, so the rest is unreachable.
  std::optional<SmallVector<Value>> cloneTail(Block *block, Operation *from);

  /// The values `parent` produces once its region `region` has ended by
  /// yielding `yielded`; nothing if finishing it must suspend.
  std::optional<SmallVector<Value>>
  finishParent(Operation *parent, Region *region, ArrayRef<Value> yielded);

  /// The results of `loop` once its before region has yielded `yielded` (the
  /// condition, then the after region's arguments): the after region and
  /// the rest of the loop if the condition holds.
  SmallVector<Value> replayCondition(scf::WhileOp loop,
                                     ArrayRef<Value> yielded);

  /// `loop` run from `inits`. When every iteration suspends in the after
  /// region, no iteration ends in this subroutine: the copy is the before
  /// region and, if the condition holds, the after region up to its
  /// suspension (no loop, no exit flag to stop it).
  SmallVector<Value> cloneLoopFrom(scf::WhileOp loop, ArrayRef<Value> inits);

  /// Values for results that are never used: control has suspended.
  SmallVector<Value> createPlaceholders(Location loc, TypeRange types);

  /// Clones `op` with fresh block arguments. Region cloning omits the block
  /// arguments the mapping already has an entry for, and an op may be cloned
  /// after its nested block arguments were mapped (a loop copied after the
  /// partial iteration that resumed it).
  Operation *cloneFresh(Operation *op);

  OpBuilder &builder;
  IRMapping &mapping;
  const MustSuspendAnalysis &analysis;
};

} // namespace split
} // namespace coro
} // namespace mlir

#endif // COROGPU_TRANSFORMS_SPLIT_CONTINUATIONBUILDER_H

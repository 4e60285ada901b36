//===- MustSuspend.h - where control must suspend ---------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Which ops, once started, always reach a suspension point before they
// finish (coro-split's continuation builder stops copying there).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_ANALYSIS_MUSTSUSPEND_H
#define COROGPU_ANALYSIS_MUSTSUSPEND_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace coro {

/// The ops that, once started, always reach a suspension point (a
/// `coro.checkpoint`) before they finish. Code after such an op never runs in
/// the same subroutine, so it is not copied there: a continuation stops at
/// the next suspension point that must be reached, and its size does not
/// depend on what follows.
///
/// An scf.if or scf.index_switch must suspend when each of its regions does
/// (an scf.if without else never must), an scf.while when its before region
/// does, or when its after region does and it is known to run at least once
/// (`nonEmptyLoops`).
class MustSuspendAnalysis {
public:
  MustSuspendAnalysis(Operation *root,
                      const llvm::SmallPtrSetImpl<Operation *> &nonEmptyLoops);

  /// Whether running `op` always reaches a suspension point.
  bool mustSuspendIn(Operation *op) const { return mustSuspend.contains(op); }

  /// Whether every iteration of `loop` that starts its after region suspends
  /// before it ends, whatever the loop started from.
  bool mustSuspendInBody(scf::WhileOp loop) const {
    return regionMustSuspend(loop.getAfter());
  }

private:
  bool blockMustSuspend(Block &block) const;
  bool regionMustSuspend(Region &region) const;
  bool computeMustSuspend(
      Operation *op,
      const llvm::SmallPtrSetImpl<Operation *> &nonEmptyLoops) const;

  llvm::DenseSet<Operation *> mustSuspend;
};

} // namespace coro
} // namespace mlir

#endif // COROGPU_ANALYSIS_MUSTSUSPEND_H

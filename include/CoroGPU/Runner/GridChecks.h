//===- GridChecks.h - a grid against the buffers it indexes -----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Before a run: whether a grid of instances fits the buffers a coroutine
// indexes by its instance id. An access past a buffer's end is undefined
// on every target (lavapipe drops it, a GPU may write another buffer), so a
// grid larger than such a buffer gives results nobody can trust; this is
// the cheap static half of what coro-check-bounds checks at run time.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_GRIDCHECKS_H
#define COROGPU_RUNNER_GRIDCHECKS_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace coro {
namespace runner {

/// A copy of `coroutine`'s module in which every coroutine's control flow is
/// structured (coro-normalize-control-flow), for the checks below: in a CFG
/// (as `cf` written by hand or by a front end) they see every block but the
/// entry as a branch. Null, with the pass's diagnostics, where it fails.
OwningOpRef<ModuleOp> getStructuredCopy(FuncOp coroutine);

/// An access of a coroutine's memref argument whose index is the instance
/// id (coro.id, or an integer cast of it): instance i touches elements
/// [i, i + width).
struct InstanceIndexedAccess {
  unsigned argument = 0;
  Operation *access = nullptr;
  /// Elements one access touches (a vector load or store: its length).
  int64_t width = 1;
};

/// The first access of each memref argument of `coroutine` (its body, as
/// written: see getStructuredCopy) that its instance id indexes directly and
/// that every instance runs (not under a guard or a branch: `if (id < n)
/// out[id] = ...` is correct with a buffer of n); the rest is left to
/// coro-check-bounds.
SmallVector<InstanceIndexedAccess>
findInstanceIndexedAccesses(FuncOp coroutine);

/// The memref arguments of `coroutine` that every instance writes at an
/// index computed from its instance id other than the id itself
/// (`out[3 * id + c]`): a buffer smaller than the grid is suspect there, but
/// only a run with coro-check-bounds can tell.
SmallVector<unsigned> findInstanceDerivedWrites(FuncOp coroutine);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_GRIDCHECKS_H

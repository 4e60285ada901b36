//===- FrameSpill.h - frame stores and loads of coro-split ------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to coro-split (like LLVM's SpillUtils): how a value that crosses
// a suspension point is saved to frame fields and restored from them.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TRANSFORMS_SPLIT_FRAMESPILL_H
#define COROGPU_TRANSFORMS_SPLIT_FRAMESPILL_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace coro {
namespace split {

/// Saves `value` into the frame fields from `field` on (a vector lane by
/// lane, a local array element by element) and returns the next field.
int64_t storeToFrame(OpBuilder &builder, Location loc, Value value, Value frame,
                     int64_t field);

/// Restores a value of `type` saved by storeToFrame from `field` on, and
/// advances `field` past it; a local array is re-created.
Value loadFromFrame(OpBuilder &builder, Location loc, Type type, Value frame,
                    int64_t &field);

/// The values used in `function` but defined outside of it, in first-use
/// order: what a subroutine built from the coroutine still needs from it.
llvm::SetVector<Value> collectExternalValues(Operation *function);

} // namespace split
} // namespace coro
} // namespace mlir

#endif // COROGPU_TRANSFORMS_SPLIT_FRAMESPILL_H

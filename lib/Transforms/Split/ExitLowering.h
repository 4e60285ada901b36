//===- ExitLowering.h - leaving a subroutine of coro-split ------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to coro-split: lowers the checkpoints and the final return of one
// subroutine to frame stores, the target token and a structured exit.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TRANSFORMS_SPLIT_EXITLOWERING_H
#define COROGPU_TRANSFORMS_SPLIT_EXITLOWERING_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace coro {
namespace split {

/// Lowers the checkpoints of `subroutine`: each stores the live values
/// `liveSlots[token]` says (the first field of each) unless a promise field
/// holds it, sets the target token, and leaves the subroutine. Leaving is
/// structured: an "exited" flag guards the rest of every enclosing block,
/// and loops stop once it is set; the flag is dropped where nothing reads
/// it. The greedy rewrites it runs report to `rewriter`'s listener.
void lowerExits(func::FuncOp subroutine,
                ArrayRef<SmallVector<int64_t>> liveSlots,
                ArrayRef<FrameFieldAttr> fields, RewriterBase &rewriter);

} // namespace split
} // namespace coro
} // namespace mlir

#endif // COROGPU_TRANSFORMS_SPLIT_EXITLOWERING_H

//===- InlineRegion.h - inline a routine body at a call site ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TRANSFORMS_INLINEREGION_H
#define COROGPU_TRANSFORMS_INLINEREGION_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace coro {

/// Replaces `call` by a copy of `body`, the body of a routine whose entry
/// block arguments are bound to `operands` and whose return-like terminators
/// return the values that replace the call's results. A single-block body is
/// cloned in place; a multi-block body is cloned into an `scf.execute_region`
/// whose `scf.yield`s replace the returns, so the call may sit in any
/// structured region. Returns the ops created in place of the call.
SmallVector<Operation *> inlineBodyAtCall(RewriterBase &rewriter,
                                          Operation *call, Region &body,
                                          ValueRange operands);

} // namespace coro
} // namespace mlir

#endif // COROGPU_TRANSFORMS_INLINEREGION_H

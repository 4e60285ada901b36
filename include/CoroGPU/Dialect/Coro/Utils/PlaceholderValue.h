//===- PlaceholderValue.h - a value for a use never read --------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_UTILS_PLACEHOLDERVALUE_H
#define COROGPU_DIALECT_CORO_UTILS_PLACEHOLDERVALUE_H

#include "mlir/IR/Builders.h"

namespace mlir::coro {

/// A value of `type` for an operand whose value is never read (results of a
/// region that has suspended, loop-carried values before their first
/// definition): a zero constant where the type has one, `ub.poison`
/// otherwise. Zero rather than poison: LLVM 22's folders crash on some
/// poison operands (vector.insert of a poison scalar into a constant
/// vector), and a zero is as good a refinement of an unread value.
Value createPlaceholderValue(OpBuilder &builder, Location loc, Type type);

} // namespace mlir::coro

#endif // COROGPU_DIALECT_CORO_UTILS_PLACEHOLDERVALUE_H

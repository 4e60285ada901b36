//===- PlaceholderValue.cpp - a value for a use that is never read --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/PlaceholderValue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

Value mlir::coro::createPlaceholderValue(OpBuilder &builder, Location loc,
                                         Type type) {
  if (auto zero = dyn_cast_or_null<TypedAttr>(builder.getZeroAttr(type)))
    return arith::ConstantOp::create(builder, loc, zero);
  return ub::PoisonOp::create(builder, loc, type);
}

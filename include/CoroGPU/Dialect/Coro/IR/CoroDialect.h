//===- CoroDialect.h - The coro dialect -------------------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_IR_CORODIALECT_H
#define COROGPU_DIALECT_CORO_IR_CORODIALECT_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h.inc"

#endif // COROGPU_DIALECT_CORO_IR_CORODIALECT_H

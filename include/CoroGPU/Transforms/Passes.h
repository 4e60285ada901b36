//===- Passes.h - coroutine transformation passes ---------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TRANSFORMS_PASSES_H
#define COROGPU_TRANSFORMS_PASSES_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace coro {

/// What coro-frame-report writes (its `format` option).
enum class FrameReportFormat { Text, JSON };

#define GEN_PASS_DECL
#include "CoroGPU/Transforms/Passes.h.inc"

/// Adds the pattern that rewrites `coro.yield` into `coro.promise` of the
/// field "__yielded_value" followed by an anonymous `coro.suspend`.
void populateExpandYieldPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "CoroGPU/Transforms/Passes.h.inc"

} // namespace coro
} // namespace mlir

#endif // COROGPU_TRANSFORMS_PASSES_H

//===- PatternUtils.h - greedy rewrites without folding ---------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to CoroGPUTargetSPIRV.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_LIB_TARGET_SPIRV_PATTERNUTILS_H
#define COROGPU_LIB_TARGET_SPIRV_PATTERNUTILS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::coro {

/// Applies `patterns` greedily to the ops nested in `op`, and only them: no
/// folding and no region simplification. The fix-ups before the SPIR-V
/// conversion need that where folding would undo their rewrites or make new
/// instances of the ops they remove.
LogicalResult applyPatternsWithoutFolding(Operation *op,
                                          RewritePatternSet &&patterns);

} // namespace mlir::coro

#endif // COROGPU_LIB_TARGET_SPIRV_PATTERNUTILS_H

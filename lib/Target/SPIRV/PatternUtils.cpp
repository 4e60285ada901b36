//===- PatternUtils.cpp - greedy rewrites without folding -----------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PatternUtils.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

LogicalResult
mlir::coro::applyPatternsWithoutFolding(Operation *op,
                                        RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  config.enableFolding(false);
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return applyPatternsGreedily(op, std::move(patterns), config);
}

//===- PatternUtils.cpp - greedy rewrites without folding -----------------===//
//
// Part of the CoroGPU project.
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

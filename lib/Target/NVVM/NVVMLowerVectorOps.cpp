//===- NVVMLowerVectorOps.cpp - vector ops gpu-to-nvvm converts -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU to NVVM conversion converts vector ops with the vector-to-LLVM
// patterns alone; the ops that upstream's convert-vector-to-llvm first
// rewrites (strided slices, vector.step, bitcasts and broadcasts of several
// dimensions) would reach the LLVM translation unconverted. Upstream's
// rewrite patterns turn them into ops the conversion takes.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORONVVMLOWERVECTOROPS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-nvvm-lower-vector-ops"

using namespace mlir;

namespace {

struct CoroNVVMLowerVectorOpsPass
    : coro::impl::CoroNVVMLowerVectorOpsBase<CoroNVVMLowerVectorOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
    vector::populateVectorStepLoweringPatterns(patterns);
    vector::populateVectorBitCastLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    LDBG() << "vector ops rewritten in " << getOperation().getName();
  }
};

} // namespace

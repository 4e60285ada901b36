//===- ExpandYield.cpp - coro.yield -> promise + suspend ------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A yield is a promise of the yielded value followed by a suspension:
//
//   coro.yield %v : i32   ==>   coro.promise "__yielded_value", %v : i32
//                               coro.suspend
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROEXPANDYIELD
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-expand-yield"

using namespace mlir;
using namespace mlir::coro;

namespace {

/// Rewrites one `coro.yield`. When `tagPrefix` is set, the new suspension
/// point gets the next free tag `<prefix><n>`.
struct ExpandYieldPattern : OpRewritePattern<YieldOp> {
  ExpandYieldPattern(MLIRContext *context, StringRef tagPrefix = "",
                     llvm::StringSet<> *usedTags = nullptr)
      : OpRewritePattern(context), tagPrefix(tagPrefix.str()),
        usedTags(usedTags) {}

  LogicalResult matchAndRewrite(YieldOp yield,
                                PatternRewriter &rewriter) const override {
    Location loc = yield.getLoc();
    PromiseOp::create(rewriter, loc, kYieldedValueField, yield.getValue());
    rewriter.replaceOpWithNewOp<SuspendOp>(yield, nextTag(rewriter));
    return success();
  }

private:
  StringAttr nextTag(PatternRewriter &rewriter) const {
    if (tagPrefix.empty() || !usedTags)
      return {};
    std::string tag;
    do {
      tag = tagPrefix + std::to_string(counter++);
    } while (usedTags->contains(tag));
    usedTags->insert(tag);
    return rewriter.getStringAttr(tag);
  }

  std::string tagPrefix;
  llvm::StringSet<> *usedTags;
  mutable unsigned counter = 0;
};

struct CoroExpandYieldPass
    : coro::impl::CoroExpandYieldBase<CoroExpandYieldPass> {
  using Base::Base;

  void runOnOperation() override {
    FuncOp coroutine = getOperation();
    if (!tagPrefix.empty() && !isValidSuspensionTag(tagPrefix)) {
      coroutine.emitError("coro-expand-yield: tag-prefix \"")
          << tagPrefix
          << "\" does not start an identifier ([A-Za-z_][A-Za-z0-9_]*)";
      return signalPassFailure();
    }
    llvm::StringSet<> usedTags;
    coroutine.walk([&](SuspendOp suspend) {
      if (std::optional<StringRef> tag = suspend.getTag())
        usedTags.insert(*tag);
    });
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandYieldPattern>(&getContext(), tagPrefix, &usedTags);
    walkAndApplyPatterns(coroutine, std::move(patterns));
  }
};

} // namespace

void mlir::coro::populateExpandYieldPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandYieldPattern>(patterns.getContext());
}

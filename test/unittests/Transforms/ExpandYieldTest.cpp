//===- ExpandYieldTest.cpp - the expand-yield patterns --------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::coro;

namespace {

TEST(ExpandYieldTest, PatternsTurnEveryYieldIntoPromiseAndSuspend) {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect>();
  registerAllDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    coro.func @gen(%n: index) yields index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        coro.yield %i : index
      }
      coro.yield %n : index
      coro.return
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);

  RewritePatternSet patterns(&context);
  populateExpandYieldPatterns(patterns);
  ASSERT_TRUE(succeeded(applyPatternsGreedily(*module, std::move(patterns))));
  ASSERT_TRUE(succeeded(verify(*module)));

  // Each yield became a promise of its operand immediately followed by an
  // untagged suspension, in the same block.
  unsigned yields = 0, pairs = 0;
  module->walk([&](Operation *op) {
    if (isa<YieldOp>(op))
      ++yields;
    auto promise = dyn_cast<PromiseOp>(op);
    if (!promise)
      return;
    auto suspend = dyn_cast_or_null<SuspendOp>(op->getNextNode());
    if (promise.getName() == kYieldedValueField && suspend &&
        !suspend.getTag() && isa<IndexType>(promise.getValue().getType()))
      ++pairs;
  });
  EXPECT_EQ(yields, 0u);
  EXPECT_EQ(pairs, 2u);
}

} // namespace

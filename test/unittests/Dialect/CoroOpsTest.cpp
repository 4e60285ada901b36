//===- CoroOpsTest.cpp - coro ops built through the C++ API ---------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::coro;

namespace {

class CoroOpsTest : public ::testing::Test {
protected:
  CoroOpsTest() : builder(&context) {
    context.loadDialect<CoroDialect, arith::ArithDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// Creates `coro.func @name(types) [yields yieldType]` with an entry block
  /// and leaves the builder at its start.
  FuncOp createCoroutine(StringRef name, TypeRange arguments = {},
                         Type yieldType = {}) {
    builder.setInsertionPointToEnd(module->getBody());
    auto coroutine =
        FuncOp::create(builder, builder.getUnknownLoc(), name,
                       builder.getFunctionType(arguments, {}), yieldType);
    Block *entry = coroutine.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    return coroutine;
  }

  /// Verifies the module and returns the diagnostics it produced.
  std::string verifyAndCollect(LogicalResult &result) {
    std::string messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      messages += diag.str() + "\n";
      return success();
    });
    result = verify(*module);
    return messages;
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(CoroOpsTest, WellFormedCoroutineVerifies) {
  Location loc = builder.getUnknownLoc();
  FuncOp coroutine = createCoroutine(
      "render", {builder.getI32Type(), MemRefType::get({ShapedType::kDynamic},
                                                       builder.getF32Type())});
  Value id = IdOp::create(builder, loc, builder.getIndexType(), nullptr);
  auto suspend =
      SuspendOp::create(builder, loc, builder.getStringAttr("shade"));
  PromiseOp::create(builder, loc, "index", id);
  ReturnOp::create(builder, loc);

  LogicalResult result = failure();
  std::string messages = verifyAndCollect(result);
  EXPECT_TRUE(succeeded(result)) << messages;
  EXPECT_FALSE(coroutine.isGenerator());
  EXPECT_EQ(getEnclosingCoroutine(suspend), coroutine);
  EXPECT_TRUE(isSuspensionPoint(suspend));
  EXPECT_FALSE(isSuspensionPoint(id.getDefiningOp()));
  EXPECT_EQ(coroutine.getArgumentTypes().size(), 2u);
}

TEST_F(CoroOpsTest, DuplicateTagIsRejectedWithItsName) {
  Location loc = builder.getUnknownLoc();
  createCoroutine("twice");
  SuspendOp::create(builder, loc, builder.getStringAttr("trace"));
  SuspendOp::create(builder, loc, builder.getStringAttr("trace"));
  ReturnOp::create(builder, loc);

  LogicalResult result = success();
  std::string messages = verifyAndCollect(result);
  EXPECT_TRUE(failed(result));
  EXPECT_NE(messages.find("tag \"trace\" is already used"), std::string::npos)
      << messages;
}

TEST_F(CoroOpsTest, IndirectAwaitRecursionIsRejectedWithThePath) {
  Location loc = builder.getUnknownLoc();
  createCoroutine("a");
  AwaitOp::create(builder, loc, TypeRange{}, "b", ValueRange{});
  ReturnOp::create(builder, loc);
  createCoroutine("b");
  AwaitOp::create(builder, loc, TypeRange{}, "c", ValueRange{});
  ReturnOp::create(builder, loc);
  createCoroutine("c");
  AwaitOp::create(builder, loc, TypeRange{}, "a", ValueRange{});
  ReturnOp::create(builder, loc);

  LogicalResult result = success();
  std::string messages = verifyAndCollect(result);
  EXPECT_TRUE(failed(result));
  EXPECT_NE(messages.find("recursive await: @a -> @b -> @c -> @a"),
            std::string::npos)
      << messages;
}

TEST_F(CoroOpsTest, AwaitChainWithoutCycleVerifies) {
  Location loc = builder.getUnknownLoc();
  createCoroutine("leaf", {builder.getF32Type()});
  ReturnOp::create(builder, loc);
  FuncOp caller = createCoroutine("caller", {builder.getF32Type()});
  Value arg = caller.getArgument(0);
  AwaitOp::create(builder, loc, TypeRange{}, "leaf", ValueRange{arg});
  AwaitOp::create(builder, loc, TypeRange{}, "leaf", ValueRange{arg});
  ReturnOp::create(builder, loc);

  LogicalResult result = failure();
  std::string messages = verifyAndCollect(result);
  EXPECT_TRUE(succeeded(result)) << messages;
}

TEST_F(CoroOpsTest, YieldMustMatchTheGeneratorType) {
  Location loc = builder.getUnknownLoc();
  FuncOp generator = createCoroutine("gen", {}, builder.getI32Type());
  Value value = arith::ConstantFloatOp::create(
      builder, loc, builder.getF32Type(), llvm::APFloat(1.0f));
  YieldOp::create(builder, loc, value);
  ReturnOp::create(builder, loc);
  EXPECT_TRUE(generator.isGenerator());

  LogicalResult result = success();
  std::string messages = verifyAndCollect(result);
  EXPECT_TRUE(failed(result));
  EXPECT_NE(messages.find("yields 'f32', but @gen yields 'i32'"),
            std::string::npos)
      << messages;
}

TEST(CoroTagsTest, TagsAreIdentifiers) {
  EXPECT_TRUE(isValidSuspensionTag("shade"));
  EXPECT_TRUE(isValidSuspensionTag("_hit2"));
  EXPECT_FALSE(isValidSuspensionTag(""));
  EXPECT_FALSE(isValidSuspensionTag("2nd"));
  EXPECT_FALSE(isValidSuspensionTag("light sample"));
  EXPECT_FALSE(isValidSuspensionTag("a-b"));
}

} // namespace

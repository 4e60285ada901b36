//===- FrameStorageTest.cpp - where frame words live ----------------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::coro;

namespace {

/// Word `word` of instance `instance` among `count` frames of `words` words.
static std::optional<int64_t> wordIndex(FrameArrayLayout layout,
                                        int64_t instance, int64_t count,
                                        int64_t words, int64_t word) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect>();
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToStart(module->getBody());
  FrameStorage storage;
  storage.frameWords = words;
  storage.layout = layout;
  storage.instance = arith::ConstantIndexOp::create(builder, loc, instance);
  storage.numInstances = arith::ConstantIndexOp::create(builder, loc, count);
  return getConstantIntValue(storage.getWordIndex(builder, loc, word));
}

TEST(FrameStorageTest, ArrayOfStructuresKeepsFramesTogether) {
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoS, 5, 100, 7, 3), 5 * 7 + 3);
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoS, 0, 100, 7, 0), 0);
}

TEST(FrameStorageTest, StructureOfArraysKeepsWordsTogether) {
  EXPECT_EQ(wordIndex(FrameArrayLayout::SoA, 5, 100, 7, 3), 3 * 100 + 5);
  EXPECT_EQ(wordIndex(FrameArrayLayout::SoA, 99, 100, 7, 6), 6 * 100 + 99);
}

} // namespace

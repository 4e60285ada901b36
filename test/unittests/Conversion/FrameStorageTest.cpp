//===- FrameStorageTest.cpp - where frame words live ----------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/FrameStorage.h"
#include "../CoroIRTest.h"
#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <set>

using namespace mlir;
using namespace mlir::coro;

namespace {

/// Word `word` of instance `instance` among `count` frames of `words` words,
/// from word `base` on (-1: no base).
static std::optional<int64_t> wordIndex(FrameArrayLayout layout,
                                        int64_t instance, int64_t count,
                                        int64_t words, int64_t word,
                                        int64_t base = -1) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect>();
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToStart(module->getBody());
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  FrameArraySlot storage(/*words=*/Value(), words, index(instance),
                         index(count), layout,
                         base < 0 ? Value() : index(base));
  return getConstantIntValue(storage.getWordIndex(builder, loc, word));
}

TEST(FrameStorageTest, ArrayOfStructuresKeepsFramesTogether) {
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoS, 5, 100, 7, 3), 5 * 7 + 3);
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoS, 0, 100, 7, 0), 0);
}

TEST(FrameStorageTest, BaseOffsetsTheArray) {
  EXPECT_EQ(wordIndex(FrameArrayLayout::SoA, 5, 100, 7, 3, 1000),
            1000 + 3 * 100 + 5);
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoS, 5, 100, 7, 3, 1000),
            1000 + 5 * 7 + 3);
}

TEST(FrameStorageTest, StructureOfArraysKeepsWordsTogether) {
  EXPECT_EQ(wordIndex(FrameArrayLayout::SoA, 5, 100, 7, 3), 3 * 100 + 5);
  EXPECT_EQ(wordIndex(FrameArrayLayout::SoA, 99, 100, 7, 6), 6 * 100 + 99);
}

TEST(FrameStorageTest, TilesOfStructuresOfArraysKeepWordsTogetherPerTile) {
  // Tiles of 32 slots: word w of slot s at (s / 32) * 32 * 7 + w * 32 + s % 32.
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoSoA, 5, 100, 7, 3), 3 * 32 + 5);
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoSoA, 37, 100, 7, 6),
            32 * 7 + 6 * 32 + 5);
  EXPECT_EQ(wordIndex(FrameArrayLayout::AoSoA, 37, 100, 7, 6, 1000),
            1000 + 32 * 7 + 6 * 32 + 5);
}

/// Every word of every slot has a place of its own inside the array the
/// runtime allocates (getFrameArrayWords), whatever the slot count: the
/// last tile of an aosoa array is padded.
TEST(FrameStorageTest, EveryLayoutFitsItsArray) {
  for (FrameArrayLayout layout :
       {FrameArrayLayout::SoA, FrameArrayLayout::AoS, FrameArrayLayout::AoSoA})
    for (int64_t count : {1, 3, 32, 33, 100}) {
      const int64_t words = 5;
      uint64_t size =
          corogpu::runtime::getFrameArrayWords(layout, count, words);
      std::set<int64_t> seen;
      for (int64_t slot = 0; slot < count; ++slot)
        for (int64_t word = 0; word < words; ++word) {
          std::optional<int64_t> index =
              wordIndex(layout, slot, count, words, word);
          ASSERT_TRUE(index.has_value());
          EXPECT_GE(*index, 0);
          EXPECT_LT(static_cast<uint64_t>(*index), size)
              << getFrameArrayLayoutName(layout) << ", " << count
              << " slots: slot " << slot << ", word " << word;
          EXPECT_TRUE(seen.insert(*index).second);
        }
    }
}

/// getFrameArraySlots is the most slots whose array fits in a number of
/// words: the schedulers size workgroup memory and default capacities by it.
TEST(FrameStorageTest, FrameArraySlotsFitTheirWords) {
  using corogpu::runtime::getFrameArraySlots;
  using corogpu::runtime::getFrameArrayWords;
  for (FrameArrayLayout layout :
       {FrameArrayLayout::SoA, FrameArrayLayout::AoS, FrameArrayLayout::AoSoA})
    for (uint64_t words : {0, 4, 159, 160, 161, 1000, 4096}) {
      uint64_t slots = getFrameArraySlots(layout, words, 5);
      EXPECT_LE(getFrameArrayWords(layout, slots, 5), words);
      EXPECT_GT(getFrameArrayWords(layout, slots + 1, 5), words)
          << getFrameArrayLayoutName(layout) << ", " << words << " words";
    }
  EXPECT_EQ(getFrameArraySlots(FrameArrayLayout::AoSoA, 159, 5), 0u);
  EXPECT_EQ(getFrameArraySlots(FrameArrayLayout::AoSoA, 1000, 5), 192u);
  EXPECT_EQ(getFrameArraySlots(FrameArrayLayout::SoA, 1000, 5), 200u);
}

/// A storage that says where nothing is: it records the words accessed, in
/// (loads as +word, stores as -word), and loads zeros. What a custom
/// scheduler's storage would implement.
class RecordingFrame final : public FrameStorage {
public:
  explicit RecordingFrame(int64_t frameWords) : FrameStorage(frameWords) {}
  Value loadWord(OpBuilder &builder, Location loc,
                 int64_t word) const override {
    accesses.push_back(word);
    return arith::ConstantIntOp::create(builder, loc, 0, 32);
  }
  void storeWord(OpBuilder &builder, Location loc, int64_t word,
                 Value value) const override {
    assert(value.getType().isInteger(32) && "frame words are i32");
    accesses.push_back(-word);
  }
  mutable SmallVector<int64_t> accesses;
};

using FrameAccessLoweringTest = test::CoroIRTest;

// One subroutine that uses every kind of field: a word (f32), a narrow
// field packed in a word (i8 at bit 8 of word 3), two words (index).
constexpr StringLiteral kSubroutine = R"mlir(
  coro.func @w(%x: f32, %k: i8, %n: index) { coro.return }
  func.func @w__entry(%frame: !coro.frame, %x: f32, %k: i8, %n: index) {
    %v = coro.frame.load %frame[0] : f32
    coro.frame.store %k, %frame[1] : i8
    coro.frame.store %n, %frame[2] : index
    %id = coro.frame.id %frame : index
    coro.frame.set_target %frame, -1
    return
  }
  coro.split @w subroutines [@w__entry] names ["entry"]
    fields [#coro.field<"f" : f32 at 2>, #coro.field<"k" : i8 at 3:8>,
            #coro.field<"n" : index at 4>]
    transitions []
)mlir";

/// The position of instance 7 of a 10 x 1 grid.
static InstancePosition getPosition(OpBuilder &builder, Location loc) {
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  return {index(7), index(0), index(0), index(10), index(1)};
}

TEST_F(FrameAccessLoweringTest, LowersOntoAnyStorage) {
  OwningOpRef<ModuleOp> module = parse(kSubroutine);
  ASSERT_TRUE(module);
  SplitOp split = *module->getOps<SplitOp>().begin();
  auto subroutine = module->lookupSymbol<func::FuncOp>("w__entry");
  OpBuilder builder(&context);
  builder.setInsertionPointToStart(&subroutine.getBody().front());
  InstancePosition position = getPosition(builder, subroutine.getLoc());

  RecordingFrame frame(split.getFrameWords());
  ASSERT_TRUE(succeeded(
      lowerFrameAccesses(subroutine.getArgument(0), split, frame, position)));
  // f: word 2; k: read-modify-write of word 3; n: words 4 and 5; the token.
  // (The ops are lowered in no particular order.)
  llvm::sort(frame.accesses);
  EXPECT_EQ(frame.accesses, SmallVector<int64_t>({-5, -4, -3, 0, 2, 3}));
  // No frame op is left, `coro.frame.id` included.
  EXPECT_TRUE(subroutine.getArgument(0).use_empty());
}

TEST_F(FrameAccessLoweringTest, FrameArraySlotAddressesItsWords) {
  OwningOpRef<ModuleOp> module = parse(kSubroutine);
  ASSERT_TRUE(module);
  SplitOp split = *module->getOps<SplitOp>().begin();
  auto subroutine = module->lookupSymbol<func::FuncOp>("w__entry");
  Block &body = subroutine.getBody().front();
  Location loc = subroutine.getLoc();
  OpBuilder builder(&context);
  builder.setInsertionPointToStart(&body);
  InstancePosition position = getPosition(builder, loc);
  Value words = memref::AllocaOp::create(
      builder, loc, MemRefType::get({60}, builder.getI32Type()));
  // Instance 7 of 10, SoA: word w at w * 10 + 7.
  FrameArraySlot slot(words, split.getFrameWords(), position.x, position.nx,
                      FrameArrayLayout::SoA);
  ASSERT_TRUE(succeeded(
      lowerFrameAccesses(subroutine.getArgument(0), split, slot, position)));
  SmallVector<int64_t> loads, stores;
  auto indexOf = [](Value index) {
    return getConstantIntValue(index).value_or(-1);
  };
  subroutine.walk([&](Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      loads.push_back(indexOf(load.getIndices().front()));
    if (auto store = dyn_cast<memref::StoreOp>(op))
      stores.push_back(indexOf(store.getIndices().front()));
  });
  EXPECT_EQ(loads, SmallVector<int64_t>({27, 37}));
  EXPECT_EQ(stores, SmallVector<int64_t>({37, 47, 57, 7}));
}

TEST_F(FrameAccessLoweringTest, FailsOnAFieldTheSplitLacks) {
  OwningOpRef<ModuleOp> module = parse(kSubroutine);
  ASSERT_TRUE(module);
  SplitOp split = *module->getOps<SplitOp>().begin();
  auto subroutine = module->lookupSymbol<func::FuncOp>("w__entry");
  // Made by hand, past the verifier, which would reject it.
  subroutine.walk([&](FrameLoadOp load) { load.setSlot(9); });
  OpBuilder builder(&context);
  builder.setInsertionPointToStart(&subroutine.getBody().front());
  InstancePosition position = getPosition(builder, subroutine.getLoc());
  RecordingFrame frame(split.getFrameWords());
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message += diag.str();
    return success();
  });
  EXPECT_TRUE(failed(
      lowerFrameAccesses(subroutine.getArgument(0), split, frame, position)));
  EXPECT_NE(message.find("coro.frame.load"), std::string::npos) << message;
}

} // namespace

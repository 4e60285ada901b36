//===- FrameStorage.cpp - where a coroutine frame lives -------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/FrameStorage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coro;

FrameStorage::~FrameStorage() = default;

SmallVector<Value> FrameStorage::loadWords(OpBuilder &builder, Location loc,
                                           ArrayRef<int64_t> words) const {
  return llvm::map_to_vector(
      words, [&](int64_t word) { return loadWord(builder, loc, word); });
}

void FrameStorage::storeWords(OpBuilder &builder, Location loc,
                              ArrayRef<int64_t> words,
                              ValueRange values) const {
  assert(words.size() == values.size() && "one value per word");
  for (auto [word, value] : llvm::zip_equal(words, values))
    storeWord(builder, loc, word, value);
}

Value FrameStorage::loadToken(OpBuilder &builder, Location loc) const {
  return loadWord(builder, loc, kTargetTokenWord);
}

void FrameStorage::storeToken(OpBuilder &builder, Location loc,
                              Value token) const {
  storeWord(builder, loc, kTargetTokenWord, token);
}

/// The integer type with the bits of a field's value (i64 for index).
static IntegerType getBitsType(Type type) {
  MLIRContext *context = type.getContext();
  if (isa<IndexType>(type))
    return IntegerType::get(context, 64);
  return IntegerType::get(context, type.getIntOrFloatBitWidth());
}

Value FrameStorage::loadField(OpBuilder &builder, Location loc,
                              FrameFieldAttr field) const {
  Type type = field.getType();
  IntegerType bitsType = getBitsType(type);
  int64_t storageBits = field.getStorageBits();
  Value bits;
  if (storageBits < 32) {
    Value word = loadWord(builder, loc, field.getWord());
    if (field.getBit() != 0)
      word = arith::ShRUIOp::create(
          builder, loc, word,
          arith::ConstantIntOp::create(builder, loc, field.getBit(), 32));
    bits = arith::TruncIOp::create(builder, loc, bitsType, word);
  } else {
    IntegerType wide = builder.getIntegerType(storageBits);
    for (int64_t i = 0, e = field.getNumWords(); i < e; ++i) {
      Value word = loadWord(builder, loc, field.getWord() + i);
      if (e == 1) {
        bits = word;
        break;
      }
      Value part = arith::ExtUIOp::create(builder, loc, wide, word);
      if (i != 0) {
        part = arith::ShLIOp::create(
            builder, loc, part,
            arith::ConstantIntOp::create(builder, loc, wide, 32 * i));
        part = arith::OrIOp::create(builder, loc, bits, part);
      }
      bits = part;
    }
    if (bitsType.getWidth() < storageBits)
      bits = arith::TruncIOp::create(builder, loc, bitsType, bits);
  }
  if (isa<IndexType>(type))
    return arith::IndexCastOp::create(builder, loc, type, bits);
  if (isa<FloatType>(type))
    return arith::BitcastOp::create(builder, loc, type, bits);
  return bits;
}

void FrameStorage::storeField(OpBuilder &builder, Location loc,
                              FrameFieldAttr field, Value value) const {
  Type type = field.getType();
  IntegerType bitsType = getBitsType(type);
  Value bits = value;
  if (isa<IndexType>(type))
    bits = arith::IndexCastOp::create(builder, loc, bitsType, value);
  else if (isa<FloatType>(type))
    bits = arith::BitcastOp::create(builder, loc, bitsType, value);
  int64_t storageBits = field.getStorageBits();
  if (storageBits < 32) {
    // Read-modify-write: other fields may share the word.
    IntegerType i32 = builder.getI32Type();
    Value shifted = arith::ExtUIOp::create(builder, loc, i32, bits);
    if (field.getBit() != 0)
      shifted = arith::ShLIOp::create(
          builder, loc, shifted,
          arith::ConstantIntOp::create(builder, loc, field.getBit(), 32));
    uint32_t mask = ((uint64_t(1) << storageBits) - 1) << field.getBit();
    Value keep = arith::ConstantIntOp::create(builder, loc,
                                              static_cast<int32_t>(~mask), 32);
    Value word = loadWord(builder, loc, field.getWord());
    Value kept = arith::AndIOp::create(builder, loc, word, keep);
    Value merged = arith::OrIOp::create(builder, loc, kept, shifted);
    storeWord(builder, loc, field.getWord(), merged);
    return;
  }
  IntegerType wide = builder.getIntegerType(storageBits);
  if (bitsType.getWidth() < storageBits)
    bits = arith::ExtUIOp::create(builder, loc, wide, bits);
  for (int64_t i = 0, e = field.getNumWords(); i < e; ++i) {
    Value part = bits;
    if (i != 0)
      part = arith::ShRUIOp::create(
          builder, loc, part,
          arith::ConstantIntOp::create(builder, loc, wide, 32 * i));
    if (e != 1)
      part = arith::TruncIOp::create(builder, loc, builder.getI32Type(), part);
    storeWord(builder, loc, field.getWord() + i, part);
  }
}

//===----------------------------------------------------------------------===//
// PrivateFrame
//===----------------------------------------------------------------------===//

MemRefType PrivateFrame::getType(SplitOp split) {
  return MemRefType::get({split.getFrameWords()},
                         IntegerType::get(split.getContext(), 32));
}

PrivateFrame PrivateFrame::allocate(OpBuilder &builder, Location loc,
                                    SplitOp split, bool zeroed) {
  Value words = memref::AllocaOp::create(builder, loc, getType(split));
  PrivateFrame frame(words, split.getFrameWords());
  if (zeroed)
    frame.zero(builder, loc);
  return frame;
}

void PrivateFrame::zero(OpBuilder &builder, Location loc) const {
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
  Value begin = arith::ConstantIndexOp::create(builder, loc, 0);
  Value end = arith::ConstantIndexOp::create(builder, loc, getFrameWords());
  Value step = arith::ConstantIndexOp::create(builder, loc, 1);
  scf::ForOp::create(builder, loc, begin, end, step, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value word, ValueRange) {
                       memref::StoreOp::create(b, loc, zero, words, word);
                       scf::YieldOp::create(b, loc);
                     });
}

Value PrivateFrame::loadWord(OpBuilder &builder, Location loc,
                             int64_t word) const {
  Value index = arith::ConstantIndexOp::create(builder, loc, word);
  return memref::LoadOp::create(builder, loc, words, index);
}

void PrivateFrame::storeWord(OpBuilder &builder, Location loc, int64_t word,
                             Value value) const {
  Value index = arith::ConstantIndexOp::create(builder, loc, word);
  memref::StoreOp::create(builder, loc, value, words, index);
}

//===----------------------------------------------------------------------===//
// FrameArraySlot
//===----------------------------------------------------------------------===//

Value FrameArraySlot::getWordIndex(OpBuilder &builder, Location loc,
                                   int64_t word) const {
  return getWordIndex(builder, loc,
                      arith::ConstantIndexOp::create(builder, loc, word));
}

Value FrameArraySlot::getWordIndex(OpBuilder &builder, Location loc,
                                   Value word) const {
  auto constant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value index;
  switch (layout) {
  case FrameArrayLayout::AoS: {
    Value start = builder.createOrFold<arith::MulIOp>(
        loc, slot, constant(getFrameWords()));
    index = builder.createOrFold<arith::AddIOp>(loc, start, word);
    break;
  }
  case FrameArrayLayout::SoA: {
    Value start = builder.createOrFold<arith::MulIOp>(loc, word, numSlots);
    index = builder.createOrFold<arith::AddIOp>(loc, start, slot);
    break;
  }
  case FrameArrayLayout::AoSoA: {
    // The slot's part (its tile's start plus its lane) first, then the
    // word's constant offset, so that the targets add a constant to one
    // address per slot.
    auto tileSlots = static_cast<int64_t>(corogpu::runtime::kFrameTileSlots);
    Value tile =
        builder.createOrFold<arith::DivUIOp>(loc, slot, constant(tileSlots));
    Value lane =
        builder.createOrFold<arith::RemUIOp>(loc, slot, constant(tileSlots));
    Value tileStart = builder.createOrFold<arith::MulIOp>(
        loc, tile, constant(tileSlots * getFrameWords()));
    Value start = builder.createOrFold<arith::AddIOp>(loc, tileStart, lane);
    Value offset =
        builder.createOrFold<arith::MulIOp>(loc, word, constant(tileSlots));
    index = builder.createOrFold<arith::AddIOp>(loc, start, offset);
    break;
  }
  }
  if (!base)
    return index;
  return builder.createOrFold<arith::AddIOp>(loc, base, index);
}

Value FrameArraySlot::loadWord(OpBuilder &builder, Location loc,
                               int64_t word) const {
  return memref::LoadOp::create(builder, loc, words,
                                getWordIndex(builder, loc, word));
}

void FrameArraySlot::storeWord(OpBuilder &builder, Location loc, int64_t word,
                               Value value) const {
  memref::StoreOp::create(builder, loc, value, words,
                          getWordIndex(builder, loc, word));
}

void mlir::coro::copyFrameWords(OpBuilder &builder, Location loc,
                                const FrameStorage &from,
                                const FrameStorage &to,
                                ArrayRef<int64_t> words) {
  if (words.empty())
    return;
  to.storeWords(builder, loc, words, from.loadWords(builder, loc, words));
}

//===----------------------------------------------------------------------===//
// PersistentSlotFrame
//===----------------------------------------------------------------------===//

Value PersistentSlotFrame::loadWord(OpBuilder &builder, Location loc,
                                    int64_t word) const {
  if (word == kTargetTokenWord)
    return token.loadWord(builder, loc, word);
  return loadWords(builder, loc, word).front();
}

void PersistentSlotFrame::storeWord(OpBuilder &builder, Location loc,
                                    int64_t word, Value value) const {
  if (word == kTargetTokenWord)
    return token.storeWord(builder, loc, word, value);
  storeWords(builder, loc, word, value);
}

SmallVector<Value>
PersistentSlotFrame::loadWords(OpBuilder &builder, Location loc,
                               ArrayRef<int64_t> words) const {
  SmallVector<int64_t> fieldWords = getFieldWords(words);
  SmallVector<Type> types(words.size(), builder.getI32Type());
  return inPlace(builder, loc, types, [&](const FrameArraySlot &frame) {
    return frame.loadWords(builder, loc, fieldWords);
  });
}

void PersistentSlotFrame::storeWords(OpBuilder &builder, Location loc,
                                     ArrayRef<int64_t> words,
                                     ValueRange values) const {
  SmallVector<int64_t> fieldWords = getFieldWords(words);
  inPlace(builder, loc, TypeRange{}, [&](const FrameArraySlot &frame) {
    frame.storeWords(builder, loc, fieldWords, values);
    return SmallVector<Value>();
  });
}

SmallVector<int64_t>
PersistentSlotFrame::getFieldWords(ArrayRef<int64_t> words) {
  return llvm::map_to_vector(words, [](int64_t word) {
    assert(word >= kFirstFieldWord && "not a field word of the frame");
    return word - kFirstFieldWord;
  });
}

SmallVector<Value> PersistentSlotFrame::inPlace(
    OpBuilder &builder, Location loc, TypeRange types,
    function_ref<SmallVector<Value>(const FrameArraySlot &)> access) const {
  if (!isShared) {
    assert((inShared || inExtension) && "a frame with fields lives somewhere");
    return access(inShared ? *inShared : *inExtension);
  }
  auto ifOp = scf::IfOp::create(builder, loc, types, isShared,
                                /*addThenBlock=*/true,
                                /*addElseBlock=*/true);
  for (bool shared : {true, false}) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(shared ? ifOp.thenBlock()
                                            : ifOp.elseBlock());
    scf::YieldOp::create(builder, loc,
                         access(shared ? *inShared : *inExtension));
  }
  return SmallVector<Value>(ifOp.getResults());
}

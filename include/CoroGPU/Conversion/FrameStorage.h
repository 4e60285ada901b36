//===- FrameStorage.h - where a coroutine frame lives ----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A split coroutine's subroutines use their frame through four ops
// (`coro.frame.load`, `.store`, `.set_target`, `.id`). A scheduler decides
// where frames live: a frame of its own per instance (the state machine), a
// slot of an array of frames in global memory (the wavefront), workgroup
// memory or its global extension, chosen per slot at run time (persistent
// threads). `FrameStorage` is that decision; the frame-access lowering
// patterns rewrite the four ops straight onto any storage, so that a
// scheduler only says where its frames are.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_FRAMESTORAGE_H
#define COROGPU_CONVERSION_FRAMESTORAGE_H

#include "CoroGPU/Conversion/SchedulerOptions.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "corogpu/runtime/FrameArrayABI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace coro {

struct InstancePosition;

/// Where one instance's frame lives: the 32-bit words of the layout that
/// `coro.split` records (`#coro.field`). Subclasses say where a word is;
/// the encoding of fields in words (narrow fields packed, wide ones over
/// consecutive words) is the same for all and lives here.
class FrameStorage {
public:
  explicit FrameStorage(int64_t frameWords) : frameWords(frameWords) {}
  virtual ~FrameStorage();

  /// Words of one frame, the token and id words included.
  int64_t getFrameWords() const { return frameWords; }

  /// Reads / writes frame word `word` (an i32).
  virtual Value loadWord(OpBuilder &builder, Location loc,
                         int64_t word) const = 0;
  virtual void storeWord(OpBuilder &builder, Location loc, int64_t word,
                         Value value) const = 0;
  /// Several words at once, in the order of `words`. By default one access
  /// each; a storage whose place is chosen at run time decides once.
  virtual SmallVector<Value> loadWords(OpBuilder &builder, Location loc,
                                       ArrayRef<int64_t> words) const;
  virtual void storeWords(OpBuilder &builder, Location loc,
                          ArrayRef<int64_t> words, ValueRange values) const;

  /// Reads / writes the target token (word 0).
  Value loadToken(OpBuilder &builder, Location loc) const;
  void storeToken(OpBuilder &builder, Location loc, Value token) const;
  /// Reads / writes a field: shifts and masks for a narrow one, one word
  /// per 32 bits for a wide one.
  Value loadField(OpBuilder &builder, Location loc, FrameFieldAttr field) const;
  void storeField(OpBuilder &builder, Location loc, FrameFieldAttr field,
                  Value value) const;

private:
  int64_t frameWords;
};

/// A frame of its own: a `memref<N x i32>` that holds this frame alone (an
/// alloca, or an argument of a function that takes the frame).
class PrivateFrame final : public FrameStorage {
public:
  PrivateFrame(Value words, int64_t frameWords)
      : FrameStorage(frameWords), words(words) {}

  /// The type of a frame of its own for `split`.
  static MemRefType getType(SplitOp split);
  /// A frame of its own allocated with memref.alloca at the builder's
  /// position; `zeroed` stores 0 in every word (narrow fields are
  /// read-modify-written, so no word they share may be undefined).
  static PrivateFrame allocate(OpBuilder &builder, Location loc, SplitOp split,
                               bool zeroed = true);

  Value getWords() const { return words; }

  /// Stores 0 in every word, at the builder's position.
  void zero(OpBuilder &builder, Location loc) const;

  Value loadWord(OpBuilder &builder, Location loc, int64_t word) const override;
  void storeWord(OpBuilder &builder, Location loc, int64_t word,
                 Value value) const override;

private:
  Value words;
};

/// The frame in slot `slot` of an array of `numSlots` frames laid out as
/// `layout` says, from word `base` of `words` on (no base: word 0): word `w`
/// of the slot is at `base + slot * frameWords + w` (AoS), at
/// `base + w * numSlots + slot` (SoA, so that one subroutine run over
/// consecutive slots touches consecutive words), or in the slot's tile of
/// T = kFrameTileSlots slots at `base + (slot / T) * T * frameWords + w * T +
/// slot % T` (AoSoA: consecutive words for consecutive slots, and offsets
/// that are constants whatever numSlots is). An AoSoA array holds whole
/// tiles (getFrameArrayWords).
class FrameArraySlot final : public FrameStorage {
public:
  FrameArraySlot(Value words, int64_t frameWords, Value slot, Value numSlots,
                 FrameArrayLayout layout, Value base = {})
      : FrameStorage(frameWords), words(words), slot(slot), numSlots(numSlots),
        base(base), layout(layout) {}

  Value getWords() const { return words; }
  /// The index of frame word `word` in `words`; folded where the slot and
  /// the number of slots are constants.
  Value getWordIndex(OpBuilder &builder, Location loc, int64_t word) const;
  /// The same for a word known at run time (an index value).
  Value getWordIndex(OpBuilder &builder, Location loc, Value word) const;

  Value loadWord(OpBuilder &builder, Location loc, int64_t word) const override;
  void storeWord(OpBuilder &builder, Location loc, int64_t word,
                 Value value) const override;

private:
  Value words, slot, numSlots, base;
  FrameArrayLayout layout;
};

/// The frame of a persistent-threads slot. Its token is a private word
/// (the scheduler keeps each slot's token in workgroup memory and copies
/// it); its fields are in workgroup memory for the first slots and in the
/// workgroup's part of the global extension for the others, each a
/// FrameArraySlot of the fields' words (frame word w is word
/// w - kFirstFieldWord there). When both hold frames, where a slot's frame
/// lives is known only at run time, and SPIR-V's logical addressing has no
/// pointer that may point into either: each access, or each group of words
/// accessed together, is a branch between the two.
///
/// A subroutine accesses the slot's frame in place, or, when it accesses the
/// frame at least twice as often as it would copy words, it runs on the
/// private frame: one copy step brings in the words it may read before it
/// writes them and those it writes on some paths only (FrameWordAccesses),
/// one sends back the words it may write. The subroutines of a large
/// program may access the frame thousands of times: accessed in place,
/// such a kernel grows far beyond the state machine's with split frames.
/// The other subroutines access the frame in place, which takes fewer
/// registers (benchmarks/RESULTS.md, "Design measurements", has both).
class PersistentSlotFrame final : public FrameStorage {
public:
  /// `token` holds the token word and must outlive this frame; `isShared`
  /// (an i1) says where the frame is when both places are given.
  PersistentSlotFrame(const PrivateFrame &token,
                      std::optional<FrameArraySlot> inShared,
                      std::optional<FrameArraySlot> inExtension, Value isShared)
      : FrameStorage(token.getFrameWords()), token(token),
        inShared(std::move(inShared)), inExtension(std::move(inExtension)),
        isShared(isShared) {}

  Value loadWord(OpBuilder &builder, Location loc, int64_t word) const override;
  void storeWord(OpBuilder &builder, Location loc, int64_t word,
                 Value value) const override;
  SmallVector<Value> loadWords(OpBuilder &builder, Location loc,
                               ArrayRef<int64_t> words) const override;
  void storeWords(OpBuilder &builder, Location loc, ArrayRef<int64_t> words,
                  ValueRange values) const override;

private:
  /// Frame words as words of the field arrays. The id word is never
  /// accessed (the scheduler keeps ids), nor the token with other words.
  static SmallVector<int64_t> getFieldWords(ArrayRef<int64_t> words);

  /// `access(frame)` on the one place frames are, or in a branch between
  /// the two; the values it returns are the results.
  SmallVector<Value> inPlace(
      OpBuilder &builder, Location loc, TypeRange types,
      function_ref<SmallVector<Value>(const FrameArraySlot &)> access) const;

  const PrivateFrame &token;
  std::optional<FrameArraySlot> inShared, inExtension;
  /// Whether the slot's frame is in workgroup memory (i1), where both
  /// places hold frames.
  Value isShared;
};

/// Copies frame words `words` from `from` to `to`.
void copyFrameWords(OpBuilder &builder, Location loc, const FrameStorage &from,
                    const FrameStorage &to, ArrayRef<int64_t> words);

/// Adds the patterns that lower the frame-access ops onto `storage`:
/// `coro.frame.load` / `.store` to `loadField` / `storeField` of the field
/// `fields` names, `.set_target` to `storeToken`, and `.id` to the id of
/// `position`. `storage` and `position` must outlive the patterns.
void populateFrameAccessLoweringPatterns(RewritePatternSet &patterns,
                                         ArrayRef<FrameFieldAttr> fields,
                                         const FrameStorage &storage,
                                         const InstancePosition &position);

/// Rewrites every `coro.frame.*` use of `frame` with those patterns (only
/// those inside `scope` when given: the copies a scheduler cloned into its
/// kernel, not the subroutine it erases next); fails with a located error on
/// one they cannot lower (a field `split` does not have).
LogicalResult lowerFrameAccesses(Value frame, SplitOp split,
                                 const FrameStorage &storage,
                                 const InstancePosition &position,
                                 Operation *scope = nullptr);

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_FRAMESTORAGE_H

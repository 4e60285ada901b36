//===- FrameWordAccesses.cpp - how a subroutine uses its frame ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/FrameWordAccesses.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-frame-word-accesses"

using namespace mlir;
using namespace mlir::coro;

std::set<int64_t> FrameWordAccesses::getCopyInWords() const {
  std::set<int64_t> words;
  for (const std::set<int64_t> *used : {&read, &written})
    for (int64_t word : *used)
      if (!writtenFirst.count(word))
        words.insert(word);
  return words;
}

FrameWordAccesses FrameWordAccesses::compute(func::FuncOp subroutine,
                                             ArrayRef<FrameFieldAttr> fields) {
  FrameWordAccesses result;
  auto wordsOf = [&](int64_t slot) {
    FrameFieldAttr field = fields[slot];
    return llvm::seq<int64_t>(field.getWord(),
                              field.getWord() + field.getNumWords());
  };
  auto isNarrow = [&](int64_t slot) {
    return fields[slot].getStorageBits() < 32;
  };
  // Reads of `op` and of the ops nested in it; a narrow store reads its
  // word first.
  auto addReads = [&](Operation *op) {
    op->walk([&](Operation *nested) {
      if (auto load = dyn_cast<FrameLoadOp>(nested)) {
        for (int64_t word : wordsOf(load.getSlot())) {
          result.read.insert(word);
          ++result.accesses;
        }
      } else if (auto store = dyn_cast<FrameStoreOp>(nested)) {
        for (int64_t word : wordsOf(store.getSlot())) {
          result.written.insert(word);
          ++result.accesses;
        }
        if (isNarrow(store.getSlot())) {
          result.read.insert(fields[store.getSlot()].getWord());
          ++result.accesses;
        }
      }
    });
  };

  Block &body = subroutine.getBody().front();
  for (Operation &op : body) {
    auto store = dyn_cast<FrameStoreOp>(op);
    if (!store || isNarrow(store.getSlot())) {
      addReads(&op);
      continue;
    }
    // A wide store at the top level: its words are written first unless
    // something read them before.
    for (int64_t word : wordsOf(store.getSlot()))
      if (!result.read.count(word))
        result.writtenFirst.insert(word);
    addReads(&op);
  }
  LDBG() << "@" << subroutine.getSymName() << ": " << result.accesses
         << " word accesses, " << result.read.size() << " words read, "
         << result.written.size() << " written, " << result.writtenFirst.size()
         << " written first";
  return result;
}

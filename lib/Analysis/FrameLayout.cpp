//===- FrameLayout.cpp - where frame fields are stored --------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/FrameLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-frame-layout"

using namespace mlir;
using namespace mlir::coro;

FrameInterference::FrameInterference(unsigned numFields)
    : edges(numFields, llvm::BitVector(numFields)) {}

/// Adds a clique on every pair of `a` x `b`.
static void addAll(FrameInterference &graph, const llvm::BitVector &a,
                   const llvm::BitVector &b) {
  for (unsigned x : a.set_bits())
    for (unsigned y : b.set_bits())
      if (x != y)
        graph.add(x, y);
}

FrameInterference
FrameInterference::fromLiveness(const FrameLiveness &liveness) {
  FrameInterference graph(liveness.getNumFields());
  addAll(graph, liveness.getLiveIn(kTerminatedToken),
         liveness.getLiveIn(kTerminatedToken));
  for (int32_t token = 0, e = liveness.getNumSubroutines(); token < e;
       ++token) {
    addAll(graph, liveness.getLiveIn(token), liveness.getLiveIn(token));
    // A field loaded on resumption and one stored where that load may still
    // follow cannot share storage.
    FrameLiveness::FieldSet loads = liveness.getLoadOnResume(token);
    for (unsigned loaded : loads.set_bits())
      for (int32_t successor : liveness.getSuccessors(token)) {
        FrameLiveness::FieldSet stored = liveness.getWritten(token, successor);
        stored &= liveness.getStoredBeforeLoad(token, loaded);
        for (unsigned field : stored.set_bits())
          if (field != loaded)
            graph.add(loaded, field);
      }
  }
  return graph;
}

int64_t mlir::coro::getFrameBytes(ArrayRef<FrameFieldAttr> fields) {
  return getFrameWords(fields) * 4;
}

static FrameFieldAttr placeAt(FrameFieldAttr field, int64_t firstBit) {
  return FrameFieldAttr::get(field.getContext(), field.getName(),
                             field.getType(), firstBit / 32, firstBit % 32,
                             field.getPromise(), field.getLocation());
}

SmallVector<FrameFieldAttr>
mlir::coro::layOutUnpacked(ArrayRef<FrameFieldAttr> fields) {
  SmallVector<FrameFieldAttr> placed;
  int64_t word = kFirstFieldWord;
  for (FrameFieldAttr field : fields) {
    placed.push_back(placeAt(field, word * 32));
    word += field.getNumWords();
  }
  return placed;
}

SmallVector<FrameFieldAttr>
mlir::coro::layOutFrame(ArrayRef<FrameFieldAttr> fields,
                        const FrameInterference &interference,
                        FrameLayoutOptions options) {
  // Bits a field keeps for itself.
  auto getOccupiedBits = [&](FrameFieldAttr field) -> int64_t {
    int64_t bits = field.getStorageBits();
    return bits == 1 && !options.packBits ? 8 : bits;
  };
  // Promises first, then the widest fields: first fit then leaves the
  // narrow ones to fill the holes.
  SmallVector<unsigned> order =
      llvm::to_vector(llvm::seq<unsigned>(0, fields.size()));
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    if (fields[a].getPromise() != fields[b].getPromise())
      return fields[a].getPromise();
    return getOccupiedBits(fields[a]) > getOccupiedBits(fields[b]);
  });

  SmallVector<FrameFieldAttr> placed(fields.begin(), fields.end());
  SmallVector<std::pair<int64_t, int64_t>> ranges(
      fields.size()); // [begin, end)
  SmallVector<unsigned> done;
  for (unsigned index : order) {
    FrameFieldAttr field = fields[index];
    int64_t width = getOccupiedBits(field);
    int64_t alignment = std::min<int64_t>(width, 32);
    auto conflicts = [&](int64_t begin) {
      return llvm::any_of(done, [&](unsigned other) {
        auto [otherBegin, otherEnd] = ranges[other];
        bool overlap = begin < otherEnd && otherBegin < begin + width;
        bool mayShare = options.shareStorage && !field.getPromise() &&
                        !fields[other].getPromise() &&
                        !interference.interfere(index, other);
        return overlap && !mayShare;
      });
    };
    int64_t begin = kFirstFieldWord * 32;
    while (conflicts(begin))
      begin += alignment;
    ranges[index] = {begin, begin + width};
    placed[index] = placeAt(field, begin);
    LDBG() << "field " << field.getName() << ": bits [" << begin << ", "
           << begin + width << ")";
    done.push_back(index);
  }
  return placed;
}

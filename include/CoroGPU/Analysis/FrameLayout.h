//===- FrameLayout.h - where frame fields are stored ------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Frame layout (paper App. C.3): fields that are never live at the same time
// share storage (interference graph + first-fit coloring in bits), `i1`
// fields are packed as single bits, and narrow fields share words. The
// layout is a list of 32-bit words, so it is the same for an array of
// frames (AoS, `frame_words` words per instance) and for one array per word
// (SoA); no padding is ever needed.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_ANALYSIS_FRAMELAYOUT_H
#define COROGPU_ANALYSIS_FRAMELAYOUT_H

#include "CoroGPU/Analysis/FrameLiveness.h"

namespace mlir {
namespace coro {

/// Which fields may not share storage.
class FrameInterference {
public:
  explicit FrameInterference(unsigned numFields);
  /// Two fields interfere when both are live when some subroutine starts
  /// (or after termination), or when a subroutine loads one on resumption
  /// and may store the other before that load (in program order, or in an
  /// earlier iteration of a loop around both; the two regions of an scf.if
  /// exclude each other).
  static FrameInterference fromLiveness(const FrameLiveness &liveness);

  void add(unsigned a, unsigned b) {
    edges[a].set(b);
    edges[b].set(a);
  }
  bool interfere(unsigned a, unsigned b) const { return edges[a].test(b); }
  unsigned getNumFields() const { return edges.size(); }

private:
  SmallVector<llvm::BitVector> edges;
};

struct FrameLayoutOptions {
  /// Let non-interfering fields share storage.
  bool shareStorage = true;
  /// Pack i1 fields as bits; otherwise each takes a byte of its own.
  bool packBits = true;
};

/// Places `fields` (their word/bit are ignored) in the frame and returns them
/// with their new position, in the same order. Promise fields come first
/// and never share storage.
SmallVector<FrameFieldAttr> layOutFrame(ArrayRef<FrameFieldAttr> fields,
                                        const FrameInterference &interference,
                                        FrameLayoutOptions options);

/// Each field in words of its own, in order: the layout before packing.
SmallVector<FrameFieldAttr> layOutUnpacked(ArrayRef<FrameFieldAttr> fields);

/// Bytes of one frame with these fields, the special fields included.
int64_t getFrameBytes(ArrayRef<FrameFieldAttr> fields);

} // namespace coro
} // namespace mlir

#endif // COROGPU_ANALYSIS_FRAMELAYOUT_H

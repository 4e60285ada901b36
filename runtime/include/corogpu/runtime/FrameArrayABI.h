//===- FrameArrayABI.h - how an array of frames is laid out ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The wavefront and persistent-threads schedulers keep the frames of their
// instance slots in arrays of 32-bit words, laid out one of three ways
// (`layout=` of their passes, `--layout` of coro-run). The kernels compute
// where a word is; the runtime allocates the arrays, and an AoSoA array
// holds whole tiles. Plain C++ with no dependencies, so that the compiler
// (MLIR) and the runtime (no MLIR) both include it.
//
//   soa    word w of slot s at w * slots + s: a word of consecutive slots is
//          in consecutive words (coalesced), but with a slot count known only
//          at run time each word's offset is one (wavefront frame buffer).
//   aos    word w of slot s at s * frameWords + w: one base per slot and
//          constant offsets, but the lanes of a subgroup touch words
//          frameWords apart.
//   aosoa  tiles of kFrameTileSlots slots, SoA within a tile: word w of
//          slot s at (s / T) * T * frameWords + w * T + s % T (T =
//          kFrameTileSlots). One base per slot and constant offsets, as
//          aos, and consecutive words for the consecutive slots of a warp,
//          as soa.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_FRAMEARRAYABI_H
#define COROGPU_RUNTIME_FRAMEARRAYABI_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace corogpu::runtime {

enum class FrameArrayLayout { SoA, AoS, AoSoA };

/// The layout's name in options and plans, and the layout of a name.
inline const char *getFrameArrayLayoutName(FrameArrayLayout layout) {
  switch (layout) {
  case FrameArrayLayout::SoA:
    return "soa";
  case FrameArrayLayout::AoS:
    return "aos";
  case FrameArrayLayout::AoSoA:
    return "aosoa";
  }
  return "";
}
inline std::optional<FrameArrayLayout>
parseFrameArrayLayout(std::string_view name) {
  for (FrameArrayLayout layout :
       {FrameArrayLayout::SoA, FrameArrayLayout::AoS, FrameArrayLayout::AoSoA})
    if (name == getFrameArrayLayoutName(layout))
      return layout;
  return std::nullopt;
}

/// Slots per tile of the aosoa layout: an NVIDIA warp, a multiple of the
/// subgroup size of the other devices (lavapipe: 8).
inline constexpr uint64_t kFrameTileSlots = 32;

/// Words of an array of `slots` frames of `frameWords` words each: aosoa
/// rounds the slots up to whole tiles.
inline uint64_t getFrameArrayWords(FrameArrayLayout layout, uint64_t slots,
                                   uint64_t frameWords) {
  if (layout == FrameArrayLayout::AoSoA)
    slots = (slots + kFrameTileSlots - 1) / kFrameTileSlots * kFrameTileSlots;
  return slots * frameWords;
}

/// The most slots whose array (getFrameArrayWords) fits in `words` words:
/// aosoa counts whole tiles only (0 when not even one fits).
inline uint64_t getFrameArraySlots(FrameArrayLayout layout, uint64_t words,
                                   uint64_t frameWords) {
  uint64_t slots = words / frameWords;
  if (layout == FrameArrayLayout::AoSoA)
    slots -= slots % kFrameTileSlots;
  return slots;
}

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_FRAMEARRAYABI_H

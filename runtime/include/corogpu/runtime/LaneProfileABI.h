//===- LaneProfileABI.h - the lane-utilization profile buffer ---*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract between `coro-profile-lanes`, which instruments the
// branches, loop headers and frame accesses of a coroutine's kernels, and
// the code that runs it and reads the counters back. Plain C++ with no
// dependencies, so that the compiler (MLIR) and the runtime (no MLIR) both
// include it.
//
// The pass appends one argument to the coroutine (and to its subroutines),
// `profile: memref<?xi32>`, of getProfileBufferWords(functions, sites)
// words, zeroed by the host: the header, then kFunctionWords per
// instrumented function (the mega-kernel's coroutine, or each subroutine in
// token order), then kSiteWords per site. Every counter is 64 bits wide, as two
// words (low, then high): the kernels add to the low word atomically and
// carry into the high one.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_LANEPROFILEABI_H
#define COROGPU_RUNTIME_LANEPROFILEABI_H

#include <cstdint>

namespace corogpu::runtime::lanes {

/// The header words.
enum HeaderWord : uint32_t {
  /// The subgroup size of the device, written by the kernels.
  kSubgroupSize = 0,
  kHeaderWords = 2,
};

/// The counters of one site (a function's entry, a branch or a loop
/// header), each counted once per subgroup that reaches the site.
enum SiteWord : uint32_t {
  /// Subgroups that reached the site.
  kVisits = 0,
  /// Of those, the ones whose lanes did not all go the same way (an
  /// `scf.if` or `scf.index_switch` whose lanes took different cases, a
  /// loop header where some lanes leave the loop).
  kDivergentVisits = 2,
  /// The lanes active at the site, summed over the visits.
  kActiveLanes = 4,
  kSiteWords = 6,
};

/// The counters of one instrumented function, summed over its lanes.
enum FunctionWord : uint32_t {
  /// Bytes of frame words read by coro.frame.load and written by
  /// coro.frame.store (4 per 32-bit word a field touches).
  kFrameBytesLoaded = 0,
  kFrameBytesStored = 2,
  kFunctionWords = 4,
};

/// The first word of the counters of function `function`.
inline uint64_t getFunctionWord(uint64_t function) {
  return kHeaderWords + function * kFunctionWords;
}

/// The first word of site `site` in a buffer with `functions` functions.
inline uint64_t getSiteWord(uint64_t functions, uint64_t site) {
  return getFunctionWord(functions) + site * kSiteWords;
}

/// Words of the profile buffer of `functions` functions and `sites` sites.
inline uint64_t getProfileBufferWords(uint64_t functions, uint64_t sites) {
  return getSiteWord(functions, sites);
}

} // namespace corogpu::runtime::lanes

#endif // COROGPU_RUNTIME_LANEPROFILEABI_H

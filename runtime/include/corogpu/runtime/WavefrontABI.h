//===- WavefrontABI.h - the wavefront kernels' contract ---------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract between the kernels `coro-wavefront-to-gpu` generates and the
// host loop that runs them (Wavefront.h): kernel names, the argument list
// every kernel takes, and the words of the scheduler-state buffer. Plain
// C++ with no dependencies, so that the compiler (MLIR) and the runtime (no
// MLIR) both include it.
//
// Every wavefront kernel of coroutine `f` takes the same arguments:
//
//   (nx, ny, nz: index, frames, queue, ranks, blocks, state, scratch:
//    memref<?xi32>, <the coroutine's arguments>)
//
//   frames   the frames of the instance slots: capacity x frameWords words,
//            laid out as the plan's layout says (FrameArrayABI.h; aosoa
//            rounds the capacity up to whole tiles)
//   queue    capacity slot indices, grouped by category (token, hint bucket)
//   ranks    capacity words: a slot's rank among the slots of its category
//            in its workgroup
//   blocks   categories x ceil(capacity / workgroupSize) words: per category
//            and workgroup, where the workgroup's slots of the category start
//            within the category's queue (reserved by classify with one
//            atomic on the category's counter)
//   state    the words below
//   scratch  capacity x frameWords words for compaction (4 bytes when off)
//
// That is the classify design. The queue design (kQueues in the plan) uses
// the same arguments: queue holds two halves of one region of capacity slot
// indices per token (the queues this round runs and the ones it fills),
// then a ring of 2 x capacity free slots; ranks, blocks and scratch are
// unused (one word each). Its rounds are kAdvanceKernel, then the
// subroutine kernels, each of which appends the slots it leaves to the next
// round's queue of their token, or to the free ring; with a tail kernel
// (plan tailBelow), then kTailKernel, which has work only in the rounds
// whose subroutine kernels advance gave none. With hint buckets (sort-by:
// categories > tokens), the queues are also sorted: each append numbers the
// slot in its category (a counter per category, the rank in `ranks`,
// capacity words), advance turns the counters into the categories' places
// in a third region of capacity words after the free ring, where the
// round's queues then are, and kScatterKernel (one thread per instance
// appended last round) moves each slot to its place there.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_WAVEFRONTABI_H
#define COROGPU_RUNTIME_WAVEFRONTABI_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace corogpu::runtime::wavefront {

/// How the rounds build the queues: each slot appended to its next queue as
/// it leaves a subroutine (queues), or a pass over every slot that
/// classifies, scans and scatters (classify). Auto is an option's, never a
/// plan's: classify where the options need it, else queues.
enum class Design { Auto, Queues, Classify };

/// The design's name in options and plans, and the design of a name.
inline const char *getDesignName(Design design) {
  switch (design) {
  case Design::Auto:
    return "auto";
  case Design::Queues:
    return "queues";
  case Design::Classify:
    return "classify";
  }
  return "";
}
inline std::optional<Design> parseDesign(std::string_view name) {
  for (Design design : {Design::Auto, Design::Queues, Design::Classify})
    if (name == getDesignName(design))
      return design;
  return std::nullopt;
}

/// Kernel names, suffixed to the coroutine's name.
inline constexpr const char *kInitKernel = "__wf_init";
inline constexpr const char *kClassifyKernel = "__wf_classify";
inline constexpr const char *kScanKernel = "__wf_scan";
inline constexpr const char *kScatterKernel = "__wf_scatter";
inline constexpr const char *kCompactGatherKernel = "__wf_compact_gather";
inline constexpr const char *kCompactScatterKernel = "__wf_compact_scatter";
/// The queue design's one scheduling kernel per round.
inline constexpr const char *kAdvanceKernel = "__wf_advance";
/// The queue design's tail kernel (coro-wavefront-to-gpu tail-below): in a
/// tail round it runs every queued instance through its subroutines, as the
/// state machine does, in place of the subroutine kernels.
inline constexpr const char *kTailKernel = "__wf_tail";
/// The kernel of subroutine `token`: `<coroutine>__wf_<token>`.
inline std::string getSubroutineKernelName(const std::string &coroutine,
                                           unsigned token) {
  return coroutine + "__wf_" + std::to_string(token);
}

/// Number of scheduler buffers after the three grid extents.
inline constexpr unsigned kNumSchedulerBuffers = 6;

/// Words of the state buffer (i32). The host writes the configuration
/// words before the first round; the kernels keep the rest.
enum StateWord : uint32_t {
  // Configuration, written by the host.
  kCapacity = 0,       ///< Instance slots.
  kTotalInstances = 1, ///< Instances of the grid.
  kRefillPolicy = 2,   ///< 0: refill free slots every round; 1: only when
                       ///< fewer than half of the slots are alive.
  kOrderPolicy = 3,    ///< 0: every non-empty queue each round, in token
                       ///< order; 1: only the queue with most instances.
  kCompactPercent = 4, ///< Compact when the grid is exhausted and fewer
                       ///< than this % of the active slots are alive; 0: off.
  // Kept by the kernels.
  kNextInstance = 5,        ///< The next unstarted instance of the grid.
  kActiveSlots = 6,         ///< Slots [0, active) are scanned next round.
  kRoundSlots = 7,          ///< Slots scanned this round (for the scatter).
  kAlive = 8,               ///< Instances queued this round.
  kRefill = 9,              ///< Whether the next classify starts instances.
  kDone = 10,               ///< 1 once every instance has returned.
  kRounds = 11,             ///< Rounds that ran a subroutine.
  kLaunches = 12,           ///< Subroutine kernels that had instances.
  kCompactions = 13,        ///< Compactions done.
  kMostLoopIterations = 14, ///< The most loop iterations of one subroutine
                            ///< run (atomic max, with count-loop-iterations):
                            ///< a driver's loop limit reached (lavapipe).
  kTailPercent = 15, ///< Queue design with a tail kernel (configuration):
                     ///< once the grid is exhausted and fewer than this %
                     ///< of the slots are alive, the round runs the tail
                     ///< kernel instead of the subroutine kernels.
  // The queue design's words.
  kQueueParity = 27,      ///< Which half of the token queues this round runs.
  kFreeHead = 28,         ///< The free ring's first entry (below 2 x capacity).
  kFreeTail = 29,         ///< Past its last entry: tail - head free slots.
  kFirstNewInstance = 30, ///< The instance the entry kernel's thread 0 starts.
  // Indirect dispatch arguments (x, y, z workgroups).
  kSlotGroups = 16,     ///< Classify of the next round: ceil(active / wg).
  kScatterGroups = 20,  ///< Scatter of this round.
  kCompactGroups = 24,  ///< Compaction of this round: ceil(alive / wg) or 0.
  kTailGroups = 32,     ///< The tail kernel of this round: ceil(alive / wg)
                        ///< in a tail round, else 0.
  kTailCount = 35,      ///< Instances the tail kernel runs this round.
  kFirstTokenWord = 40, ///< Then kWordsPerToken words per token.
};

/// Words of each token, from kFirstTokenWord + kWordsPerToken * token.
enum TokenWord : uint32_t {
  kTokenGroups = 0, ///< Indirect dispatch arguments (3 words).
  kTokenTail = 3,   ///< Queue design: instances of its queue that the tail
                    ///< kernel runs this round (its own count is then 0).
  kTokenStart = 4,  ///< Where its instances start in the queue.
  kTokenCount = 5,  ///< Instances its kernel runs this round.
  kTokenTotal = 6,  ///< Instances it ran over all rounds.
  kTokenNext = 7,   ///< Queue design: instances queued for the next round.
  kWordsPerToken = 8,
};

inline uint32_t getTokenWord(uint32_t token, TokenWord word) {
  return kFirstTokenWord + kWordsPerToken * token + word;
}
/// Queue design: the queue of `token` in `half` of the queue buffer starts at
/// (half x tokens + token) x capacity; the free ring (2 x capacity entries)
/// after both halves.
inline uint64_t getFreeRingStart(uint32_t tokens, uint64_t capacity) {
  return 2 * uint64_t(tokens) * capacity;
}
/// Queue design with hint buckets: the sorted queues (capacity entries, the
/// categories one after another) after the free ring.
inline uint64_t getSortedQueuesStart(uint32_t tokens, uint64_t capacity) {
  return getFreeRingStart(tokens, capacity) + 2 * capacity;
}
/// Queue design: words of the queue buffer.
inline uint64_t getQueueWords(uint32_t tokens, uint64_t capacity, bool sorted) {
  return getSortedQueuesStart(tokens, capacity) + (sorted ? capacity : 0);
}

/// Where the category offsets start (one word per category), after the
/// tokens.
inline uint32_t getCategoryOffsetsWord(uint32_t tokens) {
  return kFirstTokenWord + kWordsPerToken * tokens;
}
/// Where the category counters start (one word per category, after the
/// offsets): the slots numbered in each category this round, by classify
/// (the classify design; scan reads and clears them) or by the appends
/// (the queue design with hint buckets; advance reads and clears them).
inline uint32_t getCategoryCountersWord(uint32_t tokens, uint32_t categories) {
  return getCategoryOffsetsWord(tokens) + categories;
}
/// Words of the state buffer.
inline uint32_t getStateWords(uint32_t tokens, uint32_t categories) {
  return getCategoryCountersWord(tokens, categories) + categories;
}

} // namespace corogpu::runtime::wavefront

#endif // COROGPU_RUNTIME_WAVEFRONTABI_H

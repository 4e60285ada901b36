//===- PersistentABI.h - the persistent-threads kernel's contract -*- C++
//-*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract between the kernel `coro-persistent-to-gpu` generates and the
// host code that launches it (Persistent.h): the kernel's name, its
// arguments and the words of its state buffer. Plain C++ with no
// dependencies, so that the compiler (MLIR) and the runtime (no MLIR) both
// include it.
//
// The persistent kernel of coroutine `f` is `f__pt` and takes
//
//   (nx, ny, nz: index, state, extension: memref<?xi32>,
//    <the coroutine's arguments>)
//
//   state      the words below
//   extension  the global memory extension: per workgroup, the frames of
//              its slots that do not fit in workgroup memory, an array of
//              batch - shared_slots frames of frame_words words from
//              workgroup x its size (getFrameArrayWords in FrameArrayABI.h:
//              aosoa holds whole tiles), laid out as the plan says (4 bytes
//              when every slot fits)
//
// It runs on any number of workgroups; each takes batches of instances from
// kNextInstance until the grid is exhausted (or it took kBatchesPerLaunch
// batches) and its instances have returned. The host launches it again
// while instances are left.
//
// With bounded steps (the plan's stepsPerLaunch, N > 0), a workgroup also
// stops after N steps with instances still live: it parks its slots (their
// tokens, ids, frame table and the frames in workgroup memory) in its park
// area, getParkWords words per workgroup after every workgroup's frames in
// the extension, and takes them back in the next launch, which must have
// as many workgroups; the resume word says whether there is anything to
// take back.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_PERSISTENTABI_H
#define COROGPU_RUNTIME_PERSISTENTABI_H

#include <cstdint>
#include <string>

namespace corogpu::runtime::persistent {

/// The kernel's name, suffixed to the coroutine's name.
inline constexpr const char *kKernelSuffix = "__pt";
inline std::string getKernelName(const std::string &coroutine) {
  return coroutine + kKernelSuffix;
}

/// Number of scheduler buffers after the three grid extents.
inline constexpr unsigned kNumSchedulerBuffers = 2;

/// Words of the state buffer (i32), zero before the first launch except
/// the configuration, which the host writes; the counters add up over
/// launches.
enum StateWord : uint32_t {
  kNextInstance = 0,       ///< The next unstarted instance of the grid.
  kTotalInstances = 1,     ///< Instances of the grid (configuration).
  kBatchesPerLaunch = 2,   ///< Batches a workgroup takes in one launch; 0:
                           ///< no limit (configuration).
  kSteps = 3,              ///< Block-wise state-machine steps.
  kAcquisitions = 4,       ///< Batches taken from the grid.
  kReturned = 5,           ///< Instances that returned.
  kMostLoopIterations = 6, ///< The most loop iterations of one thread in a
                           ///< launch (atomic max, count-loop-iterations):
                           ///< a driver's loop limit reached (lavapipe).
  kSwappedFrames = 7,      ///< Frames swapped into workgroup memory
                           ///< (swap-frames).
  kFirstTokenWord = 8,     ///< Then, per token, the instances it ran;
                           ///< then the resume word (getResumeWord).
};

/// Words of one workgroup's park area (bounded steps): each slot's token, id
/// and frame-table entry, then the frames in workgroup memory
/// (`sharedFrameWords`: the array of the shared slots' frames).
inline uint64_t getParkWords(uint32_t batch, uint64_t sharedFrameWords) {
  return 3 * uint64_t(batch) + sharedFrameWords;
}
/// The words that follow the token of slot s, its id and its frame-table
/// entry in a park area.
enum ParkArray : uint32_t {
  kParkedTokens = 0,
  kParkedIds = 1,
  kParkedFrameOf = 2
};

/// The state word that is 1 after the first launch of bounded steps: the
/// workgroups take back their parked slots (configuration).
inline uint32_t getResumeWord(uint32_t tokens) {
  return kFirstTokenWord + tokens;
}

/// Words of the state buffer.
inline uint32_t getStateWords(uint32_t tokens) {
  return getResumeWord(tokens) + 1;
}

} // namespace corogpu::runtime::persistent

#endif // COROGPU_RUNTIME_PERSISTENTABI_H

//===- LoopLimitABI.h - loops a driver's loop limit ended -----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kernels compiled with `count-loop-iterations` (every scheduler's kernels
// in the SPIR-V pipeline) raise a status word of their scheduler's ABI
// (InstanceABI.h, WavefrontABI.h, PersistentABI.h: kMostLoopIterations) to
// the loop passes their busiest thread counted, or to kLoopEndedByLimit when
// a thread saw a loop end that its exit condition did not end: a driver's
// loop limit (lavapipe: 65535 passes per invocation in all) ended it, as if
// it had finished. The count is an estimate (lavapipe counts passes of
// loops its compiler adds, and counts the threads of a subgroup together);
// the cut loop is what tells (docs/schedulers.md, "Known compiler and
// driver problems"). Plain C++ with no dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_LOOPLIMITABI_H
#define COROGPU_RUNTIME_LOOPLIMITABI_H

#include <cstdint>

namespace corogpu::runtime {

/// The value of a kMostLoopIterations word after a thread saw a loop that
/// its exit condition did not end.
inline constexpr uint32_t kLoopEndedByLimit = 0xFFFFFFFFu;

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_LOOPLIMITABI_H

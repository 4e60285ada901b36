//===- InstanceABI.h - the instance kernels' buffers -----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract between the one-thread-per-instance kernels that
// `coro-megakernel-to-gpu` and `coro-state-machine-to-gpu` generate and the
// code that launches them: the status buffer through which the runtime
// knows whether every instance returned. Plain C++ with no dependencies, so
// that the compiler (MLIR) and the runtime (no MLIR) both include it.
//
// With `instance-status` (the default) the kernel of coroutine `f` is
//
//   f(nx, ny, nz: index, <the coroutine's arguments>, status: memref<2xi32>)
//
// and `status`, zeroed before the launch, holds the words below. The
// runtime compares kInstancesReturned with the grid's size: a shortfall is
// an instance that did not return (a state-machine loop that a driver's
// loop limit ended); and, on a device that limits the loop iterations of a
// thread (lavapipe: 65535 passes in all, after which every loop ends as if
// it had finished), kMostLoopIterations at that limit says that some
// instance's loops were cut short even though it returned (see
// docs/schedulers.md for what this count cannot see).
//
// With bounded steps (`coro-state-machine-to-gpu{steps-per-launch=N}`) the
// state-machine kernel takes, after `status`, the frame buffer
//
//   f(nx, ny, nz, <arguments>, status: memref<2xi32>, frames: memref<?xi32>)
//
// of kFrameWords words per instance in SoA order (word w of instance i at
// w * instances + i, i the linear instance id), zeroed before the first
// launch: word 0 is the target token, 0 the entry. Each launch runs at most
// N subroutines of every unfinished instance and leaves its frame there;
// the host relaunches, keeping `status`, until kInstancesReturned reaches
// the grid's size. The plan (module attribute `coro.state_machine`) names
// the values below.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_INSTANCEABI_H
#define COROGPU_RUNTIME_INSTANCEABI_H

#include <cstdint>

namespace corogpu::runtime::instance {

/// The words of the status buffer, each an i32.
enum StatusWord : uint32_t {
  /// Instances that reached the coroutine's return (atomic add).
  kInstancesReturned = 0,
  /// The most loop passes one thread made, all its loops together (one per
  /// loop entered and one per iteration, as lavapipe counts them; atomic
  /// max); 0 unless the kernel counts them (`count-loop-iterations`, on in
  /// the SPIR-V pipeline).
  kMostLoopIterations = 1,
  kNumStatusWords = 2,
};

} // namespace corogpu::runtime::instance

#endif // COROGPU_RUNTIME_INSTANCEABI_H

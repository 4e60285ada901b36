//===- BoundsCheckABI.h - the bounds-checking violation buffer --*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract between `coro-check-bounds`, which instruments the memory
// accesses of a coroutine, and the code that runs it: the buffer in which
// the instrumented kernels record the accesses they skipped. Plain C++ with
// no dependencies, so that the compiler (MLIR) and the runtime (no MLIR)
// both include it.
//
// The pass appends one argument to the coroutine, `violations:
// memref<?xi32>`, of kFirstArgumentSize + (arguments) + records x
// kRecordWords words: the header below, zeroed by the host, which also
// writes the element count of every memref argument of the coroutine (0
// for scalars) at kFirstArgumentSize + its position; then `records` records
// of kRecordWords words, filled in the order the instances reported them.
// A checked load out of bounds reads element 0 instead, so that it needs
// no branch: every buffer must have room for one element.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_BOUNDSCHECKABI_H
#define COROGPU_RUNTIME_BOUNDSCHECKABI_H

#include <cstdint>

namespace corogpu::runtime::bounds {

/// The header words.
enum HeaderWord : uint32_t {
  /// Out-of-bounds accesses so far, recorded or not (atomic add).
  kViolationCount = 0,
  /// Records claimed so far, written or not for want of room (atomic add:
  /// the old value is the claimed record's number). An instance records
  /// the first violation it met since it last suspended and counts all.
  kRecordCount = 1,
  /// Element count of argument 0 of the coroutine; argument i at
  /// kFirstArgumentSize + i.
  kFirstArgumentSize = 2,
};

/// The words of one record.
enum RecordWord : uint32_t {
  /// Index of the access in the pass's list of sites (#coro.bounds_site).
  kSite = 0,
  /// The dimension whose index was out of bounds (the first one).
  kDimension = 1,
  /// Where the instance last resumed: 0 its start, k the k-th suspension
  /// point of the coroutine in program order.
  kResumePoint = 2,
  /// The instance (coro.id), low and high 32 bits.
  kInstanceLow = 3,
  kInstanceHigh = 4,
  /// The index, as a signed 64-bit integer.
  kIndexLow = 5,
  kIndexHigh = 6,
  /// The size of that dimension, in elements.
  kSize = 7,
  kRecordWords = 8,
};

/// Words of the violation buffer of a coroutine with `arguments` arguments
/// and room for `records` records.
inline uint64_t getViolationBufferWords(uint64_t arguments, uint64_t records) {
  return kFirstArgumentSize + arguments + records * kRecordWords;
}

} // namespace corogpu::runtime::bounds

#endif // COROGPU_RUNTIME_BOUNDSCHECKABI_H

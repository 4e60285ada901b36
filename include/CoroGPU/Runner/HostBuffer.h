//===- HostBuffer.h - host copies of a coroutine's buffers ------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The host side of a memref argument of a coroutine run by the Runner
// library (CoroGPURunner): its elements as the kernels see them, element
// access, and the comparison of two runs' buffers that `coro-run --check`
// makes.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_HOSTBUFFER_H
#define COROGPU_RUNNER_HOSTBUFFER_H

#include "mlir/IR/Types.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace coro {
namespace runner {

/// Bytes of one element of `type` in a kernel's buffer (an i1 takes a
/// byte); an index is 32 bits, as in SPIR-V kernels (PTX kernels keep 64:
/// coro-run passes no index buffers).
size_t getElementSize(Type type);

/// The host copy of one memref argument: `count` little-endian elements of
/// `elementType` (those of checkBufferArgument; an i1 is a byte, 0 or 1),
/// as the kernels read them.
struct HostBuffer {
  Type elementType;
  size_t count = 0;
  size_t elementSize = 0;
  std::vector<uint8_t> bytes;

  /// `count` zeros of `elementType`.
  static HostBuffer getZeros(Type elementType, size_t count);

  /// Element `index` as a double (an i64 may round: use getInteger).
  double getElement(size_t index) const;
  /// Element `index` of an integer buffer, exactly.
  int64_t getInteger(size_t index) const;
  /// Sets element `index` to `value`, converted to the element type (f16
  /// rounded to nearest even, integers truncated toward zero).
  void setElement(size_t index, double value);

  /// Prints `buffer <index> (<type> x <count>): [e0, e1, ...]`, integers
  /// exactly and floats as %g.
  void print(unsigned index, llvm::raw_ostream &os) const;
};

/// One element that differs between two runs.
struct BufferMismatch {
  unsigned buffer = 0;
  size_t index = 0;
  double actual = 0, expected = 0;
};

/// Compares `actual` with `expected` element by element: integers exactly,
/// floats within `tolerance` relative to max(1, |expected|), an infinity
/// only with itself and a NaN with any NaN. Returns the
/// number of elements that differ and appends the first `maxReported` of
/// each buffer to `mismatches`. A buffer missing on one side, or of another
/// type or element count, counts as one difference at its element 0.
size_t compareBuffers(llvm::ArrayRef<HostBuffer> actual,
                      llvm::ArrayRef<HostBuffer> expected, double tolerance,
                      llvm::SmallVectorImpl<BufferMismatch> &mismatches,
                      unsigned maxReported = 8);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_HOSTBUFFER_H

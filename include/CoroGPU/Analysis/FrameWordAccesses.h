//===- FrameWordAccesses.h - how a subroutine uses its frame ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Which words of its frame a subroutine reads and writes, and how often its
// code touches the frame, in the words of the layout `coro.split` records.
// A scheduler that keeps frames far away (the persistent scheduler's
// workgroup memory or global extension) uses it to decide whether a
// subroutine accesses the slot's frame in place or runs on a private copy,
// and which words that copy needs.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_ANALYSIS_FRAMEWORDACCESSES_H
#define COROGPU_ANALYSIS_FRAMEWORDACCESSES_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <set>

namespace mlir {
namespace coro {

/// The frame-field words (from kFirstFieldWord on) a subroutine uses.
struct FrameWordAccesses {
  /// Word accesses in the code: one per word a field load reads or a field
  /// store writes; a narrow field's store counts twice (it reads, modifies
  /// and writes back the word it shares).
  int64_t accesses = 0;
  /// Words some path may read / may write.
  std::set<int64_t> read, written;
  /// Words the body writes at its top level (on every path) before any read
  /// of them: their old value is never needed.
  std::set<int64_t> writtenFirst;

  /// The words whose old value a private copy of the frame needs: those it
  /// may read before writing them, and those it may write on some paths
  /// only (copying every written word back then writes what was there).
  std::set<int64_t> getCopyInWords() const;

  /// The accesses of `subroutine` (its frame is its first argument) to
  /// frame fields `fields`.
  static FrameWordAccesses compute(func::FuncOp subroutine,
                                   ArrayRef<FrameFieldAttr> fields);
};

} // namespace coro
} // namespace mlir

#endif // COROGPU_ANALYSIS_FRAMEWORDACCESSES_H

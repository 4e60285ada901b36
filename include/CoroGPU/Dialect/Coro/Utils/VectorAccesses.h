//===- VectorAccesses.h - vector loads and stores by element ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_UTILS_VECTORACCESSES_H
#define COROGPU_DIALECT_CORO_UTILS_VECTORACCESSES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::coro {

/// Rewrites each `vector.load` and `vector.store` of fixed size under `root`
/// whose memref holds scalars, or holds that vector, into memref accesses,
/// and returns how many. On a memref of scalars, one `memref.load` or
/// `memref.store` per element, the vector's dimensions laid over the
/// memref's trailing ones as `vector.load` defines them: a load's elements
/// make the vector with `vector.from_elements`, a store's come from
/// `vector.extract`. On a memref of such vectors, one `memref.load` or
/// `memref.store` of the element. For targets that cannot access memrefs as
/// vectors (SPIR-V's logical addressing) and for checks that see memref
/// accesses (coro-check-bounds).
unsigned scalarizeVectorAccesses(Operation *root, RewriterBase &rewriter);

} // namespace mlir::coro

#endif // COROGPU_DIALECT_CORO_UTILS_VECTORACCESSES_H

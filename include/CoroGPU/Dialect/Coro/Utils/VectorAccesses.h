//===- VectorAccesses.h - vector loads and stores by element ----*- C++ -*-===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_UTILS_VECTORACCESSES_H
#define COROGPU_DIALECT_CORO_UTILS_VECTORACCESSES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::coro {

/// Whether `op` is a `vector.load` or `vector.store` of fixed size on a
/// memref of scalars, or on a memref whose elements are that vector: an
/// access `scalarizeVectorAccess` rewrites.
bool isScalarizableVectorAccess(Operation *op);

/// Rewrites `access` (isScalarizableVectorAccess) into memref accesses. On
/// a memref of scalars, one `memref.load` or `memref.store` per element, the
/// vector's dimensions laid over the memref's trailing ones as `vector.load`
/// defines them: a load's elements make the vector with
/// `vector.from_elements`, a store's come from `vector.extract`. On a memref
/// of such vectors, one `memref.load` or `memref.store` of the element. For
/// targets that cannot access memrefs as vectors (SPIR-V's logical
/// addressing) and for checks that see memref accesses (coro-check-bounds).
void scalarizeVectorAccess(Operation *access, RewriterBase &rewriter);

} // namespace mlir::coro

#endif // COROGPU_DIALECT_CORO_UTILS_VECTORACCESSES_H

//===- SPIRVScalarizeVectorMemory.cpp - vector accesses by element --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Vector to SPIR-V conversion bitcasts a pointer to a scalar into a
// pointer to a vector for `vector.load` / `vector.store` on a memref of
// scalars, which Vulkan's logical addressing forbids. Such accesses become
// one memref access per element here.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/VectorAccesses.h"
#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-scalarize-vector-memory"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVSCALARIZEVECTORMEMORY
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

namespace {

struct CoroSPIRVScalarizeVectorMemoryPass
    : coro::impl::CoroSPIRVScalarizeVectorMemoryBase<
          CoroSPIRVScalarizeVectorMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    unsigned scalarized =
        coro::scalarizeVectorAccesses(getOperation(), rewriter);
    LDBG() << scalarized << " vector accesses scalarized";
    numScalarized += scalarized;
  }
};

} // namespace

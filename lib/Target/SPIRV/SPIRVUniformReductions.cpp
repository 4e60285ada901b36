//===- SPIRVUniformReductions.cpp - uniform subgroup reductions -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MLIR 22's GPU to SPIR-V conversion lowers `gpu.subgroup_reduce` only
// without `uniform` (to OpGroupNonUniform* with the Reduce operation). In
// uniform control flow every lane is active, so the reduction over the
// active lanes is the same one.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-uniform-reductions"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVUNIFORMREDUCTIONS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

namespace {

struct CoroSPIRVUniformReductionsPass
    : coro::impl::CoroSPIRVUniformReductionsBase<
          CoroSPIRVUniformReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](gpu::SubgroupReduceOp reduction) {
      if (!reduction.getUniform())
        return;
      LDBG() << "over the active lanes: " << reduction;
      reduction.setUniform(false);
      ++numReductions;
    });
  }
};

} // namespace

//===- SPIRVBarrierSemantics.cpp - barriers that order buffers too --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"
#include "llvm/Support/DebugLog.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVBARRIERSEMANTICS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-barrier-semantics"

using namespace mlir;

namespace {

struct CoroSPIRVBarrierSemanticsPass
    : coro::impl::CoroSPIRVBarrierSemanticsBase<CoroSPIRVBarrierSemanticsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](spirv::ControlBarrierOp barrier) {
      spirv::MemorySemantics semantics = barrier.getMemorySemantics();
      if (!spirv::bitEnumContainsAny(semantics,
                                     spirv::MemorySemantics::WorkgroupMemory))
        return;
      LDBG() << "UniformMemory added to " << barrier;
      barrier.setMemorySemantics(semantics |
                                 spirv::MemorySemantics::UniformMemory);
    });
  }
};

} // namespace

//===- SPIRVBarrierSemantics.cpp - barriers that order buffers too --------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVBARRIERSEMANTICS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

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
      barrier.setMemorySemantics(semantics |
                                 spirv::MemorySemantics::UniformMemory);
    });
  }
};

} // namespace

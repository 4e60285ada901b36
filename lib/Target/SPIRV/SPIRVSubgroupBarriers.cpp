//===- SPIRVSubgroupBarriers.cpp - barriers of one-subgroup workgroups ----===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVSUBGROUPBARRIERS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-subgroup-barriers"

using namespace mlir;

namespace {

struct CoroSPIRVSubgroupBarriersPass
    : coro::impl::CoroSPIRVSubgroupBarriersBase<CoroSPIRVSubgroupBarriersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (subgroupSize == 0)
      return;
    spirv::ModuleOp module = getOperation();
    for (auto mode : module.getOps<spirv::ExecutionModeOp>()) {
      if (mode.getExecutionMode() != spirv::ExecutionMode::LocalSize)
        continue;
      int64_t invocations = 1;
      for (Attribute size : mode.getValues())
        invocations *= cast<IntegerAttr>(size).getInt();
      if (invocations > subgroupSize)
        continue;
      auto entry =
          module.lookupSymbol<spirv::FuncOp>(mode.getFnAttr().getValue());
      if (!entry)
        continue;
      entry.walk([&](spirv::ControlBarrierOp barrier) {
        if (barrier.getExecutionScope() != spirv::Scope::Workgroup)
          return;
        barrier.setExecutionScope(spirv::Scope::Subgroup);
        if (barrier.getMemoryScope() == spirv::Scope::Workgroup)
          barrier.setMemoryScope(spirv::Scope::Subgroup);
        ++numBarriers;
      });
      LDBG() << "@" << entry.getSymName() << ": " << invocations
             << " invocations, at most a subgroup of " << subgroupSize;
    }
  }
};

} // namespace

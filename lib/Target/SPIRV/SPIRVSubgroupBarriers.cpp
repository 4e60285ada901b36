//===- SPIRVSubgroupBarriers.cpp - barriers of one-subgroup workgroups ----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
    // A WorkgroupSize built-in would override every LocalSize.
    for (auto variable : module.getOps<spirv::GlobalVariableOp>())
      if (variable.getBuiltIn() == "WorkgroupSize")
        return;
    for (auto mode : module.getOps<spirv::ExecutionModeOp>()) {
      if (mode.getExecutionMode() != spirv::ExecutionMode::LocalSize)
        continue;
      // One row of at most a subgroup: lavapipe runs each row of a
      // workgroup (each y and z) on its own, so 4 x 2 invocations are two
      // subgroups to its barriers, though it reports one.
      SmallVector<int64_t, 3> sizes =
          llvm::map_to_vector(mode.getValues(), [](Attribute size) {
            return cast<IntegerAttr>(size).getInt();
          });
      if (sizes.size() != 3 || sizes[0] > subgroupSize || sizes[1] != 1 ||
          sizes[2] != 1)
        continue;
      int64_t invocations = sizes[0];
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

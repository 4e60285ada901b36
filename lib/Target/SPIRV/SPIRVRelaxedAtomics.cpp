//===- SPIRVRelaxedAtomics.cpp - atomics as GLSL compilers emit them ------===//
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
#define GEN_PASS_DEF_COROSPIRVRELAXEDATOMICS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-spirv-relaxed-atomics"

using namespace mlir;

namespace {

struct CoroSPIRVRelaxedAtomicsPass
    : coro::impl::CoroSPIRVRelaxedAtomicsBase<CoroSPIRVRelaxedAtomicsPass> {
  using Base::Base;

  void runOnOperation() override {
    auto relaxed = spirv::MemorySemanticsAttr::get(
        &getContext(), spirv::MemorySemantics::None);
    getOperation()->walk([&](Operation *op) {
      // Atomic ops carry their ordering in `semantics` (compare-exchange in
      // `equal_semantics` / `unequal_semantics`); barriers are left alone.
      if (!op->getName().getStringRef().starts_with("spirv.Atomic"))
        return;
      for (NamedAttribute attribute : op->getAttrs()) {
        auto semantics =
            dyn_cast<spirv::MemorySemanticsAttr>(attribute.getValue());
        if (semantics &&
            semantics.getValue() == spirv::MemorySemantics::AcquireRelease) {
          LDBG() << "relaxing " << attribute.getName() << " of " << *op;
          op->setAttr(attribute.getName(), relaxed);
        }
      }
    });
  }
};

} // namespace

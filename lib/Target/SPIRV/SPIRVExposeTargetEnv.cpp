//===- SPIRVExposeTargetEnv.cpp - a gpu.module's SPIR-V target attribute --===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-expose-target-env"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVEXPOSETARGETENV
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

namespace {

struct CoroSPIRVExposeTargetEnvPass
    : coro::impl::CoroSPIRVExposeTargetEnvBase<CoroSPIRVExposeTargetEnvPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp kernels = getOperation();
    StringRef name = spirv::getTargetEnvAttrName();
    ArrayAttr targets = kernels.getTargetsAttr();
    if (kernels->hasAttr(name) || !targets)
      return;
    for (Attribute target : targets) {
      if (auto environment = dyn_cast<spirv::TargetEnvAttr>(target)) {
        LDBG() << "exposing " << environment << " on " << kernels.getName();
        kernels->setAttr(name, environment);
        return;
      }
    }
  }
};

} // namespace

//===- InitAllCoroGPU.cpp - register every CoroGPU dialect/pass -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h"
#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "CoroGPU/HostPrograms/Passes.h"
#include "CoroGPU/Pipelines/Passes.h"
#include "CoroGPU/Pipelines/Pipelines.h"
#include "CoroGPU/Target/Passes.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::coro::registerAllDialects(DialectRegistry &registry) {
  registry.insert<CoroDialect, plan::CoroPlanDialect>();
}

void mlir::coro::registerAllPasses() {
  registerCoroTransformsPasses();
  registerCoroConversionPasses();
  registerCoroTargetPasses();
  registerCoroPipelinesPasses();
  registerCoroPipelines();
  registerHostProgramsPasses();
}

void mlir::coro::registerCoroGPU(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates the kernels to LLVM IR for PTX.
  mlir::registerAllToLLVMIRTranslations(registry);
  coro::registerAllDialects(registry);
  coro::registerAllPasses();
}

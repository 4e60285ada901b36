//===- InitAllCoroGPU.cpp - register every CoroGPU dialect/pass -----------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h"
#include "CoroGPU/Pipelines/Pipelines.h"
#include "CoroGPU/Target/Passes.h"
#include "CoroGPU/Transforms/Passes.h"

void mlir::coro::registerAllDialects(DialectRegistry &registry) {
  registry.insert<CoroDialect>();
}

void mlir::coro::registerAllPasses() {
  registerCoroTransformsPasses();
  registerCoroConversionPasses();
  registerCoroTargetPasses();
  registerCoroPipelines();
}

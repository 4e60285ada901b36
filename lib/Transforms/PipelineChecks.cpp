//===- PipelineChecks.cpp - what later stages expect of the IR ------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Transforms/PipelineChecks.h"

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

using namespace mlir;

LogicalResult mlir::coro::checkFrontHalfRan(Operation *op, StringRef stage) {
  if (isa<AwaitOp>(op))
    return op->emitOpError("must be inlined before ")
           << stage << "; run coro-inline-awaits first";
  if (isa<YieldOp>(op))
    return op->emitOpError("must be expanded before ")
           << stage << "; run coro-expand-yield first";
  return success();
}

//===- PipelineChecks.cpp - what later stages expect of the IR ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"

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

LogicalResult mlir::coro::checkFrontHalfRanOnAll(Operation *root,
                                                 StringRef stage) {
  WalkResult result = root->walk([&](Operation *op) {
    return failed(checkFrontHalfRan(op, stage)) ? WalkResult::interrupt()
                                                : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::coro::checkSplitRan(ModuleOp module, StringRef stage) {
  llvm::StringSet<> split = getSplitCoroutines(module);
  for (FuncOp coroutine : module.getOps<FuncOp>())
    if (!split.contains(coroutine.getSymName()))
      return coroutine.emitOpError("is not split; ")
             << stage << " works on split coroutines: run coro-split first";
  return success();
}

LogicalResult mlir::coro::checkHandlesLowered(ModuleOp module,
                                              StringRef stage) {
  WalkResult result = module.walk([&](Operation *op) {
    if (!getDrivenCoroutine(op))
      return WalkResult::advance();
    op->emitOpError("is left for ")
        << stage
        << ", which cannot run frames that code drives: run "
           "coro-split, coro-materialize-frame and coro-lower-handles first";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::coro::prepareOutputDirectory(Operation *op,
                                                 StringRef passName,
                                                 StringRef dir) {
  if (dir.empty())
    return op->emitError(passName) << ": set output-dir=<directory>";
  if (std::error_code error = llvm::sys::fs::create_directories(dir))
    return op->emitError(passName)
           << ": cannot create " << dir << ": " << error.message();
  return success();
}

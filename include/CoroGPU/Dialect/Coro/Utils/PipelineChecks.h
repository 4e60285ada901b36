//===- PipelineChecks.h - what later stages expect of the IR ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_UTILS_PIPELINECHECKS_H
#define COROGPU_DIALECT_CORO_UTILS_PIPELINECHECKS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"

namespace mlir {
namespace coro {

/// Stages after the front half expect awaits inlined and yields expanded.
/// For such an op, emits a located error naming `stage` and the pass to run
/// first, and fails; succeeds for any other op.
LogicalResult checkFrontHalfRan(Operation *op, StringRef stage);

/// The same for every op nested in `root` (stops at the first error).
LogicalResult checkFrontHalfRanOnAll(Operation *root, StringRef stage);

/// Stages that read `coro.split` expect every coroutine of `module` split.
/// For the first `coro.func` without a `coro.split`, emits a located error
/// naming `stage` and `coro-split`, and fails. A module without coroutines
/// passes.
LogicalResult checkSplitRan(ModuleOp module, StringRef stage);

/// Schedulers expect the `coro.handle.*` ops lowered. For the first one in
/// `module`, emits a located error naming `stage` and `coro-lower-handles`,
/// and fails.
LogicalResult checkHandlesLowered(ModuleOp module, StringRef stage);

/// For passes that write files: checks that `dir` is set and creates it,
/// reporting failures on `op` prefixed with `passName`.
LogicalResult prepareOutputDirectory(Operation *op, StringRef passName,
                                     StringRef dir);

} // namespace coro
} // namespace mlir

#endif // COROGPU_DIALECT_CORO_UTILS_PIPELINECHECKS_H

//===- Passes.h - passes that run pipelines of other passes -----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// coro-resolve-handles runs coro-split, coro-materialize-frame (Transforms)
// and coro-lower-handles (Conversion) in rounds, so it lives with the
// pipelines, the layer that sees both.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_PIPELINES_PASSES_H
#define COROGPU_PIPELINES_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace coro {

#define GEN_PASS_DECL
#include "CoroGPU/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "CoroGPU/Pipelines/Passes.h.inc"

} // namespace coro
} // namespace mlir

#endif // COROGPU_PIPELINES_PASSES_H

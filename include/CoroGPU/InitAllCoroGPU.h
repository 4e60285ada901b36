//===- InitAllCoroGPU.h - register every CoroGPU dialect/pass ---*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Registration for tools and embedders (library
// CoroGPU::CoroGPURegistration). Most need one call, registerCoroGPU(): a
// context built from its registry parses coroutines and runs every CoroGPU
// pass and pipeline (coro-to-spirv, coro-to-ptx) to the end. The two finer
// calls register only our own dialect or only our passes, for a compiler
// that registers the rest itself.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_INITALLCOROGPU_H
#define COROGPU_INITALLCOROGPU_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace coro {

/// Everything CoroGPU's passes and pipelines need, in `registry` and the
/// global pass registry: the coro dialect; the upstream dialects coroutine
/// bodies and our lowerings use (all of them, loaded on demand), with their
/// extensions and interfaces (convert-to-llvm, the NVVM target); the
/// translations to LLVM IR that gpu-module-to-binary runs to make PTX; and
/// every CoroGPU pass and pipeline. Upstream's own passes are not
/// registered (mlir::registerAllPasses does that).
void registerCoroGPU(DialectRegistry &registry);

/// The coro dialect alone.
void registerAllDialects(DialectRegistry &registry);
/// Every CoroGPU pass and pipeline, with the global pass registry.
void registerAllPasses();

} // namespace coro
} // namespace mlir

#endif // COROGPU_INITALLCOROGPU_H

//===- InitAllCoroGPU.h - register every CoroGPU dialect/pass ---*- C++ -*-===//
//
// Part of the CoroGPU project.
//
// One call for tools and embedders: registers the coro dialect with a
// DialectRegistry and every CoroGPU pass with the global pass registry.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_INITALLCOROGPU_H
#define COROGPU_INITALLCOROGPU_H

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace coro {

inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<CoroDialect>();
}

inline void registerAllPasses() { registerCoroTransformsPasses(); }

} // namespace coro
} // namespace mlir

#endif // COROGPU_INITALLCOROGPU_H

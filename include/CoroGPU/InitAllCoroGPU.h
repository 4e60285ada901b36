//===- InitAllCoroGPU.h - register every CoroGPU dialect/pass ---*- C++ -*-===//
//
// Part of the CoroGPU project.
//
// One call for tools and embedders (library CoroGPU::CoroGPURegistration):
// registers the coro dialect with a DialectRegistry and every CoroGPU pass
// with the global pass registry.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_INITALLCOROGPU_H
#define COROGPU_INITALLCOROGPU_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace coro {

void registerAllDialects(DialectRegistry &registry);
void registerAllPasses();

} // namespace coro
} // namespace mlir

#endif // COROGPU_INITALLCOROGPU_H

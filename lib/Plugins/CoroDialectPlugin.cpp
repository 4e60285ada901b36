//===- CoroDialectPlugin.cpp - coro dialect plugin for mlir-opt -----------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CoroGPUDialects", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::coro::registerAllDialects(*registry);
          }};
}

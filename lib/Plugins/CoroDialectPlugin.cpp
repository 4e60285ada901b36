//===- CoroDialectPlugin.cpp - coro dialect plugin for mlir-opt -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

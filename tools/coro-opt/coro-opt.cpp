//===- coro-opt.cpp - mlir-opt with the CoroGPU dialect and passes --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::coro::registerCoroGPU(registry);
  llvm::cl::SetVersionPrinter(mlir::coro::printCoroGPUVersion);

  // An error names its source line; the op's generic form after it (22
  // lines for one op of a coroutine) helps only someone debugging the
  // compiler, who gets it back with --mlir-print-op-on-diagnostic. The
  // default goes first, so that a later occurrence wins.
  llvm::SmallVector<char *> arguments(argv, argv + argc);
  static char quietOps[] = "--mlir-print-op-on-diagnostic=false";
  arguments.insert(arguments.begin() + 1, quietOps);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      arguments.size(), arguments.data(),
      "CoroGPU optimizer driver: every upstream MLIR dialect and "
      "pass plus the coro dialect and its passes\n",
      registry));
}

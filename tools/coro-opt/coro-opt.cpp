//===- coro-opt.cpp - mlir-opt with the CoroGPU dialect and passes --------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::coro::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR (PTX pipeline).
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::coro::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "CoroGPU optimizer driver: every upstream MLIR dialect and "
      "pass plus the coro dialect and its passes\n",
      registry));
}

//===- coro-opt.cpp - mlir-opt with the CoroGPU dialect and passes --------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/InitAllCoroGPU.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::coro::registerCoroGPU(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "CoroGPU optimizer driver: every upstream MLIR dialect and "
      "pass plus the coro dialect and its passes\n",
      registry));
}

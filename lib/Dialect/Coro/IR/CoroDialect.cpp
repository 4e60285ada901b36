//===- CoroDialect.cpp - The coro dialect ---------------------------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

using namespace mlir;
using namespace mlir::coro;

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "CoroGPU/Dialect/Coro/IR/CoroTypes.cpp.inc"

void CoroDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "CoroGPU/Dialect/Coro/IR/CoroTypes.cpp.inc"
      >();
}

void CoroDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "CoroGPU/Dialect/Coro/IR/CoroOps.cpp.inc"
      >();
}

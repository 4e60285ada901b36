//===- CoroDialect.cpp - The coro dialect ---------------------------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

using namespace mlir;
using namespace mlir::coro;

#include "CoroGPU/Dialect/Coro/IR/CoroDialect.cpp.inc"

void CoroDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "CoroGPU/Dialect/Coro/IR/CoroOps.cpp.inc"
      >();
}

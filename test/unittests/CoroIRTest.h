//===- CoroIRTest.h - a test fixture for IR-level unit tests ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TEST_UNITTESTS_COROIRTEST_H
#define COROGPU_TEST_UNITTESTS_COROIRTEST_H

#include "CoroGPU/InitAllCoroGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

namespace mlir::coro::test {

/// A context with the dialects that coroutine bodies in tests use, and a
/// parser that prints what went wrong.
class CoroIRTest : public ::testing::Test {
protected:
  CoroIRTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    memref::MemRefDialect, vector::VectorDialect>();
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source`; locations name `sourceName`.
  OwningOpRef<ModuleOp> parse(StringRef source,
                              StringRef sourceName = "<string>") {
    ScopedDiagnosticHandler handler(&context, [](Diagnostic &diag) {
      llvm::errs() << diag << "\n";
      return success();
    });
    return parseSourceString<ModuleOp>(source, &context, sourceName);
  }

  MLIRContext context;
};

} // namespace mlir::coro::test

#endif // COROGPU_TEST_UNITTESTS_COROIRTEST_H

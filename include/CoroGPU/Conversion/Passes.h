//===- Passes.h - scheduler conversion passes -------------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_PASSES_H
#define COROGPU_CONVERSION_PASSES_H

#include "CoroGPU/Conversion/SchedulerOptions.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace coro {

#define GEN_PASS_DECL
#include "CoroGPU/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "CoroGPU/Conversion/Passes.h.inc"

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_PASSES_H

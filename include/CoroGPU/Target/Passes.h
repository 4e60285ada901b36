//===- Passes.h - SPIR-V, NVVM and kernel file passes -----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The passes that serve one target rather than the coroutines: fix-ups of
// the IR around the upstream GPU to SPIR-V and GPU to NVVM conversions
// (libraries CoroGPUTargetSPIRV, CoroGPUTargetNVVM) and the pass that writes
// the compiled kernels to files (CoroGPUTargetBinary).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TARGET_PASSES_H
#define COROGPU_TARGET_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace coro {

#define GEN_PASS_DECL
#include "CoroGPU/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "CoroGPU/Target/Passes.h.inc"

/// Whether a SPIR-V kernel here can take an argument of `type`
/// (coro-spirv-kernel-arguments): 1 to 4 elements of up to 64 bits, the
/// vectors of the Vulkan target (no Vector16); and what to say when it
/// cannot.
bool isSPIRVVectorArgumentType(VectorType type);
inline constexpr llvm::StringLiteral kSPIRVVectorArgumentTypes =
    "a vector argument of a SPIR-V kernel has 1 dimension of 1 to 4 "
    "elements of type i1, i8, i16, i32, i64, index, f16, f32 or f64";

/// The type a SPIR-V kernel takes an integer argument (or vector element)
/// of `type` in: i1 and i8 widened to i32 (no boolean has a size in memory,
/// and the Vulkan target has no 8-bit storage), any other type itself.
Type getSPIRVKernelArgumentType(Type type);

} // namespace coro
} // namespace mlir

#endif // COROGPU_TARGET_PASSES_H

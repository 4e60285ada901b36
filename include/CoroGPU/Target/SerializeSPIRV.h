//===- SerializeSPIRV.h - SPIR-V words of a spirv.module --------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How the kernels of our SPIR-V pipeline become words: MLIR's serializer,
// then the instructions its SPIR-V dialect cannot express. Everything that
// writes a .spv (coro-run, the Runner, coro-write-kernels) goes through
// here.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TARGET_SERIALIZESPIRV_H
#define COROGPU_TARGET_SERIALIZESPIRV_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir {
namespace coro {

/// The attribute that marks a function coro-spirv-debug-printf made: its
/// calls print with this format.
constexpr llvm::StringLiteral kDebugPrintfFormatAttrName = "coro.debug_printf";

/// Serializes `module`, then turns each call of a function marked with
/// kDebugPrintfFormatAttrName into the NonSemantic.DebugPrintf instruction
/// of its format and arguments (the functions themselves removed; the
/// module then declares SPV_KHR_non_semantic_info).
LogicalResult serializeSPIRV(spirv::ModuleOp module,
                             SmallVectorImpl<uint32_t> &words);

} // namespace coro
} // namespace mlir

#endif // COROGPU_TARGET_SERIALIZESPIRV_H

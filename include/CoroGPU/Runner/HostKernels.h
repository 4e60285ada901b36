//===- HostKernels.h - kernels of host programs, as gpu.binary objects ---*- C++
//-*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The contract between coro-host-launches-to-gpu, which compiles the
// coroutines and kernels a host program launches into `gpu.binary` ops,
// and the runtime wrappers that mlir-runner loads to run them: the object
// of each binary is
//
//   "coro-host-kernels v2\n" <descriptor> "\0" <kernel image>
//
// where the descriptor is the text of an array of attributes of the
// coro_plan dialect, either one #coro_plan.host_coroutine (a coroutine and
// its scheduler's plan) or one #coro_plan.host_kernel per kernel of a
// gpu.module, and the image is SPIR-V words or PTX text.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_HOSTKERNELS_H
#define COROGPU_RUNNER_HOSTKERNELS_H

#include "CoroGPU/Conversion/SchedulerOptions.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace coro {
namespace runner {

/// The first bytes of every object of host kernels.
constexpr llvm::StringLiteral kHostKernelsMagic = "coro-host-kernels v2\n";

/// The object of host kernels described by `descriptor`, with `image`.
std::string encodeHostKernels(ArrayAttr descriptor, StringRef image);

/// An object of host kernels, read back.
struct HostKernels {
  ArrayAttr descriptor;
  /// Points into the object.
  StringRef image;
};

/// Reads `object` with `context` (which must have the coro_plan dialect
/// loaded); an error says what is wrong with it.
llvm::Expected<HostKernels> decodeHostKernels(StringRef object,
                                              MLIRContext *context);

/// Why a host program cannot pass a memref of `type` to kernels compiled
/// for `target`, or empty when it can. Host and
/// kernels must lay the elements out alike: i1 (a byte), integers of 8 to
/// 64 bits and f16, f32, f64 (bf16 not to SPIR-V, whose conversion keeps
/// bf16 in f32s); not index (32 bits in SPIR-V kernels) or vectors; and a
/// memref of
/// more than one dimension has a static shape (kernels take the sizes of
/// dynamic ones flattened).
std::string checkHostMemRef(MemRefType type, const KernelTarget &target);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_HOSTKERNELS_H

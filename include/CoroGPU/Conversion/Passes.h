//===- Passes.h - coroutine conversion passes -------------------*- C++ -*-===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_PASSES_H
#define COROGPU_CONVERSION_PASSES_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace coro {

#define GEN_PASS_DECL
#include "CoroGPU/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "CoroGPU/Conversion/Passes.h.inc"

/// The whole pipeline from user coroutines to Vulkan SPIR-V with the
/// mega-kernel scheduler: the front half (inlining, yield expansion, control-
/// flow normalization), `coro-megakernel-to-gpu`, and the upstream GPU to
/// SPIR-V conversion for a Vulkan 1.2 target. `coro-write-kernels` then
/// writes the binaries. Registered as `coro-megakernel-to-spirv`.
void buildMegakernelToSPIRVPipeline(OpPassManager &pm);

/// The same to PTX for NVIDIA GPUs: the front half, `coro-megakernel-to-gpu`,
/// gpu to NVVM for `chip` (sm_70 to sm_90, PTX 8.0) and gpu-module-to-binary
/// with the PTX text embedded in a gpu.binary. Registered as
/// `coro-megakernel-to-ptx{chip=sm_90}`.
void buildMegakernelToPTXPipeline(OpPassManager &pm, StringRef chip);

/// Registers the named pipelines above with the pass registry.
void registerCoroPipelines();

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_PASSES_H

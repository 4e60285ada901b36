//===- Passes.h - coroutine conversion passes -------------------*- C++ -*-===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_PASSES_H
#define COROGPU_CONVERSION_PASSES_H

#include "CoroGPU/Conversion/SchedulerUtils.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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

/// The schedulers the GPU pipelines can materialize.
enum class GPUScheduler { Megakernel, StateMachine, Wavefront, Persistent };

/// Name of the module attribute in which `coro-wavefront-to-gpu` describes
/// the kernels of each coroutine to the host loop.
inline constexpr llvm::StringLiteral kWavefrontPlanAttrName = "coro.wavefront";

/// Name of the module attribute in which `coro-persistent-to-gpu` describes
/// the kernel of each coroutine to the runtime.
inline constexpr llvm::StringLiteral kPersistentPlanAttrName =
    "coro.persistent";

/// The options of the schedulers a GPU pipeline can materialize that have
/// any: those of their passes.
struct SchedulerCompileOptions {
  CoroWavefrontToGPUOptions wavefront;
  CoroPersistentToGPUOptions persistent;
};

/// From user coroutines to Vulkan SPIR-V: the front half (inlining, yield
/// expansion, control-flow normalization), the scheduler (the mega-kernel,
/// or coro-split + the state machine), and the upstream GPU to SPIR-V
/// conversion for a Vulkan 1.2 target. `coro-write-kernels` then writes the
/// binaries. Registered as `coro-to-spirv{scheduler=...}`.
void buildToSPIRVPipeline(OpPassManager &pm, GPUScheduler scheduler,
                          const SchedulerCompileOptions &options = {});

/// The same to PTX for NVIDIA GPUs: gpu to NVVM for `chip` (sm_75 to sm_90
/// with CUDA 13's ptxas; PTX 8.0) and gpu-module-to-binary with the PTX text
/// embedded in a gpu.binary. Math ops without a PTX instruction (`sin`,
/// `exp`, ...) are calls into the libdevice of the CUDA toolkit at
/// `cudaToolkit` (empty: `findCUDAToolkit()`); with no toolkit they are
/// errors. Registered as `coro-to-ptx{scheduler=... chip=sm_90}`.
void buildToPTXPipeline(OpPassManager &pm, GPUScheduler scheduler,
                        StringRef chip,
                        const SchedulerCompileOptions &options = {},
                        StringRef cudaToolkit = {});

/// The first of $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, the toolkit of the
/// `ptxas` on PATH and /usr/local/cuda that holds
/// nvvm/libdevice/libdevice.10.bc; empty when none does.
std::string findCUDAToolkit();

/// Registers the named pipelines above with the pass registry.
void registerCoroPipelines();

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_PASSES_H

//===- Pipelines.cpp - named pipelines from coroutines to GPU code --------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRVPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// Inlining, yield expansion and control-flow normalization.
static void buildFrontHalf(OpPassManager &pm) {
  pm.addPass(coro::createCoroInlineCallables());
  pm.addPass(coro::createCoroInlineAwaits());
  OpPassManager &coroutines = pm.nest<coro::FuncOp>();
  coroutines.addPass(coro::createCoroExpandYield());
  coroutines.addPass(coro::createCoroNormalizeControlFlow());
}

void mlir::coro::buildMegakernelToSPIRVPipeline(OpPassManager &pm) {
  buildFrontHalf(pm);
  pm.addPass(createCoroMegakernelToGPU());
  // A Vulkan 1.2 compute target; lavapipe and desktop drivers accept it.
  // Int64/Float64 are only required by kernels that use them (update-vce).
  GpuSPIRVAttachTargetOptions target;
  target.spirvVersion = "v1.3";
  target.spirvCapabilities = {"Shader", "Int64", "Float64"};
  target.spirvExtensions = {"SPV_KHR_storage_buffer_storage_class"};
  pm.addPass(createGpuSPIRVAttachTarget(target));
  pm.addPass(createCoroSPIRVLocalArrays());
  pm.addPass(createMapMemRefStorageClassPass()); // Vulkan storage classes.
  pm.addPass(createConvertGPUToSPIRVPass());
  OpPassManager &spirvModules = pm.nest<spirv::ModuleOp>();
  spirvModules.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModules.addPass(spirv::createSPIRVUpdateVCEPass());
}

void mlir::coro::buildMegakernelToPTXPipeline(OpPassManager &pm,
                                              StringRef chip) {
  buildFrontHalf(pm);
  pm.addPass(createCoroMegakernelToGPU());
  GpuNVVMAttachTargetOptions target;
  target.chip = chip.str();
  // PTX 8.0 covers sm_70 to sm_90; the default PTX 6.0 aborts for sm_90.
  target.features = "+ptx80";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa"; // PTX text: needs no CUDA installation.
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

namespace {
struct PTXPipelineOptions : PassPipelineOptions<PTXPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU, sm_70 to sm_90"),
                           llvm::cl::init("sm_90")};
};
} // namespace

void mlir::coro::registerCoroPipelines() {
  PassPipelineRegistration<>(
      "coro-megakernel-to-spirv",
      "Coroutines to Vulkan SPIR-V with the mega-kernel scheduler (front "
      "half, coro-megakernel-to-gpu, gpu to spirv); follow with "
      "coro-write-kernels to write the binaries",
      buildMegakernelToSPIRVPipeline);
  PassPipelineRegistration<PTXPipelineOptions>(
      "coro-megakernel-to-ptx",
      "Coroutines to PTX with the mega-kernel scheduler (front half, "
      "coro-megakernel-to-gpu, gpu to nvvm, gpu-module-to-binary with "
      "format=isa); follow with coro-write-kernels to write the .ptx files",
      [](OpPassManager &pm, const PTXPipelineOptions &options) {
        buildMegakernelToPTXPipeline(pm, options.chip);
      });
}

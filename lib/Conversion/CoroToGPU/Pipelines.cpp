//===- Pipelines.cpp - named pipelines from coroutines to GPU code --------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRVPass.h"
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
  pm.addPass(createMapMemRefStorageClassPass()); // Vulkan storage classes.
  pm.addPass(createConvertGPUToSPIRVPass());
  OpPassManager &spirvModules = pm.nest<spirv::ModuleOp>();
  spirvModules.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModules.addPass(spirv::createSPIRVUpdateVCEPass());
}

void mlir::coro::registerCoroPipelines() {
  PassPipelineRegistration<>(
      "coro-megakernel-to-spirv",
      "Coroutines to Vulkan SPIR-V with the mega-kernel scheduler (front "
      "half, coro-megakernel-to-gpu, gpu to spirv); follow with "
      "coro-serialize-spirv to write the binaries",
      buildMegakernelToSPIRVPipeline);
}

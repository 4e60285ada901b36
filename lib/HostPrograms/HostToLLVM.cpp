//===- HostToLLVM.cpp - the coro-host-to-llvm pipeline --------------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/HostPrograms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::coro;

void mlir::coro::buildHostToLLVMPipeline(
    OpPassManager &pm, const CoroHostLaunchesToGPUOptions &options) {
  pm.addPass(createCoroHostLaunchesToGPU(options));
  // gpu.alloc, gpu.memcpy and gpu.memset lower only in their async form.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // Host code may use subviews and affine loops.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // The launches become calls of the mgpu* functions that the runtime
  // wrappers define, with each memref passed as its descriptor's fields.
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

namespace {
struct HostToLLVMPipelineOptions
    : public PassPipelineOptions<HostToLLVMPipelineOptions> {
  Option<std::string> scheduler{
      *this, "scheduler",
      llvm::cl::desc("Scheduler of the coro.launch ops without a `scheduler` "
                     "attribute: megakernel, state-machine, wavefront or "
                     "persistent"),
      llvm::cl::init("megakernel")};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("What the kernels are compiled for: spirv (Vulkan) or "
                     "an NVIDIA chip (sm_90)"),
      llvm::cl::init("spirv")};
  Option<unsigned> stateMachineSteps{
      *this, "state-machine-steps",
      llvm::cl::desc("Subroutines an instance runs per launch under the "
                     "state machine (0: all)"),
      llvm::cl::init(0)};
  Option<std::string> device{
      *this, "device",
      llvm::cl::desc("The device the kernels are for, whose schedulers' "
                     "options coro-run would choose: gpu, cpu:N (lavapipe: "
                     "cpu:8) or native (asked now)"),
      llvm::cl::init("gpu")};
};
} // namespace

void mlir::coro::registerHostProgramsPasses() {
  registerCoroHostProgramsPasses();
  PassPipelineRegistration<HostToLLVMPipelineOptions>(
      "coro-host-to-llvm",
      "Compile a host program (func.func @main with coro.launch and "
      "gpu.launch_func) for mlir-runner and libcoro_runtime_wrappers.so: "
      "coro-host-launches-to-gpu, then the host code to LLVM",
      [](OpPassManager &pm, const HostToLLVMPipelineOptions &options) {
        CoroHostLaunchesToGPUOptions passOptions;
        passOptions.scheduler = options.scheduler;
        passOptions.target = options.target;
        passOptions.stateMachineSteps = options.stateMachineSteps;
        passOptions.device = options.device;
        buildHostToLLVMPipeline(pm, passOptions);
      });
}

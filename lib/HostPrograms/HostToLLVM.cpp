//===- HostToLLVM.cpp - the coro-host-to-llvm pipeline --------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
  buildHostToLLVMPipeline(pm, createCoroHostLaunchesToGPU(options));
}

void mlir::coro::buildHostToLLVMPipeline(OpPassManager &pm,
                                         std::unique_ptr<Pass> hostLaunches) {
  pm.addPass(std::move(hostLaunches));
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

void mlir::coro::registerHostProgramsPasses() {
  registerCoroHostProgramsPasses();
  // The pipeline's options are the pass's, parsed by the pass itself.
  registerPassPipeline(
      "coro-host-to-llvm",
      "Compile a host program (func.func @main with coro.launch and "
      "gpu.launch_func) for mlir-runner and libcoro_runtime_wrappers.so: "
      "coro-host-launches-to-gpu, then the host code to LLVM; its options "
      "are coro-host-launches-to-gpu's (listed there)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        std::unique_ptr<Pass> hostLaunches = createCoroHostLaunchesToGPU();
        if (failed(hostLaunches->initializeOptions(text, errorHandler)))
          return failure();
        buildHostToLLVMPipeline(pm, std::move(hostLaunches));
        return success();
      },
      // A pass's options are not reachable from outside it (Pass keeps them
      // private), so the help lists them under the pass only.
      [](function_ref<void(const ::mlir::detail::PassOptions &)>) {});
}

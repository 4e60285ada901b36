//===- Passes.h - host programs that launch coroutines ----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Host programs (library CoroGPUHostPrograms): a host func.func that
// launches coroutines and kernels, compiled by coro-host-launches-to-gpu
// and lowered by the `coro-host-to-llvm` pipeline for mlir-runner and the
// CoroGPU runtime wrappers (docs/host-programs.md).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_HOSTPROGRAMS_PASSES_H
#define COROGPU_HOSTPROGRAMS_PASSES_H

#include "CoroGPU/Conversion/SchedulerOptions.h"
#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace coro {

#define GEN_PASS_DECL
#include "CoroGPU/HostPrograms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "CoroGPU/HostPrograms/Passes.h.inc"

/// `hostLaunches` (a coro-host-launches-to-gpu), then the host code to the
/// LLVM dialect: scf to cf, upstream's gpu-to-llvm, memref, func, arith, cf,
/// index and math to LLVM. The result runs under mlir-runner with
/// libcoro_runtime_wrappers.so. Registered as `coro-host-to-llvm`, whose
/// options are coro-host-launches-to-gpu's.
void buildHostToLLVMPipeline(OpPassManager &pm,
                             std::unique_ptr<Pass> hostLaunches);
void buildHostToLLVMPipeline(OpPassManager &pm,
                             const CoroHostLaunchesToGPUOptions &options);

/// Registers the passes and the pipeline above.
void registerHostProgramsPasses();

} // namespace coro
} // namespace mlir

#endif // COROGPU_HOSTPROGRAMS_PASSES_H

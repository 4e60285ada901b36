//===- Passes.td - host programs that launch coroutines ----*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_HOSTPROGRAMS_PASSES_TD
#define COROGPU_HOSTPROGRAMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoroHostLaunchesToGPU
    : Pass<"coro-host-launches-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Compile what a host program launches into gpu.binary ops "
                "that the CoroGPU runtime wrappers run";
  let description = [{
    A host program is a module whose `func.func`s (its `main`) allocate
    memrefs and launch coroutines with `coro.launch` and ordinary kernels
    (`gpu.func`s of its `gpu.module`s) with `gpu.launch_func`. This pass
    compiles them for a device, so that the host code lowers to LLVM with
    upstream's `gpu-to-llvm` and runs under `mlir-runner` with
    `libcoro_runtime_wrappers.so` (docs/host-programs.md):

    - each `coro.launch` runs its coroutine under the scheduler of its
      `scheduler` attribute (`"megakernel"`, `"state-machine"`,
      `"wavefront"`, `"persistent"`; default: the `scheduler` option). The
      coroutine is compiled, once per scheduler, into a `gpu.binary` whose
      object holds the kernels and a `#coro_plan.host_coroutine` (its type
      and the scheduler's plan, `CoroGPU/Runner/HostKernels.h`), and the
      launch becomes a `gpu.launch_func` of it over the launch's grid; the
      wrappers run the scheduler's host loop (relaunches, wavefront rounds,
      persistent batches) and check that every instance returned.
    - each `gpu.module` with kernels is compiled by the same target passes
      and becomes a `gpu.binary` of the same name, with one
      `#coro_plan.host_kernel` per kernel. A kernel must say its workgroup
      size (`known_block_size`, or `spirv.entry_point_abi`): SPIR-V fixes it
      in the kernel, and a launch with other block sizes is an error.

    Host code is every `func.func` that launches or calls host code; the
    other functions are device code too (coroutines may call them). A
    `coro.handle.frame_words @f` in host code, which sizes a buffer of
    frames that launched coroutines keep with `coro.handle.store` (paper
    Listing 8), becomes the constant frame size that their device code
    uses.

    Memrefs live in host memory: each launch copies its memref arguments to
    the device and back when it ends, so the host sees every launch's
    results before the next starts. The `coro-host-to-llvm` pipeline, which
    runs this pass and the host lowering to LLVM, takes this pass's
    options.

    `device=` names the device the kernels are for: a coroutine gets the
    code coro-run gives it on that device (the same options: subgroup
    appends, and on a CPU device such as lavapipe persistent workgroups of
    one subgroup, subgroup-scoped barriers and fall-through dispatch).
    `scheduler-options=` then sets any of the schedulers' options the
    pipelines take (`coro-to-spirv`'s, less `scheduler` and
    `subgroup-size`), e.g.
    `scheduler-options='state-machine-steps=64 persistent-batch=128'`.
  }];
  let options = [
    Option<"scheduler", "scheduler", "::mlir::coro::GPUScheduler",
           "::mlir::coro::GPUScheduler::Megakernel",
           "Scheduler of the coro.launch ops without a `scheduler` "
           "attribute",
           [{::mlir::coro::getGPUSchedulerValues()}]>,
    Option<"target", "target", "::corogpu::runtime::KernelTarget",
           "::corogpu::runtime::KernelTarget::getSPIRV()",
           "What the kernels are compiled for: spirv (Vulkan) or an NVIDIA "
           "chip (sm_90, PTX for CUDA)">,
    Option<"schedulerOptions", "scheduler-options", "std::string", "\"\"",
           "The schedulers' options as coro-to-spirv takes them, e.g. "
           "'state-machine-steps=64 layout=soa', over the device's defaults "
           "(see device=)">,
    Option<"device", "device", "std::string", "\"gpu\"",
           "The device the kernels are for; each scheduler takes the "
           "options coro-run would choose on it (runner::"
           "getDefaultCompileOptions): gpu (a GPU, whose subgroup size may "
           "vary), cpu:N (a CPU device with subgroups of N lanes; lavapipe "
           "is cpu:8) or native (the first Vulkan device, or CUDA device 0 "
           "for a chip, asked at compile time)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::coro::plan::CoroPlanDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::spirv::SPIRVDialect",
    "::mlir::NVVM::NVVMDialect"
  ];
  let statistics = [
    Statistic<"numCoroutineBinaries", "coroutine-binaries",
              "Coroutines compiled under a scheduler">,
    Statistic<"numKernelBinaries", "kernel-binaries",
              "gpu.modules compiled">,
    Statistic<"numLaunches", "launches", "coro.launch ops replaced">
  ];
}

#endif // COROGPU_HOSTPROGRAMS_PASSES_TD

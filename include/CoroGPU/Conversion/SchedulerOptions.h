//===- SchedulerOptions.h - the schedulers' option enums --------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The enums of the schedulers' options, each declared once with its
// spellings: the passes' options (Passes.td), the pipelines', coro-run's
// and the plans' attributes (PlanAttrs.td) all take these. Small on
// purpose: Conversion/Passes.h includes it.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_SCHEDULEROPTIONS_H
#define COROGPU_CONVERSION_SCHEDULEROPTIONS_H

#include "CoroGPU/Dialect/Plan/IR/KernelTarget.h"
#include "corogpu/runtime/FrameArrayABI.h"
#include "corogpu/runtime/WavefrontABI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>

namespace mlir {
namespace coro {

/// The schedulers a coroutine can run under (the GPU pipelines'
/// `scheduler=`, coro-run's --scheduler, coro-host-launches-to-gpu's
/// `scheduler=` and a launch's `scheduler` attribute).
enum class GPUScheduler { Megakernel, StateMachine, Wavefront, Persistent };

/// The spelling of `scheduler`: megakernel, state-machine, wavefront or
/// persistent.
inline llvm::StringRef getGPUSchedulerName(GPUScheduler scheduler) {
  switch (scheduler) {
  case GPUScheduler::Megakernel:
    return "megakernel";
  case GPUScheduler::StateMachine:
    return "state-machine";
  case GPUScheduler::Wavefront:
    return "wavefront";
  case GPUScheduler::Persistent:
    return "persistent";
  }
  return "megakernel";
}

/// The scheduler `name` spells (getGPUSchedulerName), if any.
inline std::optional<GPUScheduler> parseGPUScheduler(llvm::StringRef name) {
  for (GPUScheduler scheduler :
       {GPUScheduler::Megakernel, GPUScheduler::StateMachine,
        GPUScheduler::Wavefront, GPUScheduler::Persistent})
    if (getGPUSchedulerName(scheduler) == name)
      return scheduler;
  return std::nullopt;
}

/// The spellings of GPUScheduler for command-line and pass options.
inline llvm::cl::ValuesClass getGPUSchedulerValues() {
  return llvm::cl::values(
      clEnumValN(GPUScheduler::Megakernel, "megakernel",
                 "suspensions erased: the reference"),
      clEnumValN(GPUScheduler::StateMachine, "state-machine",
                 "one instance per thread, loop over the token"),
      clEnumValN(GPUScheduler::Wavefront, "wavefront",
                 "one kernel per subroutine, queues built on the GPU"),
      clEnumValN(GPUScheduler::Persistent, "persistent",
                 "resident workgroups run block-wise state machines"));
}

/// How the frames of several instances share one memref of 32-bit words:
/// soa, aos or aosoa (tiles of SoA), the runtime's contract
/// (corogpu/runtime/FrameArrayABI.h says where each word is, and names
/// them: getFrameArrayLayoutName, parseFrameArrayLayout).
using FrameArrayLayout = ::corogpu::runtime::FrameArrayLayout;
using ::corogpu::runtime::getFrameArrayLayoutName;
using ::corogpu::runtime::parseFrameArrayLayout;

/// The spellings of FrameArrayLayout for command-line and pass options.
inline llvm::cl::ValuesClass getFrameArrayLayoutValues() {
  return llvm::cl::values(
      clEnumValN(FrameArrayLayout::SoA, "soa",
                 "structure of arrays: word w of every slot is consecutive"),
      clEnumValN(FrameArrayLayout::AoS, "aos",
                 "array of structures: the words of one frame are "
                 "consecutive"),
      clEnumValN(FrameArrayLayout::AoSoA, "aosoa",
                 "SoA within tiles of 32 slots"));
}

/// How the wavefront scheduler's rounds build the queues (the runtime's
/// contract, corogpu/runtime/WavefrontABI.h). A plan holds Queues or
/// Classify; Auto is an option's: classify where the options need it (in
/// coro-run: compaction, most-first order and half-empty refill), else
/// queues.
using WavefrontDesign = ::corogpu::runtime::wavefront::Design;

/// The spellings of WavefrontDesign for command-line and pass options.
inline llvm::cl::ValuesClass getWavefrontDesignValues() {
  return llvm::cl::values(
      clEnumValN(WavefrontDesign::Queues, "queues",
                 "each slot is appended to its next queue as it leaves a "
                 "subroutine"),
      clEnumValN(WavefrontDesign::Classify, "classify",
                 "a pass over every slot: classify, scan, scatter"),
      clEnumValN(WavefrontDesign::Auto, "auto",
                 "classify where the options need it, else queues"));
}

/// What kernels are compiled for: SPIR-V or PTX for one NVIDIA chip, spelt
/// "spirv" or the chip ("sm_90") (corogpu/runtime/KernelTarget.h; devices,
/// plans and the runtime wrappers take it too).
using KernelTarget = ::corogpu::runtime::KernelTarget;

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_SCHEDULEROPTIONS_H

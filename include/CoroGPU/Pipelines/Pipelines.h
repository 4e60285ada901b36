//===- Pipelines.h - the named pipelines to SPIR-V and PTX ------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pipelines that run everything from user coroutines to SPIR-V or PTX
// (library CoroGPUPipelines): the coroutine passes, a scheduler's
// conversion and the target passes around the upstream conversions.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_PIPELINES_PIPELINES_H
#define COROGPU_PIPELINES_PIPELINES_H

#include "CoroGPU/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <optional>
#include <string>

namespace mlir {
namespace coro {

/// The options of the schedulers a GPU pipeline can materialize that have
/// any: those of their passes.
struct SchedulerCompileOptions {
  /// Only `steps-per-launch`, `bound-steps` and `fall-through` are taken
  /// from it; termination accounting is `terminationChecks` below.
  CoroStateMachineToGPUOptions stateMachine;
  CoroWavefrontToGPUOptions wavefront;
  CoroPersistentToGPUOptions persistent;
  /// Termination accounting: the mega-kernel and state-machine kernels take
  /// the status buffer of corogpu/runtime/InstanceABI.h (`instance-status`),
  /// and for SPIR-V every kernel that runs coroutine code counts its loop
  /// iterations (`count-loop-iterations`). Off only to measure its cost.
  bool terminationChecks = true;
  /// coro-profile-lanes instruments the kernels (after the split, or the
  /// mega-kernel's coroutine), which then take the profile buffer of
  /// corogpu/runtime/LaneProfileABI.h last.
  bool profileLanes = false;
  /// SPIR-V: a subgroup size every subgroup of the device has (0: unknown);
  /// the barriers of workgroups no larger get subgroup scope
  /// (coro-spirv-subgroup-barriers).
  int64_t subgroupSize = 0;
};

/// The schedulers' options as text options, each declared here once: the
/// pipelines `coro-to-spirv` and `coro-to-ptx` take them beside
/// `scheduler=`, coro-host-launches-to-gpu as
/// `scheduler-options='layout=soa persistent-batch=64'`. An option left out
/// keeps the value of the SchedulerCompileOptions it is applied to: the
/// passes' defaults in the pipelines, the device's
/// (runner::getDefaultCompileOptions) in host programs.
struct SchedulerOptions : public virtual ::mlir::detail::PassOptions {
  Option<FrameArrayLayout> layout{
      *this, "layout",
      llvm::cl::desc("Frame layout of the wavefront's frame buffer and the "
                     "persistent threads' slots (default: aosoa for the "
                     "wavefront, whose slot count is known at run time; soa "
                     "for persistent threads)"),
      llvm::cl::init(FrameArrayLayout::AoSoA), getFrameArrayLayoutValues()};
  Option<std::string> sortBy{
      *this, "sort-by",
      llvm::cl::desc("Wavefront: integer promise field that orders each "
                     "queue (e.g. a material id)"),
      llvm::cl::value_desc("promise")};
  Option<int64_t> hintBuckets{
      *this, "hint-buckets",
      llvm::cl::desc("Wavefront, with sort-by: values are clamped to [0, N)"),
      llvm::cl::init(16)};
  Option<WavefrontDesign> wavefrontDesign{
      *this, "wavefront-design",
      llvm::cl::desc("How each wavefront round builds the queues (auto: "
                     "queues, unless in coro-run --compact-below, "
                     "--order=most-first or --refill=half needs classify)"),
      llvm::cl::init(WavefrontDesign::Auto), getWavefrontDesignValues()};
  Option<bool> wavefrontGridStride{
      *this, "wavefront-grid-stride",
      llvm::cl::desc("Wavefront subroutine kernels stride over their queues "
                     "with a grid sized for the device, launched directly, "
                     "instead of one thread per queued instance behind an "
                     "indirect dispatch (always on for CUDA, which has no "
                     "indirect dispatch)"),
      llvm::cl::init(false)};
  Option<int64_t> wavefrontWorkgroupSize{
      *this, "wavefront-workgroup-size",
      llvm::cl::desc("Threads per workgroup of the wavefront kernels"),
      llvm::cl::init(64)};
  Option<bool> wavefrontSubgroupAppends{
      *this, "wavefront-subgroup-appends",
      llvm::cl::desc("Wavefront queue design: each subgroup appends its "
                     "slots to a queue with one atomic instead of one per "
                     "slot (coro-run and host programs: on where the device "
                     "allows, subgroups of at most 32 lanes with subgroup "
                     "arithmetic on Vulkan, workgroups of whole warps on "
                     "CUDA)"),
      llvm::cl::init(false)};
  Option<unsigned> wavefrontTailBelow{
      *this, "wavefront-tail-below",
      llvm::cl::desc("Wavefront queue design: once the grid is exhausted "
                     "and fewer than this % of the slots are alive, finish "
                     "the instances with a tail kernel that runs each "
                     "through its subroutines in one launch, as the state "
                     "machine does, instead of one round per subroutine "
                     "(0: off)"),
      llvm::cl::init(0)};
  Option<int64_t> stateMachineSteps{
      *this, "state-machine-steps",
      llvm::cl::desc("State machine: run at most N passes of each "
                     "instance's state machine per launch (a subroutine "
                     "each, or more with fall-through), keeping the frames "
                     "in global memory between launches, and launch again "
                     "until every instance returned (0: one launch; coro-run "
                     "and host programs on a device that ends a thread's "
                     "loops after a number of iterations, as lavapipe: as "
                     "many passes as take 16384 loop passes of a thread)"),
      llvm::cl::init(0)};
  Option<bool> fallThrough{
      *this, "fall-through",
      llvm::cl::desc("State machine and persistent threads: test the tokens "
                     "in order instead of a switch, so that an instance goes "
                     "on to a later subroutine in the same pass or step "
                     "(coro-run and host programs: on by default on a CPU "
                     "device such as lavapipe, which runs every branch, "
                     "taken or not)"),
      llvm::cl::init(false)};
  Option<int64_t> persistentWorkgroupSize{
      *this, "persistent-workgroup-size",
      llvm::cl::desc("Threads per workgroup of the persistent kernel, "
                     "whose batch is then the default 256 unless given "
                     "(coro-run and host programs: one subgroup on a CPU "
                     "device such as lavapipe)"),
      llvm::cl::init(64)};
  Option<int64_t> persistentBatch{
      *this, "persistent-batch",
      llvm::cl::desc("Persistent threads: instance slots per workgroup "
                     "(coro-run and host programs: 4 per thread on a CPU "
                     "device with its default workgroup size)"),
      llvm::cl::init(256)};
  Option<int64_t> persistentSharedMemory{
      *this, "persistent-shared-memory",
      llvm::cl::desc("Persistent threads: bytes of workgroup memory for the "
                     "slots and their frames; the frames that do not fit go "
                     "to a global memory extension"),
      llvm::cl::init(16384)};
  Option<bool> persistentSwapFrames{
      *this, "persistent-swap-frames",
      llvm::cl::desc("Persistent threads: each step, the instances that run "
                     "with frames in the global memory extension trade "
                     "frames with instances that do not run whose frames "
                     "are in workgroup memory (the paper's frame swapping; "
                     "only where the frames do not all fit)"),
      llvm::cl::init(false)};
  Option<int64_t> persistentSteps{
      *this, "persistent-steps",
      llvm::cl::desc("Steps a workgroup of the persistent kernel runs per "
                     "launch before it parks its slots and the kernel is "
                     "launched again (0: no bound; coro-run and host "
                     "programs on a device that ends a thread's loops after "
                     "a number of iterations, as lavapipe: what takes 16384 "
                     "passes of the scheduler's loops, and a workgroup parks "
                     "earlier once a thread made 16384 loop passes)"),
      llvm::cl::init(0)};
  Option<bool> terminationChecks{
      *this, "termination-checks",
      llvm::cl::desc("Count the instances that return (mega-kernel, state "
                     "machine) and, on Vulkan, each thread's loop "
                     "iterations, so that a shortfall or the device's loop "
                     "limit is an error (coro-run: exit code 5); off only to "
                     "measure their cost"),
      llvm::cl::init(true)};
  Option<bool> profileLanes{
      *this, "profile-lanes",
      llvm::cl::desc("Count, once per subgroup, the lanes active at every "
                     "function entry, branch and loop header of the kernels "
                     "(coro-profile-lanes) and the frame bytes each "
                     "subroutine moves, into a profile buffer (the last "
                     "argument); coro-run prints a report per kernel (GPU "
                     "time share, lane use, branch efficiency, frame bytes "
                     "per execution) and the sites where lanes idled most "
                     "(--json: all sites); slows the kernels; not with "
                     "--check-bounds or --tune"),
      llvm::cl::init(false)};

  /// Writes the options that were given into `options`.
  void applyTo(SchedulerCompileOptions &options) const;

  /// Why a value given is out of its range ("persistent-batch must be in
  /// [1, 2^20], got 0"), or empty: the check a driver makes before any pass
  /// runs, so that a bad value is a usage error, not a pass failure.
  std::string checkValues() const;

  /// Puts these options on the tool's command line too (coro-run's
  /// `--layout=soa`), so that a driver declares none of them again; each
  /// goes into the categories `categorize` adds to it.
  void
  addToCommandLine(llvm::function_ref<void(llvm::cl::Option &)> categorize);
};

/// SchedulerOptions on their own, parsed from text (host programs'
/// `scheduler-options=`).
struct SchedulerPipelineOptions
    : public PassPipelineOptions<SchedulerPipelineOptions>,
      public SchedulerOptions {};

/// The options of `coro-to-spirv` and `coro-to-ptx`: the scheduler and its
/// options.
struct GPUPipelineOptions : public SchedulerOptions {
  Option<GPUScheduler> scheduler{
      *this, "scheduler", llvm::cl::desc("The scheduler to materialize"),
      llvm::cl::init(GPUScheduler::Megakernel), getGPUSchedulerValues()};
};

/// `coro-to-spirv`'s options.
struct SPIRVPipelineOptions : public PassPipelineOptions<SPIRVPipelineOptions>,
                              public GPUPipelineOptions {
  Option<int64_t> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("A subgroup size every subgroup of the device has: the "
                     "barriers of workgroups no larger get subgroup scope "
                     "(0: unknown)"),
      llvm::cl::init(0)};
};

/// `coro-to-ptx`'s options.
struct PTXPipelineOptions : public PassPipelineOptions<PTXPipelineOptions>,
                            public GPUPipelineOptions {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU, sm_75 to sm_90"),
                           llvm::cl::init("sm_90")};
  Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc("CUDA toolkit whose libdevice math ops call (default: "
                     "$CUDA_HOME, the ptxas on PATH, /usr/local/cuda)")};
};

/// The front half every scheduler shares: inlining (callables, awaits),
/// yield expansion and control-flow normalization, then coro-resolve-handles
/// (the coroutines that code drives split, innermost first, and the handles
/// and generator loops lowered).
void buildFrontHalfPipeline(OpPassManager &pm);

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

/// The NVPTX feature naming the lowest PTX version that has `chip`
/// (`+ptx80` up to sm_90, `+ptx86` for sm_100, `+ptx87` for sm_120, ...), or
/// nothing where `chip` is not an NVIDIA architecture we know one for.
std::optional<StringRef> getPTXVersionFeature(StringRef chip);

/// Whether `chip` names an NVIDIA architecture that `coro-to-ptx` targets:
/// `sm_<major><minor>` from sm_20 to sm_90 and the Blackwell chips (sm_100,
/// sm_101, sm_103, sm_110, sm_120, sm_121), optionally with the `a` or `f`
/// suffix (sm_90a). `coro-to-ptx` and coro-run reject other names up front.
bool isNVVMChip(StringRef chip);

/// The first of $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, the toolkit of the
/// `ptxas` on PATH and /usr/local/cuda that holds
/// nvvm/libdevice/libdevice.10.bc; empty when none does.
std::string findCUDAToolkit();

/// Registers the named pipelines above with the pass registry.
void registerCoroPipelines();

} // namespace coro
} // namespace mlir

#endif // COROGPU_PIPELINES_PIPELINES_H

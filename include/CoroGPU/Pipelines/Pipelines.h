//===- Pipelines.h - the named pipelines to SPIR-V and PTX ------*- C++ -*-===//
//
// Part of the CoroGPU project.
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

#include <optional>
#include <string>

namespace mlir {
namespace coro {

/// The schedulers the GPU pipelines can materialize.
enum class GPUScheduler { Megakernel, StateMachine, Wavefront, Persistent };

/// The options of the schedulers a GPU pipeline can materialize that have
/// any: those of their passes.
struct SchedulerCompileOptions {
  /// Only `steps-per-launch` and `fall-through` are taken from it; termination
  /// accounting is `terminationChecks` below.
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

//===- Compile.h - compile one coroutine for a run --------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// From a module to what a device runs: the module made ready to run one
// coroutine alone (bounds checks included), the kernel image of that
// coroutine under a scheduler (SPIR-V words, validated, or PTX text), and
// the plan the scheduler's pass left for the runtime (coro_plan dialect).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_COMPILE_H
#define COROGPU_RUNNER_COMPILE_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace mlir {
namespace coro {
namespace runner {

/// Erases the coroutines and functions of `module` that `entry` does not
/// reach through symbol uses (awaits, handles, generator loops, calls):
/// they need not be compiled to run `entry`, and one of them that drives it
/// would have it split before coro-check-bounds instruments it.
void eraseUnreachableCoroutines(ModuleOp module, FuncOp entry);

/// The names of the host code of `module`: the func.funcs that launch
/// coroutines or kernels (coro.launch, gpu.launch_func), and those that call
/// host code. The rest is device code, which coroutines may call.
llvm::StringSet<> collectHostFunctions(ModuleOp module);

/// Erases the host code of `module` (collectHostFunctions).
void eraseHostFunctions(ModuleOp module);

/// The scheduler whose pass leaves `plan` (a coro_plan attribute).
GPUScheduler getPlanScheduler(Attribute plan);

/// Makes `module` ready to run `coroutine` alone: the host code
/// (collectHostFunctions: the `main` of CPU tests and host programs) and
/// the coroutines and functions `coroutine` does not reach are erased. With
/// `checkBounds`, the front half of the pipelines runs and
/// coro-check-bounds instruments `coroutine`, whose last argument is then
/// the violation buffer (KernelABI.h); the result is what it added, null
/// without `checkBounds`. Errors are emitted on the module's context.
FailureOr<BoundsCheckAttr> prepareToRun(ModuleOp module, FuncOp coroutine,
                                        bool checkBounds);

/// What a wavefront can sort `coroutine`'s queues by: the integer and index
/// promise fields of it and of the coroutines it reaches (a generator's
/// yielded value included), in the order they appear, and the type `key`
/// has there when it is a promise of another type.
struct SortKeys {
  std::vector<std::string> keys;
  std::optional<Type> keyType;
  bool contains(StringRef key) const { return llvm::is_contained(keys, key); }
};
SortKeys findSortKeys(FuncOp coroutine, StringRef key = {});

/// The plan (coro_plan dialect) that `scheduler`'s pass left for
/// `coroutine` in the compiled `module`; a located error if there is none.
FailureOr<Attribute> getSchedulerPlan(ModuleOp module, StringRef coroutine,
                                      GPUScheduler scheduler);

/// Compiles a copy of `module` with `scheduler` to SPIR-V `words`, which
/// are also returned when they fail validation (an error at `coroutine`
/// says so). `lowered`, if given, receives the compiled module, `plan` the
/// coroutine's plan, `laneProfile` what coro-profile-lanes added to it
/// (`options.profileLanes`).
LogicalResult compileToSPIRV(ModuleOp module, StringRef coroutine,
                             GPUScheduler scheduler,
                             const SchedulerCompileOptions &options,
                             std::vector<uint32_t> &words,
                             OwningOpRef<ModuleOp> *lowered = nullptr,
                             Attribute *plan = nullptr,
                             LaneProfileAttr *laneProfile = nullptr);

/// Compiles a copy of `module` with `scheduler` to PTX text for `chip`.
LogicalResult compileToPTX(ModuleOp module, StringRef coroutine,
                           GPUScheduler scheduler, StringRef chip,
                           const SchedulerCompileOptions &options,
                           std::string &ptx, Attribute *plan = nullptr,
                           LaneProfileAttr *laneProfile = nullptr);

/// compileToSPIRV (the words as bytes) or compileToPTX for the chip, as
/// `target` says. Without a `coroutine` (empty), the module's gpu.modules
/// alone: ordinary kernels.
LogicalResult compileForTarget(ModuleOp module, StringRef coroutine,
                               GPUScheduler scheduler,
                               const KernelTarget &target,
                               const SchedulerCompileOptions &options,
                               std::string &image, Attribute *plan = nullptr,
                               LaneProfileAttr *laneProfile = nullptr);

/// One coroutine compiled for a device: what the runtime loads and runs.
struct CompiledCoroutine {
  std::string coroutine;
  GPUScheduler scheduler = GPUScheduler::Megakernel;
  /// SPIR-V or PTX for a chip, as Device::getTarget says.
  KernelTarget target;
  /// SPIR-V words as bytes, or PTX text.
  std::string image;
  /// The scheduler's plan, a coro_plan attribute.
  Attribute plan;
  /// With SchedulerCompileOptions::profileLanes, the sites and functions of
  /// the profile buffer, the coroutine's last argument; null otherwise.
  LaneProfileAttr laneProfile;
  /// Whether the state machine's or the persistent kernel's dispatch tests
  /// the tokens in order (the `fall-through` option) rather than switching.
  bool fallThrough = false;
};

/// Compiles `coroutine` of `module` (a copy) with `scheduler` for a device
/// of `target` (Device::getTarget). Every coroutine of the module is
/// compiled with it: run prepareToRun first on a module whose host
/// functions launch coroutines (or whose other coroutines should not be).
FailureOr<CompiledCoroutine>
compileCoroutine(ModuleOp module, StringRef coroutine, GPUScheduler scheduler,
                 const KernelTarget &target,
                 const SchedulerCompileOptions &options = {});

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_COMPILE_H

//===- Pipelines.cpp - named pipelines from coroutines to GPU code --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Pipelines/Pipelines.h"

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Pipelines/Passes.h"
#include "CoroGPU/Target/Passes.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRVPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::coro;

void mlir::coro::buildFrontHalfPipeline(OpPassManager &pm) {
  pm.addPass(coro::createCoroInlineCallables());
  pm.addPass(coro::createCoroInlineAwaits());
  OpPassManager &coroutines = pm.nest<coro::FuncOp>();
  coroutines.addPass(coro::createCoroExpandYield());
  coroutines.addPass(coro::createCoroNormalizeControlFlow());
  // The coroutines that coro.handle and coro.for_each ops drive are split
  // (innermost first) and the handles lowered before the coroutines that
  // hold them are split, so that a handle is a local array there, which may
  // live across their suspension points. The mega-kernel leaves the others
  // whole.
  pm.addPass(createCoroResolveHandles());
}

/// The front half, then the scheduler's materialization as GPU kernels.
/// With `countLoopIterations` (targets whose drivers may limit loops) every
/// scheduler's kernels count their loop passes; `terminationChecks` off
/// turns that and the instance status buffer off.
static void buildToGPUKernels(OpPassManager &pm, GPUScheduler scheduler,
                              const SchedulerCompileOptions &schedulerOptions,
                              bool countLoopIterations) {
  buildFrontHalfPipeline(pm);
  bool instanceStatus = schedulerOptions.terminationChecks;
  countLoopIterations &= schedulerOptions.terminationChecks;
  auto split = [&] {
    pm.addPass(createCoroSplit());
    pm.addPass(createCoroMaterializeFrame());
    pm.addPass(createCoroPrefixPrintf());
    if (schedulerOptions.profileLanes)
      pm.addPass(createCoroProfileLanes());
  };
  switch (scheduler) {
  case GPUScheduler::Megakernel: {
    CoroPrefixPrintfOptions prefix;
    prefix.megaKernel = true;
    pm.addPass(createCoroPrefixPrintf(prefix));
    if (schedulerOptions.profileLanes) {
      CoroProfileLanesOptions profile;
      profile.megaKernel = true;
      pm.addPass(createCoroProfileLanes(profile));
    }
    CoroMegakernelToGPUOptions options;
    options.instanceStatus = instanceStatus;
    options.countLoopIterations = countLoopIterations;
    pm.addPass(createCoroMegakernelToGPU(options));
    return;
  }
  case GPUScheduler::StateMachine: {
    split();
    CoroStateMachineToGPUOptions options;
    options.stepsPerLaunch = schedulerOptions.stateMachine.stepsPerLaunch;
    options.boundSteps = schedulerOptions.stateMachine.boundSteps;
    options.fallThrough = schedulerOptions.stateMachine.fallThrough;
    options.instanceStatus = instanceStatus;
    options.countLoopIterations = countLoopIterations;
    pm.addPass(createCoroStateMachineToGPU(options));
    return;
  }
  case GPUScheduler::Wavefront: {
    split();
    CoroWavefrontToGPUOptions options = schedulerOptions.wavefront;
    options.countLoopIterations = countLoopIterations;
    pm.addPass(createCoroWavefrontToGPU(options));
    return;
  }
  case GPUScheduler::Persistent: {
    split();
    CoroPersistentToGPUOptions options = schedulerOptions.persistent;
    options.countLoopIterations = countLoopIterations;
    pm.addPass(createCoroPersistentToGPU(options));
    return;
  }
  }
}

void mlir::coro::buildToSPIRVPipeline(OpPassManager &pm, GPUScheduler scheduler,
                                      const SchedulerCompileOptions &options) {
  // Vulkan drivers may end loops that ran long (lavapipe: 65535 iterations
  // per thread in all); coro-run reports an instance that reached that.
  buildToGPUKernels(pm, scheduler, options, /*countLoopIterations=*/true);
  // A Vulkan 1.2 compute target; lavapipe and desktop drivers accept it.
  // SPIR-V 1.3: from 1.4 on, spirv-lower-abi-attrs lists storage buffers
  // as entry point interfaces, while update-vce may lower the module's
  // version below 1.4, where that is invalid. Int64/Float64 and the narrow
  // Int8/Int16/Float16 are only required by kernels that use them (update-vce).
  // Without Int8/Int16/Float16 the conversion emulates those types with 32-bit
  // ones, which neither wraps narrow integers nor keeps the bits of f16
  // (bitcasts, frame fields).
  GpuSPIRVAttachTargetOptions target;
  target.spirvVersion = "v1.3";
  // GroupNonUniform*: the subgroup reductions of coro-profile-lanes and of
  // the wavefront's subgroup appends.
  target.spirvCapabilities = {
      "Shader", "GroupNonUniform", "GroupNonUniformArithmetic",
      "Int64",  "Float64",         "Int8",
      "Int16",  "Float16",         "StorageBuffer16BitAccess"};
  // 16-bit storage: f16 buffers (memref<?xf16> arguments).
  target.spirvExtensions = {"SPV_KHR_storage_buffer_storage_class",
                            "SPV_KHR_16bit_storage"};
  pm.addPass(createGpuSPIRVAttachTarget(target));
  // The SCF to SPIR-V conversion of LLVM 22 leaves the results of an
  // scf.for with iter_args undefined when the loop runs zero times
  // (llvm/llvm-project#211981).
  pm.addNestedPass<gpu::GPUModuleOp>(createForToWhileLoopPass());
  // Its scf.while conversion makes invalid SPIR-V when a condition region
  // holds a loop or a branch, and lavapipe gives lanes that left a loop the
  // values of its header's later passes (test/e2e/known/driver).
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVStructurizeWhile());
  // Nor does its arith conversion take ceil/floor divisions and casts
  // between i1 and index, nor its math conversion atan2, trunc, erf, ...
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVExpandArith());
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVExpandMath());
  // Nor uniform subgroup reductions (the wavefront's subgroup appends).
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVUniformReductions());
  // Nor vector loads and stores on memrefs of scalars, which it lowers
  // through pointer bitcasts Vulkan forbids.
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVScalarizeVectorMemory());
  // lavapipe miscompiles signed 64-bit comparisons with constants
  // (test/e2e/known/driver).
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVUnsignedI64Compares());
  pm.addPass(createCoroSPIRVLocalArrays());
  // Nor does it give vector kernel arguments a storage class, nor i1 and i8
  // ones a valid one.
  pm.addPass(createCoroSPIRVKernelArguments());
  pm.addPass(createCoroSPIRVWorkgroupMemory());
  pm.addPass(createMapMemRefStorageClassPass()); // Vulkan storage classes.
  // Math ops (sqrt, exp, ...) become GLSL extended instructions first; the
  // GPU to SPIR-V conversion does not cover them. The math conversion finds
  // the target (Float64, Float16, ...) only in the spirv.target_env
  // attribute.
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVExposeTargetEnv());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
  // Nor gpu.printf in a Vulkan shader (serializeSPIRV finishes it).
  pm.addNestedPass<gpu::GPUModuleOp>(createCoroSPIRVDebugPrintf());
  // convert-gpu-to-spirv, with exp2 and atomic exchanges, and an error at
  // a buffer size (memref.dim) first.
  pm.addPass(createCoroSPIRVConvertGPU());
  OpPassManager &spirvModules = pm.nest<spirv::ModuleOp>();
  spirvModules.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModules.addPass(createCoroSPIRVRelaxedAtomics());
  spirvModules.addPass(createCoroSPIRVBarrierSemantics());
  CoroSPIRVSubgroupBarriersOptions barriers;
  barriers.subgroupSize = options.subgroupSize;
  spirvModules.addPass(createCoroSPIRVSubgroupBarriers(barriers));
  spirvModules.addPass(createCoroSPIRVMergeWorkgroupVariables());
  spirvModules.addPass(spirv::createSPIRVUpdateVCEPass());
}

/// Whether the CUDA toolkit at `toolkit` has the libdevice MLIR links.
static bool hasLibdevice(StringRef toolkit) {
  SmallString<128> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return !toolkit.empty() && llvm::sys::fs::is_regular_file(path);
}

std::string mlir::coro::findCUDAToolkit() {
  SmallVector<std::string> candidates;
  for (const char *variable : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(variable))
      candidates.push_back(*value);
  // ptxas in <toolkit>/bin, perhaps through a symbolic link.
  if (llvm::ErrorOr<std::string> ptxas =
          llvm::sys::findProgramByName("ptxas")) {
    SmallString<128> real;
    if (!llvm::sys::fs::real_path(*ptxas, real))
      candidates.push_back(
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(real))
              .str());
  }
  candidates.push_back("/usr/local/cuda");
  for (const std::string &candidate : candidates)
    if (hasLibdevice(candidate))
      return candidate;
  return {};
}

std::optional<StringRef> mlir::coro::getPTXVersionFeature(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  // A family-specific chip (sm_100f) needs PTX 8.8, as sm_103 does.
  bool family = chip.consume_back("f");
  if (!family)
    chip.consume_back("a");
  unsigned version = 0;
  if (chip.getAsInteger(10, version) || version < 20)
    return std::nullopt;
  // The lowest PTX version that has each chip: LLVM aborts below it, and the
  // default (PTX 6.0) is below sm_90's.
  if (version <= 90 && !family)
    return StringRef("+ptx80");
  switch (version) {
  case 100:
  case 101:
    return StringRef(family ? "+ptx88" : "+ptx86");
  case 120:
    return StringRef(family ? "+ptx88" : "+ptx87");
  case 103:
  case 121:
    return StringRef("+ptx88");
  case 110:
    return StringRef("+ptx90");
  default:
    return std::nullopt;
  }
}

bool mlir::coro::isNVVMChip(StringRef chip) {
  return getPTXVersionFeature(chip).has_value();
}

void mlir::coro::buildToPTXPipeline(OpPassManager &pm, GPUScheduler scheduler,
                                    StringRef chip,
                                    const SchedulerCompileOptions &options,
                                    StringRef cudaToolkit) {
  std::string toolkit =
      cudaToolkit.empty() ? findCUDAToolkit() : cudaToolkit.str();
  // Without libdevice, coro-nvvm-native-math reports the math ops that need
  // it (gpu-module-to-binary would report only a missing file).
  if (!hasLibdevice(toolkit))
    toolkit.clear();
  // CUDA has no indirect dispatch: wavefront kernels stride over their
  // queues with a grid sized for the GPU rather than being launched with
  // the upper bound of their queues each round.
  SchedulerCompileOptions cudaOptions = options;
  cudaOptions.wavefront.gridStride = true;
  // Subgroup appends reduce over whole warps (redux.sync or shuffles with
  // the full mask): a workgroup with a partial warp would name lanes that
  // do not exist, so such kernels append one slot at a time.
  if (cudaOptions.wavefront.workgroupSize % 32 != 0)
    cudaOptions.wavefront.subgroupAppends = false;
  buildToGPUKernels(pm, scheduler, cudaOptions, /*countLoopIterations=*/false);
  GpuNVVMAttachTargetOptions target;
  target.chip = chip.str();
  target.features = getPTXVersionFeature(chip).value_or("+ptx80").str();
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createCoroNVVMSubgroupOps());
  kernels.addPass(createCoroNVVMLowerVectorOps());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCoroNVVMAlignGlobals());
  kernels.addPass(createCoroNVVMUnpackF64());
  CoroNVVMNativeMathOptions math;
  math.libdevice = !toolkit.empty();
  kernels.addPass(createCoroNVVMNativeMath(math));
  kernels.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa"; // PTX text: needs no CUDA installation.
  binary.toolkitPath = toolkit;     // Where libdevice is linked from.
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void SchedulerOptions::applyTo(SchedulerCompileOptions &options) const {
  // Layout and fall-through serve two schedulers each.
  if (layout.hasValue()) {
    options.wavefront.layout = layout;
    options.persistent.layout = layout;
  }
  if (sortBy.hasValue())
    options.wavefront.sortBy = sortBy;
  if (hintBuckets.hasValue())
    options.wavefront.hintBuckets = hintBuckets;
  if (wavefrontDesign.hasValue())
    options.wavefront.design = wavefrontDesign;
  if (wavefrontGridStride.hasValue())
    options.wavefront.gridStride = wavefrontGridStride;
  if (wavefrontWorkgroupSize.hasValue())
    options.wavefront.workgroupSize = wavefrontWorkgroupSize;
  if (wavefrontSubgroupAppends.hasValue())
    options.wavefront.subgroupAppends = wavefrontSubgroupAppends;
  if (wavefrontTailBelow.hasValue())
    options.wavefront.tailBelow = wavefrontTailBelow;
  // Steps given replace the device's bounded steps.
  if (stateMachineSteps.hasValue()) {
    options.stateMachine.stepsPerLaunch = stateMachineSteps;
    options.stateMachine.boundSteps = false;
  }
  if (fallThrough.hasValue()) {
    options.stateMachine.fallThrough = fallThrough;
    options.persistent.fallThrough = fallThrough;
  }
  // A workgroup size given alone takes the default batch, not one a device
  // policy chose for its own workgroup size.
  if (persistentWorkgroupSize.hasValue()) {
    options.persistent.workgroupSize = persistentWorkgroupSize;
    options.persistent.batch = CoroPersistentToGPUOptions().batch;
  }
  if (persistentBatch.hasValue())
    options.persistent.batch = persistentBatch;
  if (persistentSharedMemory.hasValue())
    options.persistent.sharedMemory = persistentSharedMemory;
  if (persistentSwapFrames.hasValue())
    options.persistent.swapFrames = persistentSwapFrames;
  // Steps given replace the device's bounded steps.
  if (persistentSteps.hasValue()) {
    options.persistent.stepsPerLaunch = persistentSteps;
    options.persistent.boundSteps = false;
  }
  if (terminationChecks.hasValue())
    options.terminationChecks = terminationChecks;
  if (profileLanes.hasValue())
    options.profileLanes = profileLanes;
}

std::string SchedulerOptions::checkValues() const {
  constexpr int64_t kBelow2To31 = int64_t(1) << 31;
  struct Range {
    const Option<int64_t> &option;
    int64_t min, max;
    const char *text;
  };
  // The ranges the scheduler passes accept (their own checks stay: they
  // also run without a driver).
  const Range ranges[] = {
      {hintBuckets, 1, kBelow2To31 - 1, "[1, 2^31)"},
      {wavefrontWorkgroupSize, 1, kBelow2To31 - 1, "[1, 2^31)"},
      {stateMachineSteps, 0, kBelow2To31 - 1, "[0, 2^31)"},
      {persistentWorkgroupSize, 1, kBelow2To31 - 1, "[1, 2^31)"},
      {persistentBatch, 1, int64_t(1) << 20, "[1, 2^20]"},
      {persistentSharedMemory, 0, kBelow2To31 - 1, "[0, 2^31)"},
      {persistentSteps, 0, kBelow2To31 - 1, "[0, 2^31)"}};
  for (const Range &range : ranges) {
    int64_t value = range.option;
    if (range.option.hasValue() && (value < range.min || value > range.max))
      return (range.option.ArgStr + " must be in " + range.text + ", got " +
              llvm::Twine(value))
          .str();
  }
  return {};
}

void SchedulerOptions::addToCommandLine(
    llvm::function_ref<void(llvm::cl::Option &)> categorize) {
  // Registered in this struct's subcommand when constructed, each option is
  // registered again in the top-level one as well: the same object then
  // takes `--name=value` from the command line and `name=value` from text.
  SmallVector<llvm::cl::Option *> options;
  for (auto &entry : OptionsMap)
    options.push_back(entry.second);
  for (llvm::cl::Option *option : options) {
    option->removeArgument();
    option->addSubCommand(llvm::cl::SubCommand::getTopLevel());
    categorize(*option);
    option->addArgument();
  }
}

void mlir::coro::registerCoroPipelines() {
  PassPipelineRegistration<SPIRVPipelineOptions>(
      "coro-to-spirv",
      "Coroutines to Vulkan SPIR-V with a GPU scheduler (front half, "
      "materialization, gpu to spirv); follow with coro-write-kernels to "
      "write the binaries",
      [](OpPassManager &pm, const SPIRVPipelineOptions &options) {
        SchedulerCompileOptions schedulerOptions;
        options.applyTo(schedulerOptions);
        schedulerOptions.subgroupSize = options.subgroupSize;
        buildToSPIRVPipeline(pm, options.scheduler, schedulerOptions);
      });
  // Registered by hand rather than with PassPipelineRegistration, to reject
  // a chip NVVM does not know before any pass runs.
  registerPassPipeline(
      "coro-to-ptx",
      "Coroutines to PTX with a GPU scheduler (front half, materialization, "
      "gpu to nvvm, gpu-module-to-binary with format=isa); follow with "
      "coro-write-kernels to write the .ptx files",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        PTXPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (!isNVVMChip(options.chip))
          return errorHandler("coro-to-ptx: chip '" + options.chip +
                              "' is not an NVIDIA architecture this "
                              "pipeline targets; use sm_<major><minor>, "
                              "e.g. sm_90 (sm_20 to sm_90, sm_100, sm_101, "
                              "sm_103, sm_110, sm_120, sm_121)");
        SchedulerCompileOptions schedulerOptions;
        options.applyTo(schedulerOptions);
        buildToPTXPipeline(pm, options.scheduler, options.chip,
                           schedulerOptions, options.cudaToolkit);
        return success();
      },
      [](function_ref<void(const ::mlir::detail::PassOptions &)> printOptions) {
        printOptions(PTXPipelineOptions());
      });
}

//===- HostLaunchesToGPU.cpp - compile what a host program launches -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compiles the coroutines that a host program's coro.launch ops start (each
// under its scheduler) and its gpu.modules into gpu.binary ops whose objects
// the CoroGPU runtime wrappers read (CoroGPU/Runner/HostKernels.h), and
// turns the coro.launch ops into gpu.launch_func ops of them. What remains
// is host code that upstream's gpu-to-llvm lowers.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "CoroGPU/HostPrograms/Passes.h"
#include "CoroGPU/Pipelines/Pipelines.h"
#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Runner/CompilePolicy.h"
#include "CoroGPU/Runner/HostKernels.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROHOSTLAUNCHESTOGPU
#include "CoroGPU/HostPrograms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-host-launches-to-gpu"

using namespace mlir;
using namespace mlir::coro;

namespace {

struct CoroHostLaunchesToGPUPass
    : public coro::impl::CoroHostLaunchesToGPUBase<CoroHostLaunchesToGPUPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// The attribute that marks an object for `target` (only its kind
  /// matters: gpu.binary picks the object of the target it runs on).
  Attribute getObjectTarget();
  /// A gpu.binary named like `name` (made unique) holding `descriptor` and
  /// `image`, before `before`.
  gpu::BinaryOp createBinary(Operation *before, StringRef name,
                             ArrayAttr descriptor, StringRef image);
  /// The binary that runs `coroutine` under `scheduler`.
  FailureOr<gpu::BinaryOp> compileCoroutine(FuncOp coroutine,
                                            GPUScheduler scheduler,
                                            Location launchLoc);
  /// Replaces `kernels` by a gpu.binary of the same name.
  LogicalResult compileKernels(gpu::GPUModuleOp kernels);
  /// Replaces each `coro.handle.frame_words` of the host code by the size
  /// that the device code of the coroutines driving those frames uses.
  LogicalResult resolveFrameWords();
  /// A copy of the module's device code: no host code, no gpu.modules.
  OwningOpRef<ModuleOp> cloneDeviceCode();

  /// A located error at `op` for each memref input of `type` that a host
  /// program cannot pass (runner::checkHostMemRef).
  LogicalResult checkMemRefArguments(Operation *op, FunctionType type) {
    bool valid = true;
    for (auto [index, input] : llvm::enumerate(type.getInputs()))
      if (auto memref = dyn_cast<MemRefType>(input))
        if (std::string why = runner::checkHostMemRef(memref, target);
            !why.empty()) {
          op->emitError("argument #") << index << ": " << why;
          valid = false;
        }
    return success(valid);
  }

  /// Located errors for device code that calls host code, and for host
  /// code that drives frames itself (only coro.handle.frame_words may size
  /// them there).
  LogicalResult checkHostAndDeviceCode();

  /// The host functions (runner::collectHostFunctions), found first.
  llvm::StringSet<> hostFunctions;

  /// The schedulers' options for `device`, as coro-run chooses them;
  /// set by runOnOperation.
  SchedulerCompileOptions compileOptions;
};

} // namespace

Attribute CoroHostLaunchesToGPUPass::getObjectTarget() {
  MLIRContext *context = &getContext();
  if (target.isSPIRV())
    return parseAttribute("#spirv.target_env<#spirv.vce<v1.3, [Shader], []>, "
                          "#spirv.resource_limits<>>",
                          context);
  return parseAttribute("#nvvm.target<chip = \"" + target.getChip() + "\">",
                        context);
}

gpu::BinaryOp CoroHostLaunchesToGPUPass::createBinary(Operation *before,
                                                      StringRef name,
                                                      ArrayAttr descriptor,
                                                      StringRef image) {
  OpBuilder builder(before);
  std::string object = runner::encodeHostKernels(descriptor, image);
  auto objectAttr = gpu::ObjectAttr::get(
      getObjectTarget(), gpu::CompilationTarget::Binary,
      builder.getStringAttr(object), /*properties=*/nullptr,
      /*kernels=*/nullptr);
  auto binary = gpu::BinaryOp::create(builder, before->getLoc(), name,
                                      /*offloadingHandler=*/nullptr,
                                      builder.getArrayAttr({objectAttr}));
  return binary;
}

FailureOr<gpu::BinaryOp> CoroHostLaunchesToGPUPass::compileCoroutine(
    FuncOp coroutine, GPUScheduler scheduler, Location launchLoc) {
  StringRef name = coroutine.getSymName();
  // A module of the device code this coroutine needs: no host code, no
  // other kernels, no coroutine it does not reach.
  OwningOpRef<ModuleOp> device = cloneDeviceCode();
  auto copy = device->lookupSymbol<FuncOp>(name);
  runner::eraseUnreachableCoroutines(*device, copy);

  std::string image;
  Attribute plan;
  if (failed(runner::compileForTarget(*device, name, scheduler, target,
                                      compileOptions, image, &plan))) {
    InFlightDiagnostic error =
        emitError(launchLoc) << "compiling @" << name << " under the "
                             << getGPUSchedulerName(scheduler) << " scheduler";
    if (target.isPTX())
      error << " for " << target.getValue().str();
    return error << " failed (see above)";
  }
  auto descriptor = plan::HostCoroutineAttr::get(
      &getContext(), name, coroutine.getFunctionType(), target, plan);
  std::string binaryName = (name + "__" + getGPUSchedulerName(scheduler)).str();
  std::replace(binaryName.begin(), binaryName.end(), '-', '_');
  ++numCoroutineBinaries;
  return createBinary(coroutine, binaryName,
                      ArrayAttr::get(&getContext(), {descriptor}), image);
}

LogicalResult
CoroHostLaunchesToGPUPass::compileKernels(gpu::GPUModuleOp kernels) {
  MLIRContext *context = &getContext();
  // Each kernel's workgroup size, which SPIR-V fixes in the kernel.
  SmallVector<Attribute> descriptor;
  bool valid = true;
  for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
    if (!kernel.isKernel())
      continue;
    if (failed(checkMemRefArguments(kernel, kernel.getFunctionType()))) {
      valid = false;
      continue;
    }
    SmallVector<int32_t, 3> workgroup;
    spirv::EntryPointABIAttr abi = spirv::lookupEntryPointABI(kernel);
    if (abi && abi.getWorkgroupSize()) {
      llvm::append_range(workgroup, abi.getWorkgroupSize().asArrayRef());
    } else if (DenseI32ArrayAttr known = kernel.getKnownBlockSizeAttr()) {
      llvm::append_range(workgroup, known.asArrayRef());
    } else {
      kernel.emitError("kernel @")
          << kernel.getName()
          << " of a host program needs its workgroup size: add "
             "known_block_size = array<i32: X, Y, Z> (the kernels of SPIR-V "
             "targets fix it)";
      valid = false;
      continue;
    }
    workgroup.resize(3, 1);
    if (target.isSPIRV() && !spirv::lookupEntryPointABI(kernel))
      kernel->setAttr(spirv::getEntryPointABIAttrName(),
                      spirv::getEntryPointABIAttr(context, workgroup));
    descriptor.push_back(plan::HostKernelAttr::get(
        context, kernel.getName(), kernel.getFunctionType(), target,
        DenseI32ArrayAttr::get(context, workgroup)));
  }
  if (!valid)
    return failure();
  // A module without kernels has nothing to launch.
  if (descriptor.empty()) {
    kernels.erase();
    return success();
  }

  // The gpu.module alone, through the target passes of the pipelines.
  OpBuilder builder(context);
  OwningOpRef<ModuleOp> device = ModuleOp::create(kernels.getLoc());
  (*device)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                     builder.getUnitAttr());
  builder.setInsertionPointToEnd(device->getBody());
  builder.clone(*kernels);
  std::string image;
  if (failed(runner::compileForTarget(*device, /*coroutine=*/"",
                                      GPUScheduler::Megakernel, target, {},
                                      image)))
    return kernels.emitError("compiling the kernels of @")
           << kernels.getName() << " for " << target.getValue().str()
           << " failed (see above)";
  StringRef name = kernels.getName();
  std::string binaryName = name.str();
  kernels->setAttr(SymbolTable::getSymbolAttrName(),
                   builder.getStringAttr(binaryName + "__source"));
  createBinary(kernels, binaryName, builder.getArrayAttr(descriptor), image);
  kernels.erase();
  ++numKernelBinaries;
  return success();
}

OwningOpRef<ModuleOp> CoroHostLaunchesToGPUPass::cloneDeviceCode() {
  OwningOpRef<ModuleOp> device = getOperation().clone();
  runner::eraseHostFunctions(*device);
  for (Operation &op : llvm::make_early_inc_range(device->getOps()))
    if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      op.erase();
  return device;
}

LogicalResult CoroHostLaunchesToGPUPass::checkHostAndDeviceCode() {
  bool valid = true;
  for (Operation &op : getOperation().getOps()) {
    auto function = dyn_cast<func::FuncOp>(op);
    bool host = function && hostFunctions.contains(function.getSymName());
    if (!host && !isa<func::FuncOp, FuncOp>(op))
      continue;
    op.walk([&](Operation *nested) {
      if (auto call = dyn_cast<func::CallOp>(nested);
          call && !host && hostFunctions.contains(call.getCallee())) {
        call.emitError("device code calls @")
            << call.getCallee()
            << ", which is host code (it launches, or calls what does): "
               "kernels cannot launch";
        valid = false;
      }
      if (host && getDrivenCoroutine(nested) &&
          !isa<HandleFrameWordsOp>(nested)) {
        nested->emitOpError("drives frames in host code, whose memory the "
                            "device does not see; drive them from a "
                            "coroutine the host launches (only "
                            "coro.handle.frame_words, to size a buffer of "
                            "frames, is host code)");
        valid = false;
      }
    });
  }
  return success(valid);
}

LogicalResult CoroHostLaunchesToGPUPass::resolveFrameWords() {
  SmallVector<HandleFrameWordsOp> sizes;
  for (auto function : getOperation().getOps<func::FuncOp>())
    function.walk([&](HandleFrameWordsOp size) { sizes.push_back(size); });
  if (sizes.empty())
    return success();
  // The frames a host program keeps in buffers are those of coroutines
  // that device code drives with coro.handle ops; their layout is what the
  // front half of every compilation (coro-resolve-handles) gives them, with
  // no option that depends on the scheduler or the target.
  OwningOpRef<ModuleOp> device = cloneDeviceCode();
  PassManager pm(&getContext());
  buildFrontHalfPipeline(pm);
  if (failed(pm.run(*device)))
    return sizes.front().emitError("computing the frame size of @")
           << sizes.front().getCoroutine() << " failed (see above)";
  llvm::StringMap<int64_t> frameWords;
  for (SplitOp split : device->getOps<SplitOp>())
    frameWords[split.getCoroutine()] = split.getFrameWords();
  for (HandleFrameWordsOp size : sizes) {
    auto found = frameWords.find(size.getCoroutine());
    if (found == frameWords.end())
      return size.emitError("the frames of @")
             << size.getCoroutine()
             << " have no layout: no coroutine of this program drives them "
                "with coro.handle ops";
    OpBuilder builder(size);
    size.replaceAllUsesWith(
        arith::ConstantIndexOp::create(builder, size.getLoc(), found->second)
            .getResult());
    size.erase();
  }
  return success();
}

void CoroHostLaunchesToGPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (target.isPTX() && !isNVVMChip(target.getChip())) {
    module.emitError("coro-host-launches-to-gpu: target ")
        << target.getValue().str()
        << " is not an NVIDIA chip NVVM compiles for";
    return signalPassFailure();
  }
  std::unique_ptr<SchedulerPipelineOptions> givenOptions =
      SchedulerPipelineOptions::createFromString(schedulerOptions);
  if (!givenOptions) {
    module.emitError("coro-host-launches-to-gpu: scheduler-options='")
        << schedulerOptions
        << "' is not a list of the schedulers' options (see "
           "coro-to-spirv's in --help)";
    return signalPassFailure();
  }
  if (std::string error = givenOptions->checkValues(); !error.empty()) {
    module.emitError("coro-host-launches-to-gpu: scheduler-options: ") << error;
    return signalPassFailure();
  }
  llvm::Expected<runner::DeviceTraits> traits =
      runner::parseDeviceTraits(device, target);
  if (!traits) {
    module.emitError("coro-host-launches-to-gpu: ")
        << llvm::toString(traits.takeError());
    return signalPassFailure();
  }
  compileOptions = runner::getCompileOptions(*traits, *givenOptions);

  hostFunctions = runner::collectHostFunctions(module);
  if (failed(checkHostAndDeviceCode()) || failed(resolveFrameWords()))
    return signalPassFailure();

  // The launches, each with its scheduler.
  SmallVector<std::pair<LaunchOp, GPUScheduler>> launches;
  bool valid = true;
  for (auto function : module.getOps<func::FuncOp>())
    function.walk([&](LaunchOp launch) {
      std::optional<GPUScheduler> chosen = scheduler.getValue();
      if (Attribute attr = launch->getAttr("scheduler")) {
        auto name = dyn_cast<StringAttr>(attr);
        chosen = name ? parseGPUScheduler(name.getValue()) : std::nullopt;
        if (!chosen) {
          launch.emitOpError("has scheduler ")
              << attr
              << "; use \"megakernel\", \"state-machine\", \"wavefront\" or "
                 "\"persistent\"";
          valid = false;
          return;
        }
      }
      launches.emplace_back(launch, *chosen);
    });
  if (!valid)
    return signalPassFailure();

  // Each coroutine compiled once per scheduler it runs under.
  SymbolTable symbols(module);
  llvm::StringMap<gpu::BinaryOp> binaries;
  for (auto [launch, chosen] : launches) {
    auto coroutine = symbols.lookup<FuncOp>(launch.getCallee());
    if (failed(checkMemRefArguments(launch, coroutine.getFunctionType())))
      return signalPassFailure();
    std::string key =
        (launch.getCallee() + "/" + getGPUSchedulerName(chosen)).str();
    gpu::BinaryOp &binary = binaries[key];
    if (!binary) {
      FailureOr<gpu::BinaryOp> compiled =
          compileCoroutine(coroutine, chosen, launch.getLoc());
      if (failed(compiled))
        return signalPassFailure();
      binary = *compiled;
      symbols.insert(binary);
    }
    LDBG() << "launch of @" << launch.getCallee() << " under "
           << getGPUSchedulerName(chosen) << " runs @" << binary.getSymName();
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    SmallVector<Value, 3> grid(launch.getGrid());
    grid.resize(3, one);
    auto kernel = SymbolRefAttr::get(
        binary.getSymNameAttr(),
        {FlatSymbolRefAttr::get(builder.getStringAttr(launch.getCallee()))});
    gpu::LaunchFuncOp::create(
        builder, loc, kernel, gpu::KernelDim3{grid[0], grid[1], grid[2]},
        gpu::KernelDim3{one, one, one},
        /*dynamicSharedMemorySize=*/Value(), launch.getArgs());
    launch.erase();
    ++numLaunches;
  }

  for (auto kernels :
       llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
    if (failed(compileKernels(kernels)))
      return signalPassFailure();
  // The coroutines live on in the binaries; the host code no longer needs
  // them (or the plans and splits a pass may have left).
  for (Operation &op : llvm::make_early_inc_range(module.getOps()))
    if (isa<FuncOp, SplitOp>(op))
      op.erase();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(&getContext()));
}

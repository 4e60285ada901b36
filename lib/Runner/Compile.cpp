//===- Compile.cpp - compile one coroutine for a run ----------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "CoroGPU/Target/SerializeSPIRV.h"
#include "CoroGPU/Transforms/Passes.h"
#include "corogpu/runtime/SPIRVValidation.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;
namespace rt = corogpu::runtime;

void mlir::coro::runner::eraseUnreachableCoroutines(ModuleOp module,
                                                    FuncOp entry) {
  SymbolTable symbols(module);
  llvm::SetVector<Operation *> reached;
  reached.insert(entry);
  for (size_t next = 0; next < reached.size(); ++next) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(reached[next]);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses)
      if (Operation *symbol =
              symbols.lookup(use.getSymbolRef().getRootReference()))
        reached.insert(symbol);
  }
  // One that something left still names (a coro.split, another unreachable
  // coroutine) goes once that is gone, or stays.
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation &op : llvm::make_early_inc_range(module.getOps()))
      if (isa<coro::FuncOp, func::FuncOp>(op) && !reached.contains(&op) &&
          SymbolTable::symbolKnownUseEmpty(&op, module)) {
        op.erase();
        erased = true;
      }
  }
}

llvm::StringSet<> mlir::coro::runner::collectHostFunctions(ModuleOp module) {
  llvm::StringSet<> host;
  auto isHostCode = [&](Operation *op) {
    if (isa<LaunchOp, gpu::LaunchFuncOp>(op))
      return true;
    auto call = dyn_cast<func::CallOp>(op);
    return call && host.contains(call.getCallee());
  };
  // Until no function joins: a caller of host code may come before it.
  for (bool grew = true; grew;) {
    grew = false;
    for (auto function : module.getOps<func::FuncOp>())
      if (!host.contains(function.getSymName()) &&
          function
              .walk([&](Operation *op) {
                return isHostCode(op) ? WalkResult::interrupt()
                                      : WalkResult::advance();
              })
              .wasInterrupted()) {
        host.insert(function.getSymName());
        grew = true;
      }
  }
  return host;
}

void mlir::coro::runner::eraseHostFunctions(ModuleOp module) {
  llvm::StringSet<> host = collectHostFunctions(module);
  for (auto function :
       llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (host.contains(function.getSymName()))
      function.erase();
}

FailureOr<BoundsCheckAttr> mlir::coro::runner::prepareToRun(ModuleOp module,
                                                            FuncOp coroutine,
                                                            bool checkBounds) {
  // The runtime launches the coroutine itself: host code is not compiled
  // (the wavefront scheduler could not lower its launches anyway), nor are
  // the coroutines it does not reach (a module of several kernels compiles
  // one at a time; one that does not compile does not stop the others, and
  // one that drives this one does not have it split before).
  eraseHostFunctions(module);
  eraseUnreachableCoroutines(module, coroutine);
  if (!checkBounds)
    return BoundsCheckAttr();
  // Checked after the front half, so that the code its handles and
  // generator loops run is inlined and checked too.
  PassManager pm(module.getContext());
  buildFrontHalfPipeline(pm);
  CoroCheckBoundsOptions options;
  options.coroutines = {coroutine.getSymName().str()};
  pm.addPass(createCoroCheckBounds(options));
  if (failed(pm.run(module)))
    return failure();
  return coroutine->getAttrOfType<BoundsCheckAttr>(BoundsCheckAttr::kAttrName);
}

SortKeys mlir::coro::runner::findSortKeys(FuncOp coroutine, StringRef key) {
  auto isKeyType = [](Type type) {
    return type.isIndex() || type.isSignlessInteger();
  };
  SortKeys found;
  llvm::SetVector<StringRef> keys;
  auto collect = [&](FuncOp function) {
    function.walk([&](PromiseOp promise) {
      Type type = promise.getValue().getType();
      if (isKeyType(type))
        keys.insert(promise.getName());
      else if (promise.getName() == key)
        found.keyType = type;
    });
    if (std::optional<Type> yielded = function.getYieldType()) {
      if (isKeyType(*yielded))
        keys.insert(kYieldedValueField);
      else if (key == kYieldedValueField)
        found.keyType = *yielded;
    }
  };
  auto module = coroutine->getParentOfType<ModuleOp>();
  llvm::SetVector<FuncOp> reached;
  reached.insert(coroutine);
  for (size_t next = 0; next < reached.size(); ++next) {
    collect(reached[next]);
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(reached[next]))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = module.lookupSymbol<FuncOp>(
                use.getSymbolRef().getRootReference()))
          reached.insert(callee);
  }
  for (StringRef each : keys)
    found.keys.push_back(each.str());
  return found;
}

GPUScheduler mlir::coro::runner::getPlanScheduler(Attribute planAttr) {
  namespace plan = coro::plan;
  if (isa<plan::StateMachinePlanAttr>(planAttr))
    return GPUScheduler::StateMachine;
  if (isa<plan::WavefrontPlanAttr>(planAttr))
    return GPUScheduler::Wavefront;
  if (isa<plan::PersistentPlanAttr>(planAttr))
    return GPUScheduler::Persistent;
  return GPUScheduler::Megakernel;
}

FailureOr<Attribute>
mlir::coro::runner::getSchedulerPlan(ModuleOp module, StringRef coroutineName,
                                     GPUScheduler scheduler) {
  namespace plan = coro::plan;
  auto erase = [](auto found) -> FailureOr<Attribute> {
    if (failed(found))
      return failure();
    return Attribute(*found);
  };
  switch (scheduler) {
  case GPUScheduler::Megakernel:
    return erase(
        plan::lookupPlan<plan::MegakernelPlanAttr>(module, coroutineName));
  case GPUScheduler::StateMachine:
    return erase(
        plan::lookupPlan<plan::StateMachinePlanAttr>(module, coroutineName));
  case GPUScheduler::Wavefront:
    return erase(
        plan::lookupPlan<plan::WavefrontPlanAttr>(module, coroutineName));
  case GPUScheduler::Persistent:
    return erase(
        plan::lookupPlan<plan::PersistentPlanAttr>(module, coroutineName));
  }
  llvm_unreachable("unknown scheduler");
}

/// A copy of `module` through the pipeline `buildPipeline` builds, the plan
/// `scheduler` left for `coroutineName` in `plan` and its lane profile in
/// `laneProfile` (if given); null after an error.
static OwningOpRef<ModuleOp>
compileCopy(ModuleOp module, StringRef coroutineName, GPUScheduler scheduler,
            Attribute *plan, LaneProfileAttr *laneProfile,
            function_ref<void(OpPassManager &)> buildPipeline) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  buildPipeline(pm);
  if (failed(pm.run(*copy)))
    return nullptr;
  if (plan) {
    FailureOr<Attribute> found =
        getSchedulerPlan(*copy, coroutineName, scheduler);
    if (failed(found))
      return nullptr;
    *plan = *found;
  }
  if (laneProfile)
    *laneProfile = LaneProfileAttr::lookup(*copy, coroutineName);
  return copy;
}

LogicalResult mlir::coro::runner::compileToSPIRV(
    ModuleOp module, StringRef coroutineName, GPUScheduler scheduler,
    const SchedulerCompileOptions &options, std::vector<uint32_t> &words,
    OwningOpRef<ModuleOp> *lowered, Attribute *plan,
    LaneProfileAttr *laneProfile) {
  OwningOpRef<ModuleOp> copy = compileCopy(
      module, coroutineName, scheduler, plan, laneProfile,
      [&](OpPassManager &pm) { buildToSPIRVPipeline(pm, scheduler, options); });
  if (!copy)
    return failure();
  llvm::scope_exit keep([&] {
    if (lowered)
      *lowered = std::move(copy);
  });
  auto spirvModules = copy->getOps<spirv::ModuleOp>();
  if (spirvModules.empty())
    return failure();
  SmallVector<uint32_t> binary;
  if (failed(coro::serializeSPIRV(*spirvModules.begin(), binary)))
    return failure();
  words.assign(binary.begin(), binary.end());
  // Never hand an invalid module to a driver; say which coroutine and
  // scheduler made it (the words are still returned, for --emit).
  if (rt::Status valid = rt::validateSPIRV(words.data(), words.size());
      !valid.ok()) {
    Operation *coroutine = module.lookupSymbol(coroutineName);
    InFlightDiagnostic error =
        emitError(coroutine ? coroutine->getLoc() : module.getLoc());
    if (coroutine)
      error << "the SPIR-V generated for this coroutine under the "
            << getGPUSchedulerName(scheduler) << " scheduler";
    else
      error << "the SPIR-V generated for these kernels";
    error << " is invalid, so it is not run (please report it: CoroGPU "
             "should have made valid code or rejected the program): "
          << valid.error;
    return failure();
  }
  return success();
}

LogicalResult mlir::coro::runner::compileToPTX(
    ModuleOp module, StringRef coroutineName, GPUScheduler scheduler,
    StringRef chipName, const SchedulerCompileOptions &options,
    std::string &ptx, Attribute *plan, LaneProfileAttr *laneProfile) {
  OwningOpRef<ModuleOp> copy =
      compileCopy(module, coroutineName, scheduler, plan, laneProfile,
                  [&](OpPassManager &pm) {
                    buildToPTXPipeline(pm, scheduler, chipName, options);
                  });
  if (!copy)
    return failure();
  for (auto binary : copy->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      ptx += cast<gpu::ObjectAttr>(object).getObject().getValue().str();
  return success(!ptx.empty());
}

LogicalResult mlir::coro::runner::compileForTarget(
    ModuleOp module, StringRef coroutine, GPUScheduler scheduler,
    const KernelTarget &target, const SchedulerCompileOptions &options,
    std::string &image, Attribute *plan, LaneProfileAttr *laneProfile) {
  if (target.isPTX())
    return compileToPTX(module, coroutine, scheduler, target.getChip(), options,
                        image, plan, laneProfile);
  std::vector<uint32_t> words;
  if (failed(compileToSPIRV(module, coroutine, scheduler, options, words,
                            nullptr, plan, laneProfile)))
    return failure();
  image.assign(reinterpret_cast<const char *>(words.data()),
               words.size() * sizeof(uint32_t));
  return success();
}

FailureOr<CompiledCoroutine> mlir::coro::runner::compileCoroutine(
    ModuleOp module, StringRef coroutine, GPUScheduler scheduler,
    const KernelTarget &target, const SchedulerCompileOptions &options) {
  CompiledCoroutine compiled;
  compiled.coroutine = coroutine.str();
  compiled.scheduler = scheduler;
  compiled.target = target;
  compiled.fallThrough =
      (scheduler == GPUScheduler::StateMachine &&
       options.stateMachine.fallThrough) ||
      (scheduler == GPUScheduler::Persistent && options.persistent.fallThrough);
  if (failed(compileForTarget(module, coroutine, scheduler, target, options,
                              compiled.image, &compiled.plan,
                              &compiled.laneProfile)))
    return failure();
  return compiled;
}

//===- RuntimePlans.cpp - plans in the runtime's structs ------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Plan/RuntimePlans.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::coro::plan;
namespace rt = corogpu::runtime;

rt::InstanceKernelPlan mlir::coro::plan::toRuntimePlan(MegakernelPlanAttr plan,
                                                       StringRef coroutine) {
  rt::InstanceKernelPlan kernel;
  kernel.kernel = coroutine.str();
  kernel.workgroupSize = plan.getWorkgroupSize();
  return kernel;
}

rt::InstanceKernelPlan
mlir::coro::plan::toRuntimePlan(StateMachinePlanAttr plan,
                                StringRef coroutine) {
  // The same kernel launch as the mega-kernel's, in bounded steps maybe.
  rt::InstanceKernelPlan kernel = toRuntimePlan(
      MegakernelPlanAttr::get(plan.getContext(), plan.getWorkgroupSize()),
      coroutine);
  kernel.stepsPerLaunch = plan.getStepsPerLaunch();
  kernel.frameWords = plan.getFrameWords();
  return kernel;
}

rt::WavefrontPlan mlir::coro::plan::toRuntimePlan(WavefrontPlanAttr plan,
                                                  StringRef coroutine) {
  rt::WavefrontPlan wavefront;
  wavefront.coroutine = coroutine.str();
  wavefront.tokens = plan.getTokens();
  wavefront.categories = plan.getCategories();
  wavefront.frameWords = plan.getFrameWords();
  // The verifier accepts only the layouts the runtime has.
  wavefront.layout = plan.getLayout();
  wavefront.workgroupSize = plan.getWorkgroupSize();
  wavefront.queues = plan.getDesign() == rt::wavefront::Design::Queues;
  wavefront.gridStride = plan.getGridStride();
  wavefront.tailBelowPercent = plan.getTailBelow();
  return wavefront;
}

rt::PersistentPlan mlir::coro::plan::toRuntimePlan(PersistentPlanAttr plan,
                                                   StringRef coroutine) {
  rt::PersistentPlan persistent;
  persistent.coroutine = coroutine.str();
  persistent.tokens = plan.getTokens();
  persistent.frameWords = plan.getFrameWords();
  persistent.layout = plan.getLayout();
  persistent.workgroupSize = plan.getWorkgroupSize();
  persistent.batch = plan.getBatch();
  persistent.sharedSlots = plan.getSharedSlots();
  persistent.workgroupBytes = plan.getWorkgroupBytes();
  persistent.stepsPerLaunch = plan.getStepsPerLaunch();
  return persistent;
}

ArrayAttr mlir::coro::plan::getSubroutineNames(Attribute plan) {
  return llvm::TypeSwitch<Attribute, ArrayAttr>(plan)
      .Case<StateMachinePlanAttr, WavefrontPlanAttr, PersistentPlanAttr>(
          [](auto split) { return split.getSubroutines(); })
      .Default([](Attribute) { return ArrayAttr(); });
}

//===- RuntimePlans.h - plans in the runtime's structs ----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one decoder of the coro_plan attributes: each plan as the struct the
// runtime's launch loops take (corogpu/runtime/*.h, which know nothing of
// MLIR). coro-run and the runtime's tests read plans through it.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_PLAN_RUNTIMEPLANS_H
#define COROGPU_DIALECT_PLAN_RUNTIMEPLANS_H

#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "corogpu/runtime/InstanceKernel.h"
#include "corogpu/runtime/Persistent.h"
#include "corogpu/runtime/Wavefront.h"

namespace mlir {
namespace coro {
namespace plan {

/// The kernel of a mega-kernel or state-machine plan, named after
/// `coroutine`.
corogpu::runtime::InstanceKernelPlan toRuntimePlan(MegakernelPlanAttr plan,
                                                   StringRef coroutine);
corogpu::runtime::InstanceKernelPlan toRuntimePlan(StateMachinePlanAttr plan,
                                                   StringRef coroutine);
corogpu::runtime::WavefrontPlan toRuntimePlan(WavefrontPlanAttr plan,
                                              StringRef coroutine);
corogpu::runtime::PersistentPlan toRuntimePlan(PersistentPlanAttr plan,
                                               StringRef coroutine);

/// The names (tags) of a split coroutine's subroutines in token order, from
/// any plan; null for the mega-kernel's.
ArrayAttr getSubroutineNames(Attribute plan);

} // namespace plan
} // namespace coro
} // namespace mlir

#endif // COROGPU_DIALECT_PLAN_RUNTIMEPLANS_H

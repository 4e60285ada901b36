//===- PlanDialect.h - the plans schedulers hand to runtimes ----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The coro_plan dialect: typed attributes for what a scheduler pass tells
// the host side about the kernels it made (see PlanAttrs.td), and the one
// way to store and read them in a module.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_PLAN_IR_PLANDIALECT_H
#define COROGPU_DIALECT_PLAN_IR_PLANDIALECT_H

#include "CoroGPU/Dialect/Plan/IR/KernelTarget.h"
#include "corogpu/runtime/FrameArrayABI.h"
#include "corogpu/runtime/WavefrontABI.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h.inc"

namespace mlir {
namespace coro {
namespace plan {
/// The parameters of the plans that are enums of the runtime's contract,
/// written as the string of their name; an error names those there are.
FailureOr<corogpu::runtime::FrameArrayLayout>
parseFrameArrayLayout(AsmParser &parser);
FailureOr<corogpu::runtime::wavefront::Design>
parseWavefrontDesign(AsmParser &parser);
/// A kernel target, written as KernelTarget::parse spells it.
FailureOr<corogpu::runtime::KernelTarget> parseKernelTarget(AsmParser &parser);
} // namespace plan
} // namespace coro
} // namespace mlir

#define GET_ATTRDEF_CLASSES
#include "CoroGPU/Dialect/Plan/IR/PlanAttrs.h.inc"

namespace mlir {
namespace coro {
namespace plan {

/// Records `plan` for `coroutine` in the module attribute of its kind
/// (`PlanAttrT::kModuleAttrName`), replacing an earlier one.
template <typename PlanAttrT>
void setPlan(ModuleOp module, StringRef coroutine, PlanAttrT plan) {
  NamedAttrList plans;
  if (auto existing =
          module->getAttrOfType<DictionaryAttr>(PlanAttrT::kModuleAttrName))
    plans.append(existing.getValue());
  plans.set(StringAttr::get(module.getContext(), coroutine), plan);
  module->setAttr(PlanAttrT::kModuleAttrName,
                  plans.getDictionary(module.getContext()));
}

/// The plan of kind `PlanAttrT` a scheduler left for `coroutine` in
/// `module`; a located error where there is none (or one of another kind).
template <typename PlanAttrT>
FailureOr<PlanAttrT> lookupPlan(ModuleOp module, StringRef coroutine) {
  auto plans =
      module->getAttrOfType<DictionaryAttr>(PlanAttrT::kModuleAttrName);
  if (auto plan = plans ? dyn_cast_or_null<PlanAttrT>(plans.get(coroutine))
                        : PlanAttrT())
    return plan;
  return module.emitError("no ")
         << PlanAttrT::kModuleAttrName << " plan for @" << coroutine
         << ": the scheduler's pass did not run, or did not compile it";
}

} // namespace plan
} // namespace coro
} // namespace mlir

#endif // COROGPU_DIALECT_PLAN_IR_PLANDIALECT_H

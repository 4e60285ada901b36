//===- PlanDialect.cpp - the plans schedulers hand to runtimes ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "corogpu/runtime/FrameArrayABI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::coro::plan;

#include "CoroGPU/Dialect/Plan/IR/PlanDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "CoroGPU/Dialect/Plan/IR/PlanAttrs.cpp.inc"

void CoroPlanDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "CoroGPU/Dialect/Plan/IR/PlanAttrs.cpp.inc"
      >();
}

/// What every plan needs: threads in a workgroup, and a name per token.
static LogicalResult verifyCommon(function_ref<InFlightDiagnostic()> emitError,
                                  uint32_t workgroupSize,
                                  std::optional<uint32_t> tokens,
                                  ArrayAttr subroutines) {
  if (workgroupSize == 0)
    return emitError() << "workgroupSize must be at least 1";
  if (!subroutines)
    return success();
  if (!llvm::all_of(subroutines, llvm::IsaPred<StringAttr>))
    return emitError() << "subroutines must be strings (their tags)";
  if (subroutines.empty())
    return emitError() << "a split coroutine has at least one subroutine";
  if (tokens && *tokens != subroutines.size())
    return emitError() << "tokens (" << *tokens << ") must match the "
                       << subroutines.size() << " subroutines";
  return success();
}

FailureOr<corogpu::runtime::FrameArrayLayout>
mlir::coro::plan::parseFrameArrayLayout(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseString(&name))
    return failure();
  if (auto layout = corogpu::runtime::parseFrameArrayLayout(name))
    return *layout;
  return parser.emitError(loc)
         << R"(layout must be "soa", "aos" or "aosoa", not ")" << name << "\"";
}

FailureOr<corogpu::runtime::KernelTarget>
mlir::coro::plan::parseKernelTarget(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseString(&name))
    return failure();
  if (auto target = corogpu::runtime::KernelTarget::parse(name))
    return *target;
  return parser.emitError(loc)
         << R"(target must be "spirv" or an NVIDIA chip ("sm_90"), not ")"
         << name << "\"";
}

FailureOr<corogpu::runtime::wavefront::Design>
mlir::coro::plan::parseWavefrontDesign(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseString(&name))
    return failure();
  std::optional<corogpu::runtime::wavefront::Design> design =
      corogpu::runtime::wavefront::parseDesign(name);
  if (design && *design != corogpu::runtime::wavefront::Design::Auto)
    return *design;
  return parser.emitError(loc)
         << R"(design must be "queues" or "classify", not ")" << name << "\"";
}

LogicalResult
MegakernelPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           uint32_t workgroupSize) {
  return verifyCommon(emitError, workgroupSize, std::nullopt, nullptr);
}

LogicalResult
StateMachinePlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             uint32_t workgroupSize, uint32_t frameWords,
                             uint32_t stepsPerLaunch, ArrayAttr subroutines) {
  return verifyCommon(emitError, workgroupSize, std::nullopt, subroutines);
}

LogicalResult WavefrontPlanAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, uint32_t workgroupSize,
    uint32_t tokens, uint32_t categories, uint32_t frameWords,
    corogpu::runtime::FrameArrayLayout layout, ArrayAttr subroutines,
    corogpu::runtime::wavefront::Design design, bool gridStride,
    uint32_t tailBelow) {
  if (failed(verifyCommon(emitError, workgroupSize, tokens, subroutines)))
    return failure();
  if (categories < tokens)
    return emitError() << "categories (" << categories
                       << ") must be at least the tokens (" << tokens
                       << "): one queue per subroutine and hint bucket";
  using corogpu::runtime::wavefront::Design;
  if (design == Design::Auto)
    return emitError()
           << R"(design must be "queues" or "classify", not "auto")";
  if (categories % tokens != 0)
    return emitError() << "categories (" << categories
                       << ") must be a multiple of the tokens (" << tokens
                       << "): each subroutine has as many hint buckets";
  if (tailBelow > 100)
    return emitError() << "tailBelow is a percentage of the slots, got "
                       << tailBelow;
  if (tailBelow != 0 && design != Design::Queues)
    return emitError() << "tailBelow needs the queue design";
  return success();
}

LogicalResult PersistentPlanAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, uint32_t workgroupSize,
    uint32_t tokens, uint32_t frameWords, uint32_t batch, uint32_t sharedSlots,
    uint64_t workgroupBytes, corogpu::runtime::FrameArrayLayout layout,
    ArrayAttr subroutines, uint32_t stepsPerLaunch) {
  if (failed(verifyCommon(emitError, workgroupSize, tokens, subroutines)))
    return failure();
  if (batch == 0)
    return emitError() << "batch must be at least 1";
  if (sharedSlots > batch)
    return emitError() << "sharedSlots (" << sharedSlots
                       << ") cannot exceed the batch (" << batch << ")";
  return success();
}

/// Host programs: functions without results (their target is one by its
/// type: parseKernelTarget).
static LogicalResult
verifyHostFunction(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                   FunctionType functionType) {
  if (name.empty())
    return emitError() << "name must not be empty";
  if (functionType.getNumResults() != 0)
    return emitError() << "@" << name << " must return nothing";
  return success();
}

LogicalResult HostCoroutineAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef name,
    FunctionType functionType,
    // NOLINTNEXTLINE(performance-unnecessary-value-param): ODS's signature.
    corogpu::runtime::KernelTarget /*target*/, Attribute plan) {
  if (failed(verifyHostFunction(emitError, name, functionType)))
    return failure();
  if (!isa<MegakernelPlanAttr, StateMachinePlanAttr, WavefrontPlanAttr,
           PersistentPlanAttr>(plan))
    return emitError() << "plan must be a scheduler's plan "
                          "(#coro_plan.megakernel, ...)";
  return success();
}

LogicalResult HostKernelAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef name,
    FunctionType functionType,
    // NOLINTNEXTLINE(performance-unnecessary-value-param): ODS's signature.
    corogpu::runtime::KernelTarget /*target*/,
    DenseI32ArrayAttr workgroupSize) {
  if (failed(verifyHostFunction(emitError, name, functionType)))
    return failure();
  if (workgroupSize.size() != 3 ||
      !llvm::all_of(workgroupSize.asArrayRef(),
                    [](int32_t extent) { return extent > 0; }))
    return emitError() << "workgroupSize must be three positive extents";
  return success();
}

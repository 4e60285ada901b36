//===- RuntimeTest.h - helpers of the runtime tests -------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TEST_UNITTESTS_RUNTIME_RUNTIMETEST_H
#define COROGPU_TEST_UNITTESTS_RUNTIME_RUNTIMETEST_H

#include "CoroGPU/Dialect/Plan/RuntimePlans.h"
#include "CoroGPU/InitAllCoroGPU.h"
#include "corogpu/runtime/Device.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace corogpu::runtime::test {

/// The bytes of the file at `path` (empty when it cannot be read): a kernel
/// image or a module's text that coro-opt generated at build time.
inline std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)),
                     std::istreambuf_iterator<char>());
}

/// The plan of kind `PlanAttrT` (coro_plan dialect) that a scheduler left
/// for `coroutine` in the text of a compiled module, in the runtime's
/// struct, through the compiler's decoder; nullopt when there is none.
template <typename PlanAttrT>
auto readPlan(const std::string &module, const std::string &coroutine)
    -> std::optional<decltype(mlir::coro::plan::toRuntimePlan(PlanAttrT(),
                                                              ""))> {
  mlir::DialectRegistry registry;
  mlir::coro::registerCoroGPU(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(module, &context);
  if (!parsed)
    return std::nullopt;
  mlir::FailureOr<PlanAttrT> plan =
      mlir::coro::plan::lookupPlan<PlanAttrT>(*parsed, coroutine);
  if (mlir::failed(plan))
    return std::nullopt;
  return mlir::coro::plan::toRuntimePlan(*plan, coroutine);
}

/// Loads into `device` the kernels coro-run compiled at build time for
/// `scheduler` (CORO_TEST_KERNELS_DIR/<scheduler>/kernels.spv) and returns
/// the text of the compiled module (lowered.mlir), whose plan attribute
/// describes them; empty (and `status` says why) when it cannot.
inline std::string loadSchedulerKernels(Device &device,
                                        const std::string &scheduler,
                                        Status &status) {
  std::string dir = std::string(CORO_TEST_KERNELS_DIR) + "/" + scheduler;
  std::string binary = readFile(dir + "/kernels.spv");
  std::string module = readFile(dir + "/lowered.mlir");
  if (binary.empty() || module.empty()) {
    status = Status::failure("no generated kernels in " + dir);
    return {};
  }
  status = device.loadModule(binary.data(), binary.size());
  return status.ok() ? module : std::string();
}

/// Passes a scheduler's buffer to SPIR-V kernels: one descriptor.
inline void passBufferToSPIRV(std::vector<KernelArg> &args, Buffer &buffer,
                              uint64_t) {
  args.push_back(KernelArg::ofBuffer(buffer));
}

/// The first Vulkan device with the Khronos validation layer on, so that
/// any validation message fails the call that caused it; null (and
/// `status` says why) when there is none.
inline std::unique_ptr<Device> createValidatedVulkanDevice(Status &status) {
  VulkanOptions options;
  options.validation = true;
  return createVulkanDevice(options, status);
}

} // namespace corogpu::runtime::test

#endif // COROGPU_TEST_UNITTESTS_RUNTIME_RUNTIMETEST_H

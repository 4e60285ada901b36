//===- CompilePolicy.cpp - the scheduler options a device gets ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/CompilePolicy.h"

#include "corogpu/runtime/Device.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-compile-policy"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;
namespace rt = corogpu::runtime;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

DeviceTraits mlir::coro::runner::getDeviceTraits(const rt::Device &device) {
  DeviceTraits traits;
  traits.target = device.getTarget();
  traits.isCPU = device.isCPU();
  traits.subgroupSize = device.getSubgroupSize();
  traits.subgroupReductions = device.supportsSubgroupReductions();
  traits.limitsLoopIterations = device.limitsLoopIterations();
  return traits;
}

llvm::Expected<DeviceTraits>
mlir::coro::runner::parseDeviceTraits(StringRef text,
                                      const KernelTarget &target) {
  DeviceTraits traits;
  traits.target = target;
  if (text == "gpu")
    return traits;
  if (text.consume_front("cpu:")) {
    if (text.getAsInteger(10, traits.subgroupSize) ||
        traits.subgroupSize == 0 || traits.subgroupSize > 128)
      return makeError("device 'cpu:" + text +
                       "': the subgroup size must be 1 to 128 lanes");
    traits.isCPU = true;
    traits.limitsLoopIterations = true;
    return traits;
  }
  if (text == "native") {
    rt::Status status;
    std::unique_ptr<rt::Device> device =
        target.isSPIRV() ? rt::createVulkanDevice({}, status)
                         : rt::createCUDADevice(0, status);
    if (!device)
      return makeError("device 'native': " + status.error);
    DeviceTraits native = getDeviceTraits(*device);
    native.target = target;
    return native;
  }
  return makeError("device '" + text +
                   "': expected gpu, cpu:N (a CPU device with subgroups of N "
                   "lanes, lavapipe's cpu:8) or native");
}

bool mlir::coro::runner::allowsSubgroupAppends(const DeviceTraits &device,
                                               int64_t workgroupSize) {
  if (device.target.isPTX())
    return workgroupSize % 32 == 0;
  return device.subgroupReductions && device.subgroupSize <= 32;
}

SchedulerCompileOptions
mlir::coro::runner::getDefaultCompileOptions(const DeviceTraits &device) {
  SchedulerCompileOptions options;
  options.wavefront.subgroupAppends =
      allowsSubgroupAppends(device, options.wavefront.workgroupSize);
  if (device.isCPU) {
    // A CPU runs a workgroup's subgroups in turn, switching at each of the
    // three barriers of every step: one subgroup per workgroup has none.
    // Four slots per thread, as 256 for 64 elsewhere, keep what each thread
    // runs per launch, and so lavapipe's loop limit, where they were.
    options.persistent.workgroupSize = device.subgroupSize;
    options.persistent.batch = 4 * device.subgroupSize;
    // Its subgroups always have its SIMD width: a one-row workgroup no
    // larger is one subgroup, whose barriers need only subgroup scope.
    options.subgroupSize = device.subgroupSize;
    // It runs every branch of a subgroup, taken or not: a switch over the
    // subroutines costs them all per pass, and so does a fall-through
    // dispatch, which runs as many as an instance goes on to.
    options.stateMachine.fallThrough = true;
    options.persistent.fallThrough = true;
  }
  // A workgroup that runs instances resuming thousands of times reaches
  // the driver's loop limit within one launch: it parks and goes on in the
  // next.
  options.persistent.boundSteps = device.limitsLoopIterations;
  options.stateMachine.boundSteps = device.limitsLoopIterations;
  LDBG() << "compile options for " << device.target
         << (device.isCPU ? " (a CPU device)" : "") << ": subgroup appends "
         << options.wavefront.subgroupAppends << ", persistent workgroups of "
         << options.persistent.workgroupSize << " with "
         << options.persistent.batch << " slots, fall-through "
         << options.persistent.fallThrough;
  return options;
}

SchedulerCompileOptions
mlir::coro::runner::getCompileOptions(const DeviceTraits &device,
                                      const SchedulerOptions &given) {
  SchedulerCompileOptions options = getDefaultCompileOptions(device);
  given.applyTo(options);
  options.wavefront.subgroupAppends =
      options.wavefront.subgroupAppends &&
      allowsSubgroupAppends(device, options.wavefront.workgroupSize);
  return options;
}

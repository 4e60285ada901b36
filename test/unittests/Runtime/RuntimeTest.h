//===- RuntimeTest.h - helpers of the runtime tests -------------*- C++ -*-===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TEST_UNITTESTS_RUNTIME_RUNTIMETEST_H
#define COROGPU_TEST_UNITTESTS_RUNTIME_RUNTIMETEST_H

#include "corogpu/runtime/Device.h"

#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
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

/// The integer `key` of `coroutine`'s entry in a scheduler's plan
/// attribute (`coro.wavefront`, `coro.persistent`) in the text of a compiled
/// module; 0 when it has none.
inline uint32_t readPlanField(const std::string &module,
                              const std::string &coroutine,
                              const std::string &key) {
  std::smatch entry, value;
  if (!std::regex_search(module, entry,
                         std::regex(coroutine + " = \\{([^}]*)\\}")))
    return 0;
  std::string fields = entry[1];
  if (!std::regex_search(fields, value, std::regex(key + " = ([0-9]+)")))
    return 0;
  return std::stoul(value[1]);
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

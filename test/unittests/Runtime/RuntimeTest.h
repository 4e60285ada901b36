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

//===- RuntimeTest.h - helpers of the runtime tests --------------*- C++
//-*-===//
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
#include <string>

namespace corogpu::runtime::test {

/// The bytes of the file at `path` (empty when it cannot be read): a kernel
/// image or a module's text that coro-opt generated at build time.
inline std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)),
                     std::istreambuf_iterator<char>());
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

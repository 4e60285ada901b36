//===- VulkanDeviceTest.cpp - run generated kernels on Vulkan -------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs the SPIR-V that coro-opt generated at build time for
// test/e2e/cpu/loop-break.mlir, under the mega-kernel and the state-machine
// schedulers, on the first Vulkan device (lavapipe on machines without a
// GPU), with the Khronos validation layer: any validation message fails.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"
#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/InstanceABI.h"

#include <gtest/gtest.h>

#include <array>

using namespace corogpu::runtime;
using namespace corogpu::runtime::test;

namespace {

class VulkanDeviceTest : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    Status status;
    device = createValidatedVulkanDevice(status);
    if (!device)
      GTEST_SKIP() << "no usable Vulkan device: " << status.error;
  }
  std::unique_ptr<Device> device;
};

TEST_P(VulkanDeviceTest, PartialSumsMatchTheReference) {
  std::string path = std::string(CORO_TEST_KERNELS_DIR) + "/" + GetParam() +
                     "/__spv__coro_kernels.spv";
  std::string binary = readFile(path);
  ASSERT_FALSE(binary.empty()) << "missing " << path;
  Status status = device->loadModule(binary.data(), binary.size());
  ASSERT_TRUE(status.ok()) << status.error;

  // partial_sums(n = 4, out) over a grid of 6: instance id sums 0..min(id, 3).
  const int32_t instances = 6;
  std::unique_ptr<Buffer> out =
      device->createBuffer(instances * sizeof(float), status);
  ASSERT_TRUE(status.ok()) << status.error;
  std::vector<float> poison(instances, -7.0f);
  ASSERT_TRUE(device->upload(*out, poison.data(), instances * 4).ok());

  // The status buffer of InstanceABI.h comes last.
  std::array<uint32_t, instance::kNumStatusWords> words = {};
  std::unique_ptr<Buffer> statusWords =
      device->createBuffer(sizeof(words), status);
  ASSERT_TRUE(status.ok()) << status.error;
  ASSERT_TRUE(device->upload(*statusWords, words.data(), sizeof(words)).ok());

  double milliseconds = -1;
  status = device->launch(
      "partial_sums", {1, 1, 1}, {64, 1, 1},
      {KernelArg::ofScalar<int32_t>(instances), KernelArg::ofScalar<int32_t>(1),
       KernelArg::ofScalar<int32_t>(1), KernelArg::ofScalar<int32_t>(4),
       KernelArg::ofBuffer(*out), KernelArg::ofBuffer(*statusWords)},
      &milliseconds);
  ASSERT_TRUE(status.ok()) << status.error;
  EXPECT_GE(milliseconds, 0.0);

  std::vector<float> result(instances);
  ASSERT_TRUE(device->download(*out, result.data(), instances * 4).ok());
  EXPECT_EQ(result, (std::vector<float>{0, 1, 3, 6, 6, 6}))
      << "on " << device->getName();
  // Every instance returned; the longest ran min(id, 3) + 1 iterations of
  // its loop (the state machine's dispatch loop adds its own).
  ASSERT_TRUE(device->download(*statusWords, words.data(), sizeof(words)).ok());
  EXPECT_EQ(words[instance::kInstancesReturned], uint32_t(instances));
  EXPECT_GE(words[instance::kMostLoopIterations], 4u);
  EXPECT_LT(words[instance::kMostLoopIterations], 100u);
}

TEST_P(VulkanDeviceTest, MissingBufferArgumentIsAnError) {
  std::string path = std::string(CORO_TEST_KERNELS_DIR) + "/" + GetParam() +
                     "/__spv__coro_kernels.spv";
  std::string binary = readFile(path);
  ASSERT_TRUE(device->loadModule(binary.data(), binary.size()).ok());
  Status status;
  std::unique_ptr<Buffer> out = device->createBuffer(4 * sizeof(float), status);
  ASSERT_TRUE(status.ok()) << status.error;
  // Without the status buffer: the kernel would read an unbound binding.
  status = device->launch(
      "partial_sums", {1, 1, 1}, {64, 1, 1},
      {KernelArg::ofScalar<int32_t>(4), KernelArg::ofScalar<int32_t>(1),
       KernelArg::ofScalar<int32_t>(1), KernelArg::ofScalar<int32_t>(4),
       KernelArg::ofBuffer(*out)});
  EXPECT_EQ(status.code, StatusCode::InvalidInput) << status.error;
  EXPECT_NE(status.error.find("kernel 'partial_sums' uses argument #5 "
                              "(binding 5), but 5 arguments were given"),
            std::string::npos)
      << status.error;
}

TEST_P(VulkanDeviceTest, UnknownKernelIsAnError) {
  std::string path = std::string(CORO_TEST_KERNELS_DIR) + "/" + GetParam() +
                     "/__spv__coro_kernels.spv";
  std::string binary = readFile(path);
  ASSERT_TRUE(device->loadModule(binary.data(), binary.size()).ok());
  Status status = device->launch("no_such_kernel", {1, 1, 1}, {64, 1, 1}, {});
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error.find("no kernel 'no_such_kernel'"), std::string::npos)
      << status.error;
  EXPECT_NE(status.error.find("partial_sums"), std::string::npos)
      << status.error;
}

INSTANTIATE_TEST_SUITE_P(Schedulers, VulkanDeviceTest,
                         ::testing::Values("megakernel", "state-machine"));

TEST(CUDADeviceTest, WithoutADriverSaysSo) {
  Status status;
  std::unique_ptr<Device> device = createCUDADevice(0, status);
  if (device)
    GTEST_SKIP() << "a CUDA device is present (" << device->getName()
                 << "); this test covers machines without one";
  EXPECT_FALSE(status.ok());
  // Without libcuda: "no CUDA driver"; with a driver but no GPU: "no CUDA
  // device" or an initialization error. Either way, a clear message.
  EXPECT_NE(status.error.find("CUDA"), std::string::npos) << status.error;
}

TEST(VulkanDeviceSelectionTest, UnknownDeviceNameSaysWhatExists) {
  Status status;
  VulkanOptions options;
  options.deviceName = "no such device, surely";
  std::unique_ptr<Device> device = createVulkanDevice(options, status);
  EXPECT_EQ(device, nullptr);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error.find("no such device, surely"), std::string::npos)
      << status.error;
}

} // namespace

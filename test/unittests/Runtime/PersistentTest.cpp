//===- PersistentTest.cpp - the persistent-threads launch on Vulkan -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs the persistent-threads kernel that coro-run generated at build time
// for test/e2e/cpu/loop-break.mlir (4 slots per workgroup, so that a grid
// of 13 takes several batches) through the runtime, with the Khronos
// validation layer, in one launch and relaunched one batch at a time, and
// checks the values, the statistics and the errors.
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Persistent.h"
#include "RuntimeTest.h"
#include "corogpu/runtime/Device.h"

#include <gtest/gtest.h>

using namespace corogpu::runtime;
using namespace corogpu::runtime::test;

namespace {

/// What runs: the options, and the launches and workgroups expected.
struct Case {
  PersistentOptions options;
  uint64_t launches;
  uint32_t workgroups;
};

class PersistentTest : public ::testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    Status status;
    device = createValidatedVulkanDevice(status);
    if (!device)
      GTEST_SKIP() << "no usable Vulkan device: " << status.error;
    std::string module = loadSchedulerKernels(*device, "persistent", status);
    ASSERT_TRUE(status.ok()) << status.error;
    std::optional<PersistentPlan> found =
        readPlan<mlir::coro::plan::PersistentPlanAttr>(module, "partial_sums");
    ASSERT_TRUE(found) << "no persistent plan for partial_sums";
    plan = *found;
    ASSERT_EQ(plan.batch, 4u) << "the plan has not --persistent-batch=4";
  }

  /// partial_sums(n = 4) over a grid of 13 with `options`.
  Status run(const PersistentOptions &options, std::vector<float> &result,
             PersistentStats &stats) {
    const uint32_t instances = 13;
    Status status;
    std::unique_ptr<Buffer> out = device->createBuffer(instances * 4, status);
    if (!status.ok())
      return status;
    std::vector<float> poison(instances, -7.0f);
    if (status = device->upload(*out, poison.data(), instances * 4);
        !status.ok())
      return status;
    status = runPersistent(
        *device, plan, options, {instances, 1, 1},
        {KernelArg::ofScalar<int32_t>(instances),
         KernelArg::ofScalar<int32_t>(1), KernelArg::ofScalar<int32_t>(1)},
        {KernelArg::ofScalar<int32_t>(4), KernelArg::ofBuffer(*out)},
        passBufferToSPIRV, stats);
    result.resize(instances);
    if (status.ok())
      status = device->download(*out, result.data(), instances * 4);
    return status;
  }

  std::unique_ptr<Device> device;
  PersistentPlan plan;
};

TEST_P(PersistentTest, PartialSumsMatchTheReference) {
  std::vector<float> result;
  PersistentStats stats;
  Status status = run(GetParam().options, result, stats);
  ASSERT_TRUE(status.ok()) << status.error;
  // Instance id sums 0..min(id, 3), suspending at every step.
  EXPECT_EQ(result,
            (std::vector<float>{0, 1, 3, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}));
  // 13 instances in batches of 4: 4 batches, each instance's entry once.
  EXPECT_EQ(stats.workgroups, GetParam().workgroups);
  EXPECT_EQ(stats.launches, GetParam().launches);
  EXPECT_EQ(stats.acquisitions, 4u);
  ASSERT_EQ(stats.instancesPerSubroutine.size(), plan.tokens);
  EXPECT_EQ(stats.instancesPerSubroutine[0], 13u);
  EXPECT_GT(stats.steps, 0u);
  EXPECT_GT(stats.gpuMilliseconds, 0.0);
}

Case makeCase(uint64_t threads, uint32_t batchesPerLaunch, uint64_t launches,
              uint32_t workgroups) {
  Case c;
  c.options.threads = threads;
  c.options.batchesPerLaunch = batchesPerLaunch;
  c.options.timing = true;
  c.launches = launches;
  c.workgroups = workgroups;
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Launches, PersistentTest,
    ::testing::Values(
        // One workgroup takes every batch in one launch.
        makeCase(1, 0, 1, 1),
        // One batch per launch: four launches.
        makeCase(1, 1, 4, 1),
        // As many workgroups as batches (the default threads are more).
        makeCase(0, 0, 1, 4),
        // Two workgroups, one batch each per launch: two launches.
        makeCase(128, 1, 2, 2)));

TEST_F(PersistentTest, KernelLargerThanTheDeviceIsAnError) {
  plan.workgroupBytes = device->getMaxWorkgroupMemoryBytes() + 4;
  std::vector<float> result;
  PersistentStats stats;
  Status status = run(PersistentOptions(), result, stats);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error.find("bytes of workgroup memory per workgroup"),
            std::string::npos)
      << status.error;
}

TEST(PersistentPlanTest, IncompletePlanIsAnError) {
  Status status;
  std::unique_ptr<Device> device = createVulkanDevice(VulkanOptions(), status);
  if (!device)
    GTEST_SKIP() << "no usable Vulkan device: " << status.error;
  PersistentStats stats;
  status = runPersistent(
      *device, PersistentPlan{"f"}, PersistentOptions(), {1, 1, 1}, {}, {},
      [](std::vector<KernelArg> &, Buffer &, uint64_t) {}, stats);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error.find("plan of 'f' is incomplete"), std::string::npos)
      << status.error;
}

} // namespace

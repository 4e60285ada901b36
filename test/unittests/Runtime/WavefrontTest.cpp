//===- WavefrontTest.cpp - the wavefront host loop on Vulkan --------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs the wavefront kernels that coro-run generated at build time for
// test/e2e/cpu/loop-break.mlir, in both designs (queues and classify),
// through the runtime's host loop (batches of rounds with indirect
// dispatches), with the Khronos validation layer, under every scheduling
// policy of each design, and checks the values and the statistics.
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Wavefront.h"
#include "RuntimeTest.h"
#include "corogpu/runtime/Device.h"

#include <gtest/gtest.h>

using namespace corogpu::runtime;
using namespace corogpu::runtime::test;

namespace {

/// Kernels of one design ("queues" or "classify") under host-loop options.
struct WavefrontCase {
  const char *design;
  WavefrontOptions options;
};

/// Loads the kernels of `design` into `device`; the plan of partial_sums.
std::optional<WavefrontPlan> loadWavefrontKernels(Device &device,
                                                  const std::string &design,
                                                  Status &status) {
  std::string module =
      loadSchedulerKernels(device, "wavefront-" + design, status);
  if (!status.ok())
    return std::nullopt;
  return readPlan<mlir::coro::plan::WavefrontPlanAttr>(module, "partial_sums");
}

class WavefrontTest : public ::testing::TestWithParam<WavefrontCase> {
protected:
  void SetUp() override {
    Status status;
    device = createValidatedVulkanDevice(status);
    if (!device)
      GTEST_SKIP() << "no usable Vulkan device: " << status.error;
    std::optional<WavefrontPlan> found =
        loadWavefrontKernels(*device, GetParam().design, status);
    ASSERT_TRUE(status.ok()) << status.error;
    ASSERT_TRUE(found) << "no wavefront plan for partial_sums";
    plan = *found;
    ASSERT_EQ(plan.queues, std::string(GetParam().design) == "queues");
    ASSERT_GT(plan.tokens, 1u) << "partial_sums was not split";
  }
  /// partial_sums(n = 4, out) over a grid of `instances` with `options`.
  Status runPartialSums(const WavefrontOptions &options, uint32_t instances,
                        Buffer &out, WavefrontStats &stats) {
    return runWavefront(
        *device, plan, options, {instances, 1, 1},
        {KernelArg::ofScalar<int32_t>(instances),
         KernelArg::ofScalar<int32_t>(1), KernelArg::ofScalar<int32_t>(1)},
        {KernelArg::ofScalar<int32_t>(4), KernelArg::ofBuffer(out)},
        passBufferToSPIRV, stats);
  }
  std::unique_ptr<Device> device;
  WavefrontPlan plan;
};

TEST_P(WavefrontTest, PartialSumsMatchTheReference) {
  // partial_sums(n = 4, out) over a grid of 13: instance id sums
  // 0..min(id, 3), suspending at every step.
  const uint32_t instances = 13;
  Status status;
  std::unique_ptr<Buffer> out = device->createBuffer(instances * 4, status);
  ASSERT_TRUE(status.ok()) << status.error;
  std::vector<float> poison(instances, -7.0f);
  ASSERT_TRUE(device->upload(*out, poison.data(), instances * 4).ok());

  WavefrontStats stats;
  status = runPartialSums(GetParam().options, instances, *out, stats);
  ASSERT_TRUE(status.ok()) << status.error;

  std::vector<float> result(instances);
  ASSERT_TRUE(device->download(*out, result.data(), instances * 4).ok());
  EXPECT_EQ(result,
            (std::vector<float>{0, 1, 3, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}));
  // Every instance ran the entry once; the rounds and launches add up.
  ASSERT_EQ(stats.instancesPerSubroutine.size(), plan.tokens);
  EXPECT_EQ(stats.instancesPerSubroutine[0], instances);
  EXPECT_GE(stats.launches, stats.rounds);
  EXPECT_GT(stats.rounds, 0u);
  // (Braces: gtest's EXPECT macros expand to an if-else.)
  const WavefrontOptions &options = GetParam().options;
  if (options.capacity) {
    EXPECT_EQ(stats.capacity, options.capacity);
  }
  if (options.timing && !options.replayRounds) {
    EXPECT_GT(stats.schedulingMilliseconds + stats.subroutineMilliseconds, 0.0);
  }
  if (options.compactBelowPercent == 100) {
    EXPECT_GT(stats.compactions, 0u);
  }
  // Every submission after the first launches the recorded rounds, and
  // each is timed whole.
  EXPECT_EQ(stats.recorded, options.replayRounds);
  if (options.replayRounds) {
    EXPECT_GT(stats.submissions, 1u);
    EXPECT_EQ(stats.replays, stats.submissions - 1);
    EXPECT_TRUE(stats.kernelMilliseconds.empty());
    if (options.timing) {
      EXPECT_GT(stats.recordedMilliseconds, 0.0);
    }
  } else {
    EXPECT_EQ(stats.replays, 0u);
    EXPECT_EQ(stats.recordedMilliseconds, 0.0);
  }
}

TEST_P(WavefrontTest, RoundLimitStopsTheRunWithProgress) {
  // partial_sums needs 5 rounds; one per submission, at most 2.
  const uint32_t instances = 13;
  Status status;
  std::unique_ptr<Buffer> out = device->createBuffer(instances * 4, status);
  ASSERT_TRUE(status.ok()) << status.error;
  WavefrontOptions options = GetParam().options;
  options.roundsPerCheck = 1;
  options.limits.maxRounds = 2;
  std::vector<RunProgress> reports;
  options.progress = [&](const RunProgress &at) { reports.push_back(at); };
  WavefrontStats stats;
  status = runPartialSums(options, instances, *out, stats);
  EXPECT_EQ(status.code, StatusCode::LimitExceeded) << status.error;
  EXPECT_NE(status.error.find("stopped after 2 rounds"), std::string::npos)
      << status.error;
  ASSERT_FALSE(reports.empty());
  EXPECT_EQ(reports.back().rounds, 2u);
  EXPECT_EQ(reports.back().instances, instances);
  EXPECT_GT(reports.back().started, 0u);
}

TEST(RunLimitsTest, LimitsNameWhatWasReached) {
  RunProgress at;
  at.rounds = 10;
  at.started = 3;
  at.instances = 4;
  at.alive = 2;
  at.seconds = 2.5;
  EXPECT_TRUE(checkRunLimits({}, at, "wavefront", "rounds").ok());
  EXPECT_TRUE(checkRunLimits({11, 3}, at, "wavefront", "rounds").ok());
  Status rounds = checkRunLimits({10, 0}, at, "wavefront", "rounds");
  EXPECT_EQ(rounds.code, StatusCode::LimitExceeded);
  EXPECT_EQ(rounds.error,
            "the wavefront scheduler stopped after 10 rounds (10 rounds, 3 of "
            "4 instances started, 2 alive), its limit: does every instance "
            "return?");
  Status seconds = checkRunLimits({0, 2}, at, "persistent", "launches");
  EXPECT_EQ(seconds.code, StatusCode::LimitExceeded);
  EXPECT_NE(seconds.error.find("stopped after 2 seconds"), std::string::npos)
      << seconds.error;
}

WavefrontCase makeCase(const char *design, uint64_t capacity,
                       RefillPolicy refill, LaunchOrder order, uint32_t compact,
                       uint32_t roundsPerCheck, bool timing) {
  WavefrontOptions options;
  options.capacity = capacity;
  options.refill = refill;
  options.order = order;
  options.compactBelowPercent = compact;
  options.roundsPerCheck = roundsPerCheck;
  options.timing = timing;
  return {design, options};
}

/// `test` with its rounds recorded once and launched again at each later
/// submission (WavefrontOptions::replayRounds).
WavefrontCase replayed(WavefrontCase test) {
  test.options.replayRounds = true;
  return test;
}

INSTANTIATE_TEST_SUITE_P(
    Policies, WavefrontTest,
    ::testing::Values(
        // Default capacity (the grid), every queue each round.
        makeCase("queues", 0, RefillPolicy::EveryRound, LaunchOrder::Fixed, 0,
                 8, true),
        makeCase("classify", 0, RefillPolicy::EveryRound, LaunchOrder::Fixed, 0,
                 8, true),
        // Fewer slots than instances: many refills (the queue design's free
        // ring wraps around).
        makeCase("queues", 3, RefillPolicy::EveryRound, LaunchOrder::Fixed, 0,
                 1, false),
        makeCase("queues", 1, RefillPolicy::EveryRound, LaunchOrder::Fixed, 0,
                 3, false),
        makeCase("classify", 3, RefillPolicy::EveryRound, LaunchOrder::Fixed, 0,
                 1, false),
        makeCase("classify", 5, RefillPolicy::BelowHalf, LaunchOrder::MostFirst,
                 0, 4, true),
        // Compaction whenever the grid is exhausted and a slot is free.
        makeCase("classify", 64, RefillPolicy::EveryRound, LaunchOrder::Fixed,
                 100, 2, false),
        // Recorded rounds launched again (a Vulkan command buffer submitted
        // at every later submission): the same values and statistics.
        replayed(makeCase("queues", 3, RefillPolicy::EveryRound,
                          LaunchOrder::Fixed, 0, 1, true)),
        replayed(makeCase("queues", 0, RefillPolicy::EveryRound,
                          LaunchOrder::Fixed, 0, 2, false)),
        replayed(makeCase("classify", 5, RefillPolicy::BelowHalf,
                          LaunchOrder::MostFirst, 0, 1, true))));

TEST(WavefrontQueuesTest, ClassifyOnlyPoliciesAreAnError) {
  Status status;
  std::unique_ptr<Device> device = createVulkanDevice(VulkanOptions(), status);
  if (!device)
    GTEST_SKIP() << "no usable Vulkan device: " << status.error;
  std::optional<WavefrontPlan> plan =
      loadWavefrontKernels(*device, "queues", status);
  ASSERT_TRUE(status.ok()) << status.error;
  ASSERT_TRUE(plan && plan->queues);
  WavefrontOptions options;
  options.compactBelowPercent = 50;
  WavefrontStats stats;
  status = runWavefront(
      *device, *plan, options, {4, 1, 1}, {}, {},
      [](std::vector<KernelArg> &, Buffer &, uint64_t) {}, stats);
  EXPECT_EQ(status.code, StatusCode::InvalidInput) << status.error;
  EXPECT_NE(status.error.find("need the classify wavefront design"),
            std::string::npos)
      << status.error;
}

TEST(WavefrontPlanTest, IncompletePlanIsAnError) {
  Status status;
  std::unique_ptr<Device> device = createVulkanDevice(VulkanOptions(), status);
  if (!device)
    GTEST_SKIP() << "no usable Vulkan device: " << status.error;
  WavefrontStats stats;
  status = runWavefront(
      *device, WavefrontPlan{"f"}, WavefrontOptions(), {1, 1, 1}, {}, {},
      [](std::vector<KernelArg> &, Buffer &, uint64_t) {}, stats);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.error.find("plan of 'f' is incomplete"), std::string::npos)
      << status.error;
}

TEST(DeviceMemoryTest, TooLargeABufferIsOutOfDeviceMemory) {
  Status status;
  std::unique_ptr<Device> device = createVulkanDevice(VulkanOptions(), status);
  if (!device)
    GTEST_SKIP() << "no usable Vulkan device: " << status.error;
  ASSERT_GT(device->getMemoryBytes(), 0u);
  std::unique_ptr<Buffer> buffer =
      device->createBuffer(device->getMemoryBytes() * 2, status);
  EXPECT_EQ(buffer, nullptr);
  EXPECT_NE(status.error.find("out of device memory"), std::string::npos)
      << status.error;
}

} // namespace

//===- Device.h - the CoroGPU launch runtime's device interface -*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One interface, several backends (Vulkan today). The runtime knows nothing
// of MLIR: it loads compiled kernels (SPIR-V words), moves buffers and
// launches kernels by name. Errors are values (the project builds without
// exceptions).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_DEVICE_H
#define COROGPU_RUNTIME_DEVICE_H

#include "corogpu/runtime/KernelTarget.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace corogpu::runtime {

/// What kind of failure a Status reports, for callers that act on it
/// (coro-run turns them into distinct exit codes).
enum class StatusCode {
  Ok,
  /// A device, driver or API call failed, or there is no device.
  DeviceError,
  /// What was asked does not fit the device or the scheduler (sizes,
  /// workgroup sizes, instance counts).
  InvalidInput,
  /// A run went past a limit: rounds, launches, wall-clock time, or the
  /// device's own limit on loop iterations cut instances short.
  LimitExceeded,
};

/// Success, or a message saying what failed and a code saying how.
struct Status {
  std::string error;
  StatusCode code = StatusCode::Ok;
  bool ok() const { return code == StatusCode::Ok; }
  static Status success() { return {}; }
  static Status failure(std::string message,
                        StatusCode code = StatusCode::DeviceError) {
    return {std::move(message), code};
  }
  static Status invalidInput(std::string message) {
    return failure(std::move(message), StatusCode::InvalidInput);
  }
  static Status limitExceeded(std::string message) {
    return failure(std::move(message), StatusCode::LimitExceeded);
  }
};

/// Where a long scheduler run stands, reported after each submission
/// (wavefront) or launch (persistent threads) to a RunProgress callback.
struct RunProgress {
  /// Wavefront rounds, or persistent-threads launches, so far.
  uint64_t rounds = 0;
  /// Instances started and still alive (alive: wavefront only).
  uint64_t started = 0, alive = 0;
  uint64_t instances = 0;
  double seconds = 0;
};
using RunProgressCallback = std::function<void(const RunProgress &)>;

/// Limits of a scheduler's host loop; a run past one fails with
/// StatusCode::LimitExceeded.
struct RunLimits {
  /// Wavefront rounds, or persistent-threads launches (0: no limit).
  uint64_t maxRounds = 0;
  /// Wall-clock seconds of the host loop (0: no limit). Checked between
  /// submissions: one submission is never interrupted.
  double maxSeconds = 0;
  /// Appended to the error of a run past a limit: how the caller sets them
  /// (coro-run: its options).
  std::string howToChange;
};

/// Fails with StatusCode::LimitExceeded when `progress` is past `limits`,
/// saying what `scheduler` had done ("rounds" names its rounds).
Status checkRunLimits(const RunLimits &limits, const RunProgress &progress,
                      const std::string &scheduler, const std::string &rounds);

/// Watches one run of a scheduler's host loop: each update reports where it
/// stands to the callback, then checks the limits.
class RunMonitor {
public:
  RunMonitor(const RunLimits &limits, RunProgressCallback callback,
             std::string scheduler, std::string rounds);
  /// `progress` with its seconds counted from the monitor's creation.
  Status update(RunProgress progress);

private:
  RunLimits limits;
  RunProgressCallback callback;
  std::string scheduler, rounds;
  std::chrono::steady_clock::time_point start;
};

/// Device memory. Created and owned through a Device.
class Buffer {
public:
  virtual ~Buffer() = default;
  virtual size_t getSize() const = 0;
};

/// One kernel argument: a buffer (bound as such, e.g. a Vulkan storage
/// buffer), the device address of a buffer (a pointer parameter, e.g. in a
/// CUDA memref descriptor), or the bytes of a scalar.
struct KernelArg {
  Buffer *buffer = nullptr;
  Buffer *address = nullptr;
  std::vector<uint8_t> scalar;

  static KernelArg ofBuffer(Buffer &buffer) { return {&buffer, nullptr, {}}; }
  static KernelArg ofAddress(Buffer &buffer) { return {nullptr, &buffer, {}}; }
  template <typename T> static KernelArg ofScalar(T value) {
    KernelArg arg;
    arg.scalar.resize(sizeof(T));
    std::memcpy(arg.scalar.data(), &value, sizeof(T));
    return arg;
  }
};

/// One kernel launch of a batch (see Device::launchBatch).
struct Dispatch {
  std::string kernel;
  /// Workgroups to run; for an indirect dispatch, the most it may need.
  std::array<uint32_t, 3> groups = {1, 1, 1};
  /// Threads per workgroup (SPIR-V kernels declare theirs; Vulkan ignores
  /// it).
  std::array<uint32_t, 3> workgroup = {1, 1, 1};
  std::vector<KernelArg> args;
  /// Indirect dispatch: the workgroup counts are three uint32 at byte
  /// `indirectOffset` of this buffer, written by an earlier kernel of the
  /// batch, so they never travel to the host. Backends without indirect
  /// dispatch (CUDA) run `groups` instead: the kernel must then find out
  /// by itself, from the same memory, which threads have work.
  Buffer *indirect = nullptr;
  size_t indirectOffset = 0;
};

/// A batch of dispatches recorded once to be launched again and again
/// unchanged: a CUDA graph, a Vulkan command buffer submitted again. Its
/// launches do no host work per dispatch. The device, the loaded module and
/// the buffers the dispatches name must outlive it.
class RecordedBatch {
public:
  virtual ~RecordedBatch() = default;
  /// Runs the dispatches in order, as Device::launchBatch does, and waits
  /// for the last; `gpuMilliseconds`, if given, receives the GPU time of
  /// the whole batch (not of each dispatch).
  virtual Status launch(double *gpuMilliseconds = nullptr) = 0;
};

class Device {
public:
  virtual ~Device() = default;

  /// Human-readable name of the device, e.g. "llvmpipe (LLVM 15.0.6)".
  virtual std::string getName() const = 0;

  virtual std::unique_ptr<Buffer> createBuffer(size_t bytes,
                                               Status &status) = 0;
  virtual Status upload(Buffer &buffer, const void *data, size_t bytes) = 0;
  virtual Status download(const Buffer &buffer, void *data, size_t bytes) = 0;

  /// What compiled kernels must target: SPIR-V for Vulkan, PTX for the
  /// device's chip ("sm_XY") for CUDA.
  virtual KernelTarget getTarget() const = 0;

  /// Loads a module of kernels: a SPIR-V binary for Vulkan, PTX text for
  /// CUDA. Loading the loaded module again keeps its compiled kernels. A
  /// SPIR-V module is validated first (validateSPIRV): an invalid one is an
  /// error and never reaches the driver.
  virtual Status loadModule(const void *image, size_t bytes) = 0;

  /// Runs `kernel` of the loaded module on `groups` workgroups of
  /// `workgroup` threads and waits for it; `gpuMilliseconds`, if given,
  /// receives the time the GPU measured. (SPIR-V kernels declare their
  /// workgroup size themselves; Vulkan ignores `workgroup`.)
  Status launch(const std::string &kernel, std::array<uint32_t, 3> groups,
                std::array<uint32_t, 3> workgroup,
                const std::vector<KernelArg> &args,
                double *gpuMilliseconds = nullptr) {
    std::vector<double> times;
    Status status = launchBatch({Dispatch{kernel, groups, workgroup, args}},
                                gpuMilliseconds ? &times : nullptr);
    if (status.ok() && gpuMilliseconds)
      *gpuMilliseconds = times.front();
    return status;
  }

  /// Runs `dispatches` in order, each seeing the memory effects of the
  /// ones before it, as one submission, and waits for the last. With
  /// `gpuMilliseconds`, receives the GPU time of each dispatch.
  virtual Status
  launchBatch(const std::vector<Dispatch> &dispatches,
              std::vector<double> *gpuMilliseconds = nullptr) = 0;

  /// Records `dispatches` for RecordedBatch::launch, which runs them as
  /// launchBatch would, or returns null and says why in `status`. Recording
  /// runs nothing. Scalar arguments are recorded by value; indirect
  /// dispatches read their workgroup counts at each launch (CUDA runs their
  /// `groups`, as launchBatch does).
  virtual std::unique_ptr<RecordedBatch>
  recordBatch(const std::vector<Dispatch> &dispatches, Status &status) = 0;

  /// Bytes of device memory (the largest heap), to size buffers from.
  virtual uint64_t getMemoryBytes() const = 0;
  /// The largest buffer the device creates and kernels address.
  virtual uint64_t getMaxBufferBytes() const = 0;
  /// The most workgroup (shared) memory and threads one workgroup may have.
  virtual uint64_t getMaxWorkgroupMemoryBytes() const = 0;
  virtual uint32_t getMaxWorkgroupSize() const = 0;
  /// About how many threads the device runs at once (CUDA: multiprocessors
  /// x their threads; Vulkan, which does not say: 65536), to size grids
  /// that stride over their work.
  virtual uint64_t getResidentThreads() const = 0;
  /// How many loop iterations in all the driver lets a thread run before it
  /// ends its loops as if they had finished (lavapipe: 65535), so that a
  /// kernel whose threads loop long must be launched in parts; 0: no limit.
  virtual uint32_t getLoopIterationLimit() const = 0;
  bool limitsLoopIterations() const { return getLoopIterationLimit() != 0; }
  /// Whether kernels may reduce values over the active lanes of a subgroup
  /// in divergent code (Vulkan: subgroup arithmetic in compute shaders;
  /// CUDA: redux.sync, sm_80 and newer), as coro-profile-lanes needs.
  virtual bool supportsSubgroupReductions() const = 0;
  /// Lanes per subgroup (warp) of compute kernels: 32 on NVIDIA GPUs, 8 on
  /// lavapipe; the wavefront scheduler's subgroup appends need at most 32.
  virtual uint32_t getSubgroupSize() const = 0;
  /// Whether the device is a CPU (lavapipe), which runs the subgroups of a
  /// workgroup one after another, switching between them at each barrier,
  /// and has no occupancy to lose to workgroup memory.
  virtual bool isCPU() const = 0;
};

/// Fails with StatusCode::LimitExceeded when `mostIterations`, the status
/// word of kernels compiled with count-loop-iterations, is kLoopEndedByLimit
/// (LoopLimitABI.h): a thread saw the driver's loop limit end a loop early.
/// The message says `what` had it (and `where`), then the device's limit,
/// then `then`. A pass count, however large, is no error: it is an estimate.
Status checkLoopIterationLimit(const Device &device, uint32_t mostIterations,
                               const std::string &what,
                               const std::string &where,
                               const std::string &then);

/// Instances of a grid: the product of its extents, or UINT64_MAX where
/// that does not fit in 64 bits.
inline uint64_t countInstances(const std::array<uint32_t, 3> &grid) {
  uint64_t plane = uint64_t(grid[0]) * grid[1];
  if (grid[2] != 0 && plane > UINT64_MAX / grid[2])
    return UINT64_MAX;
  return plane * grid[2];
}

/// Appends the kernel argument(s) that pass `buffer`, holding `words`
/// 32-bit words, as a `memref<?xi32>` in the target's ABI (the schedulers'
/// host code passes its own buffers with it).
using BufferArgBuilder =
    std::function<void(std::vector<KernelArg> &, Buffer &, uint64_t words)>;

struct VulkanOptions {
  /// Enable the Khronos validation layer; validation errors and warnings
  /// make launches fail.
  bool validation = false;
  /// Pick the first device whose name contains this text (empty: the first
  /// device). The environment variable COROGPU_VULKAN_DEVICE overrides it.
  std::string deviceName;
  /// Show what kernels print (gpu.printf, lowered to
  /// NonSemantic.DebugPrintf): loads the validation layer with its debug
  /// printf, which runs the prints, and passes each message to
  /// `printfOutput` (default: stdout) as the submission that printed it
  /// completes. Without it the prints cost nothing: drivers skip them.
  bool printf = false;
  std::function<void(const std::string &)> printfOutput;
};

/// Creates a Vulkan device, or returns null and says why in `status`.
std::unique_ptr<Device> createVulkanDevice(const VulkanOptions &options,
                                           Status &status);

/// Creates a CUDA device (the driver API, loaded at run time from
/// libcuda.so.1, so nothing here needs CUDA to build), or returns null and
/// says why in `status` ("no CUDA driver" on machines without one).
/// `ordinal` picks the GPU; COROGPU_CUDA_DEVICE overrides it.
std::unique_ptr<Device> createCUDADevice(int ordinal, Status &status);

} // namespace corogpu::runtime

#endif // COROGPU_RUNTIME_DEVICE_H

//===- VulkanDevice.h - the Vulkan backend's device, inside -----*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Vulkan backend's classes, shared by the files that implement it by
// concern: VulkanDevice.cpp (the instance, the device and the validation
// layer), VulkanBuffers.cpp (buffers) and VulkanLaunch.cpp (the module, its
// pipelines and the batches of dispatches). Private to the runtime: callers
// see Device.h and createVulkanDevice only.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNTIME_LIB_VULKANDEVICE_H
#define COROGPU_RUNTIME_LIB_VULKANDEVICE_H

#include "corogpu/runtime/Device.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace corogpu::runtime::vulkan {

/// The validation layer's printf buffer per submission, with printf on.
constexpr unsigned kPrintfBufferBytes = 16u << 20;

/// The name of `result`, as the Vulkan headers spell it.
std::string describe(VkResult result);

/// Success, or what `call` returned while the runtime was doing `what`.
Status check(VkResult result, const char *call, const std::string &what);

class VulkanBuffer : public Buffer {
public:
  VulkanBuffer(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
               void *mapped, size_t size)
      : device(device), buffer(buffer), memory(memory), mapped(mapped),
        size(size) {}
  ~VulkanBuffer() override {
    vkUnmapMemory(device, memory);
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
  }
  size_t getSize() const override { return size; }

  VkDevice device;
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *mapped;
  size_t size;
};

class VulkanDevice : public Device {
public:
  ~VulkanDevice() override;

  Status initialize(const VulkanOptions &options);

  std::string getName() const override { return name; }
  std::unique_ptr<Buffer> createBuffer(size_t bytes, Status &status) override;
  Status upload(Buffer &buffer, const void *data, size_t bytes) override;
  Status download(const Buffer &buffer, void *data, size_t bytes) override;
  KernelTarget getTarget() const override { return KernelTarget::getSPIRV(); }
  Status loadModule(const void *image, size_t bytes) override;
  Status launchBatch(const std::vector<Dispatch> &dispatches,
                     std::vector<double> *gpuMilliseconds) override;
  std::unique_ptr<RecordedBatch>
  recordBatch(const std::vector<Dispatch> &dispatches, Status &status) override;
  uint64_t getMemoryBytes() const override { return memoryBytes; }
  uint64_t getMaxBufferBytes() const override { return maxBufferBytes; }
  uint64_t getMaxWorkgroupMemoryBytes() const override {
    return maxWorkgroupMemoryBytes;
  }
  uint32_t getMaxWorkgroupSize() const override { return maxWorkgroupSize; }
  uint64_t getResidentThreads() const override { return 65536; }
  uint32_t getLoopIterationLimit() const override {
    // gallivm's LP_MAX_TGSI_LOOP_ITERATIONS (test/e2e/vulkan/termination.mlir).
    return loopLimiter ? 65535 : 0;
  }
  bool supportsSubgroupReductions() const override {
    return subgroupReductions;
  }
  uint32_t getSubgroupSize() const override { return subgroupSize; }
  bool isCPU() const override { return cpu; }

private:
  friend class VulkanRecordedBatch;

  /// The validation layer's messages: prints, errors (with --validate), or
  /// the complaint toleratesNonSemanticInfo drops.
  static VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity,
      VkDebugUtilsMessageTypeFlagsEXT,
      const VkDebugUtilsMessengerCallbackDataEXT *data, void *self);
  /// What a kernel printed, from the validation layer's message about it
  /// ("Validation Information: [ UNASSIGNED-DEBUG-PRINTF ] ... | MessageID
  /// = 0x... | <text>" in the layers we know; the text alone in others).
  static std::string getPrintedText(const std::string &message);
  /// Fails if the validation layer reported anything since the last check.
  Status takeValidationMessages();

  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkQueryPool queryPool = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  /// The compute pipeline of one kernel of the loaded module, created on
  /// its first launch.
  struct Pipeline {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
  };
  std::map<std::string, Pipeline> pipelines;
  Status getPipeline(const std::string &kernel, uint32_t bindings,
                     const Pipeline *&pipeline);
  void destroy(const Pipeline &pipeline);
  void clearPipelines();
  /// Makes the timestamp query pool hold at least `count` queries.
  Status ensureTimestamps(uint32_t count);
  /// Records `dispatch` into `commands` with a descriptor set from `pool`,
  /// timed with queries 2 `timestamp` and 2 `timestamp` + 1 unless
  /// `timestamp` is ~0u, and a barrier behind it.
  Status recordDispatch(VkCommandBuffer commands, VkDescriptorPool pool,
                        const Dispatch &dispatch, const Pipeline &pipeline,
                        const std::vector<VkBuffer> &buffers,
                        uint32_t timestamp, const std::string &what);
  /// What the dispatches of a batch bind: each one's pipeline and buffers
  /// (scalars in small buffers of their own, one per distinct value, which
  /// the batch owns).
  struct PreparedBatch {
    std::map<std::vector<uint8_t>, std::unique_ptr<Buffer>> scalarBuffers;
    std::vector<const Pipeline *> pipelines;
    std::vector<std::vector<VkBuffer>> buffers;
    uint32_t totalBindings = 0;
  };
  Status prepareBatch(const std::vector<Dispatch> &dispatches,
                      PreparedBatch &batch);
  /// A descriptor pool with a set for each of `sets` dispatches and
  /// `bindings` storage buffers in all.
  Status createDescriptorPool(uint32_t sets, uint32_t bindings,
                              VkDescriptorPool &pool, const std::string &what);
  /// A primary command buffer from the device's pool.
  Status allocateCommands(VkCommandBuffer &commands, const std::string &what);
  /// How recordCommands records a batch.
  struct Recording {
    /// Time each dispatch (queries 2 i and 2 i + 1 of the device's pool).
    bool timeEachDispatch = false;
    /// Time the whole batch with queries 0 and 1 of this pool.
    VkQueryPool timeWhole = VK_NULL_HANDLE;
    /// The command buffer is submitted more than once.
    bool reusable = false;
  };
  /// Records the whole batch into `commands`: the dispatches in order, then
  /// a barrier that makes their writes visible to the host.
  Status recordCommands(VkCommandBuffer commands, VkDescriptorPool pool,
                        const std::vector<Dispatch> &dispatches,
                        const PreparedBatch &batch, const Recording &how,
                        const std::string &what);
  /// The barrier that makes the dispatches' writes visible to the host
  /// (waiting for the queue does not).
  static void recordHostBarrier(VkCommandBuffer commands);
  /// Submits `commands` and waits for the queue.
  Status submitAndWait(VkCommandBuffer commands, const std::string &what);
  /// The GPU time of each of `count` timed dispatches, in milliseconds.
  Status readTimestamps(uint32_t count, std::vector<double> &milliseconds,
                        const std::string &what);
  uint32_t queryCount = 0;
  uint64_t memoryBytes = 0;
  uint64_t maxAllocationBytes = 0;
  /// What one allocation holds and a storage buffer binding reaches.
  uint64_t maxBufferBytes = 0;
  uint64_t maxWorkgroupMemoryBytes = 0;
  uint32_t maxWorkgroupSize = 0;
  bool loopLimiter = false;
  bool subgroupReductions = false;
  uint32_t subgroupSize = 0;
  bool cpu = false;
  float timestampPeriod = 1.0f;
  /// Kernel name -> the arguments (bindings) it uses.
  std::map<std::string, uint32_t> entryPoints;
  std::vector<uint32_t> loadedBinary;
  std::string name;
  std::string validationMessages;
  /// Whether validation messages are errors (VulkanOptions::validation).
  bool validation = false;
  /// The device has no VK_KHR_shader_non_semantic_info to enable: the
  /// layer's message that a module declares it is not an error.
  bool toleratesNonSemanticInfo = false;
  /// The layer dropped prints since the last check: its buffer was full.
  bool printfOverflowed = false;
  /// Where kernels' prints go (VulkanOptions::printf), or null.
  std::function<void(const std::string &)> printfOutput;
};

} // namespace corogpu::runtime::vulkan

#endif // COROGPU_RUNTIME_LIB_VULKANDEVICE_H

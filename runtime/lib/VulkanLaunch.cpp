//===- VulkanLaunch.cpp - the Vulkan backend's modules and launches -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A module is validated and reflected (SPIRVValidation.h,
// SPIRVReflection.h) before the driver sees it; each kernel's compute
// pipeline is created on its first launch; a batch of dispatches is one
// command buffer, each dispatch with its descriptor set, timestamps and a
// barrier behind it, submitted and waited for.
//
//===----------------------------------------------------------------------===//

#include "VulkanDevice.h"

#include "corogpu/runtime/SPIRVReflection.h"
#include "corogpu/runtime/SPIRVValidation.h"

#include <algorithm>
#include <cstring>

using namespace corogpu::runtime;
using namespace corogpu::runtime::vulkan;

Status VulkanDevice::loadModule(const void *image, size_t bytes) {
  if (bytes % sizeof(uint32_t) != 0)
    return Status::failure("a SPIR-V binary is made of 32-bit words, got " +
                           std::to_string(bytes) + " bytes");
  std::vector<uint32_t> binary(bytes / sizeof(uint32_t));
  std::memcpy(binary.data(), image, bytes);
  // The same module again (repeated runs): keep its compiled pipelines.
  if (module && binary == loadedBinary)
    return Status::success();
  // A driver may crash on or miscompile an invalid module instead of
  // rejecting it.
  if (Status valid = validateSPIRV(binary.data(), binary.size()); !valid.ok())
    return valid;
  // What launches check first: a driver need not survive an unknown kernel
  // or an argument it uses left unbound.
  std::map<std::string, uint32_t> kernels;
  if (Status read = readEntryPoints(binary.data(), binary.size(), kernels);
      !read.ok())
    return read;
  loadedBinary = binary;
  clearPipelines();
  if (module)
    vkDestroyShaderModule(device, module, nullptr);
  module = VK_NULL_HANDLE;
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = binary.size() * sizeof(uint32_t);
  info.pCode = binary.data();
  if (VkResult result = vkCreateShaderModule(device, &info, nullptr, &module))
    return Status::failure("cannot load the SPIR-V module (" +
                           describe(result) + ")");
  entryPoints = std::move(kernels);
  return takeValidationMessages();
}

Status VulkanDevice::getPipeline(const std::string &kernel, uint32_t bindings,
                                 const Pipeline *&pipeline) {
  std::string key = kernel + "/" + std::to_string(bindings);
  auto it = pipelines.find(key);
  if (it != pipelines.end()) {
    pipeline = &it->second;
    return Status::success();
  }
  auto entry = entryPoints.find(kernel);
  if (entry == entryPoints.end()) {
    std::string known;
    for (const auto &[name, arguments] : entryPoints)
      known += (known.empty() ? "" : ", ") + name;
    return Status::failure("no kernel '" + kernel +
                           "' in the loaded module (kernels: " + known + ")");
  }
  if (bindings < entry->second)
    return Status::invalidInput(
        "kernel '" + kernel + "' uses argument #" +
        std::to_string(entry->second - 1) + " (binding " +
        std::to_string(entry->second - 1) + "), but " +
        std::to_string(bindings) + " arguments were given");
  Pipeline created;
  std::vector<VkDescriptorSetLayoutBinding> layoutBindings(bindings);
  for (uint32_t i = 0; i < bindings; ++i) {
    layoutBindings[i].binding = i;
    layoutBindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    layoutBindings[i].descriptorCount = 1;
    layoutBindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layoutInfo.bindingCount = bindings;
  layoutInfo.pBindings = layoutBindings.data();
  std::string what = "create the pipeline of kernel '" + kernel + "'";
  if (Status status =
          check(vkCreateDescriptorSetLayout(device, &layoutInfo, nullptr,
                                            &created.setLayout),
                "vkCreateDescriptorSetLayout", what);
      !status.ok())
    return status;
  VkPipelineLayoutCreateInfo pipelineLayoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pipelineLayoutInfo.setLayoutCount = 1;
  pipelineLayoutInfo.pSetLayouts = &created.setLayout;
  if (Status status = check(vkCreatePipelineLayout(device, &pipelineLayoutInfo,
                                                   nullptr, &created.layout),
                            "vkCreatePipelineLayout", what);
      !status.ok()) {
    destroy(created);
    return status;
  }
  VkComputePipelineCreateInfo pipelineInfo{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = module;
  pipelineInfo.stage.pName = kernel.c_str();
  pipelineInfo.layout = created.layout;
  if (VkResult result =
          vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipelineInfo,
                                   nullptr, &created.pipeline)) {
    destroy(created);
    return check(result, "vkCreateComputePipelines", what);
  }
  pipeline = &pipelines.emplace(key, created).first->second;
  return Status::success();
}

void VulkanDevice::destroy(const Pipeline &pipeline) {
  if (pipeline.pipeline)
    vkDestroyPipeline(device, pipeline.pipeline, nullptr);
  vkDestroyPipelineLayout(device, pipeline.layout, nullptr);
  vkDestroyDescriptorSetLayout(device, pipeline.setLayout, nullptr);
}

void VulkanDevice::clearPipelines() {
  for (auto &[key, pipeline] : pipelines)
    destroy(pipeline);
  pipelines.clear();
}

Status VulkanDevice::ensureTimestamps(uint32_t count) {
  if (count <= queryCount)
    return Status::success();
  if (queryPool)
    vkDestroyQueryPool(device, queryPool, nullptr);
  VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  queryInfo.queryCount = count;
  if (VkResult result =
          vkCreateQueryPool(device, &queryInfo, nullptr, &queryPool)) {
    queryPool = VK_NULL_HANDLE;
    queryCount = 0;
    return check(result, "vkCreateQueryPool", "create a timestamp query pool");
  }
  queryCount = count;
  return Status::success();
}

Status VulkanDevice::prepareBatch(const std::vector<Dispatch> &dispatches,
                                  PreparedBatch &batch) {
  for (const Dispatch &dispatch : dispatches) {
    std::vector<VkBuffer> buffers;
    for (const KernelArg &arg : dispatch.args) {
      if (arg.address)
        return Status::failure("Vulkan kernels take buffers, not addresses");
      if (arg.buffer) {
        buffers.push_back(static_cast<VulkanBuffer *>(arg.buffer)->buffer);
        continue;
      }
      std::unique_ptr<Buffer> &scalar = batch.scalarBuffers[arg.scalar];
      if (!scalar) {
        Status status;
        scalar = createBuffer(arg.scalar.size(), status);
        if (!status.ok())
          return status;
        if (Status status =
                upload(*scalar, arg.scalar.data(), arg.scalar.size());
            !status.ok())
          return status;
      }
      buffers.push_back(static_cast<VulkanBuffer *>(scalar.get())->buffer);
    }
    const Pipeline *pipeline = nullptr;
    if (Status status = getPipeline(dispatch.kernel, buffers.size(), pipeline);
        !status.ok())
      return status;
    batch.pipelines.push_back(pipeline);
    batch.totalBindings += buffers.size();
    batch.buffers.push_back(std::move(buffers));
  }
  return Status::success();
}

Status VulkanDevice::recordCommands(VkCommandBuffer commands,
                                    VkDescriptorPool pool,
                                    const std::vector<Dispatch> &dispatches,
                                    const PreparedBatch &batch,
                                    const Recording &how,
                                    const std::string &what) {
  uint32_t count = static_cast<uint32_t>(dispatches.size());
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  if (!how.reusable)
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (Status status = check(vkBeginCommandBuffer(commands, &begin),
                            "vkBeginCommandBuffer", what);
      !status.ok())
    return status;
  if (how.timeEachDispatch)
    vkCmdResetQueryPool(commands, queryPool, 0, 2 * count);
  if (how.timeWhole) {
    vkCmdResetQueryPool(commands, how.timeWhole, 0, 2);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        how.timeWhole, 0);
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (Status status = recordDispatch(commands, pool, dispatches[i],
                                       *batch.pipelines[i], batch.buffers[i],
                                       how.timeEachDispatch ? i : ~0u, what);
        !status.ok())
      return status;
  }
  if (how.timeWhole)
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        how.timeWhole, 1);
  recordHostBarrier(commands);
  return check(vkEndCommandBuffer(commands), "vkEndCommandBuffer", what);
}

void VulkanDevice::recordHostBarrier(VkCommandBuffer commands) {
  VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                       nullptr);
}

Status VulkanDevice::createDescriptorPool(uint32_t sets, uint32_t bindings,
                                          VkDescriptorPool &pool,
                                          const std::string &what) {
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                std::max(bindings, 1u)};
  VkDescriptorPoolCreateInfo poolInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = std::max(sets, 1u);
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  Status status =
      check(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool),
            "vkCreateDescriptorPool", what);
  if (!status.ok())
    pool = VK_NULL_HANDLE;
  return status;
}

Status VulkanDevice::allocateCommands(VkCommandBuffer &commands,
                                      const std::string &what) {
  VkCommandBufferAllocateInfo commandInfo{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  commandInfo.commandPool = commandPool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  Status status =
      check(vkAllocateCommandBuffers(device, &commandInfo, &commands),
            "vkAllocateCommandBuffers", what);
  if (!status.ok())
    commands = VK_NULL_HANDLE;
  return status;
}

Status VulkanDevice::submitAndWait(VkCommandBuffer commands,
                                   const std::string &what) {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (Status status = check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE),
                            "vkQueueSubmit", what);
      !status.ok())
    return status;
  return check(vkQueueWaitIdle(queue), "vkQueueWaitIdle", what);
}

Status VulkanDevice::readTimestamps(uint32_t count,
                                    std::vector<double> &milliseconds,
                                    const std::string &what) {
  std::vector<uint64_t> stamps(2 * count);
  if (Status status = check(
          vkGetQueryPoolResults(
              device, queryPool, 0, 2 * count, stamps.size() * sizeof(uint64_t),
              stamps.data(), sizeof(uint64_t),
              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults", "time " + what.substr(4));
      !status.ok())
    return status;
  milliseconds.resize(count);
  for (uint32_t i = 0; i < count; ++i)
    milliseconds[i] =
        (stamps[2 * i + 1] - stamps[2 * i]) * timestampPeriod * 1e-6;
  return Status::success();
}

Status VulkanDevice::launchBatch(const std::vector<Dispatch> &dispatches,
                                 std::vector<double> *gpuMilliseconds) {
  if (!module)
    return Status::failure("no module loaded");
  if (dispatches.empty())
    return Status::success();
  PreparedBatch batch;
  if (Status status = prepareBatch(dispatches, batch); !status.ok())
    return status;
  uint32_t count = static_cast<uint32_t>(dispatches.size());
  if (gpuMilliseconds)
    if (Status status = ensureTimestamps(2 * count); !status.ok())
      return status;
  std::string what =
      count == 1 ? "run kernel '" + dispatches[0].kernel + "'"
                 : "run a batch of " + std::to_string(count) + " kernels";

  // A descriptor pool with a set per dispatch and a command buffer, both
  // released whatever happens below.
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  struct Release {
    VulkanDevice &self;
    VkDescriptorPool &pool;
    VkCommandBuffer &commands;
    ~Release() {
      if (commands)
        vkFreeCommandBuffers(self.device, self.commandPool, 1, &commands);
      if (pool)
        vkDestroyDescriptorPool(self.device, pool, nullptr);
    }
  } release{*this, pool, commands};
  if (Status status =
          createDescriptorPool(count, batch.totalBindings, pool, what);
      !status.ok())
    return status;
  if (Status status = allocateCommands(commands, what); !status.ok())
    return status;

  Recording how;
  how.timeEachDispatch = gpuMilliseconds != nullptr;
  if (Status status =
          recordCommands(commands, pool, dispatches, batch, how, what);
      !status.ok())
    return status;
  if (Status status = submitAndWait(commands, what); !status.ok())
    return status;
  if (gpuMilliseconds)
    if (Status status = readTimestamps(count, *gpuMilliseconds, what);
        !status.ok())
      return status;
  return takeValidationMessages();
}

Status
VulkanDevice::recordDispatch(VkCommandBuffer commands, VkDescriptorPool pool,
                             const Dispatch &dispatch, const Pipeline &pipeline,
                             const std::vector<VkBuffer> &buffers,
                             uint32_t timestamp, const std::string &what) {
  VkDescriptorSetAllocateInfo setInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  setInfo.descriptorPool = pool;
  setInfo.descriptorSetCount = 1;
  setInfo.pSetLayouts = &pipeline.setLayout;
  VkDescriptorSet set;
  if (Status status = check(vkAllocateDescriptorSets(device, &setInfo, &set),
                            "vkAllocateDescriptorSets", what);
      !status.ok())
    return status;
  std::vector<VkDescriptorBufferInfo> bufferInfos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (size_t b = 0; b < buffers.size(); ++b) {
    bufferInfos[b] = {buffers[b], 0, VK_WHOLE_SIZE};
    writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[b].dstSet = set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &bufferInfos[b];
  }
  vkUpdateDescriptorSets(device, writes.size(), writes.data(), 0, nullptr);
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                    pipeline.pipeline);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                          pipeline.layout, 0, 1, &set, 0, nullptr);
  bool timed = timestamp != ~0u;
  if (timed)
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queryPool,
                        2 * timestamp);
  if (dispatch.indirect)
    vkCmdDispatchIndirect(
        commands, static_cast<VulkanBuffer *>(dispatch.indirect)->buffer,
        dispatch.indirectOffset);
  else
    vkCmdDispatch(commands, dispatch.groups[0], dispatch.groups[1],
                  dispatch.groups[2]);
  if (timed)
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        queryPool, 2 * timestamp + 1);
  // Each dispatch sees what the ones before it wrote, workgroup counts of
  // indirect dispatches included.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
                          VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                           VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                       0, 1, &barrier, 0, nullptr, 0, nullptr);
  return Status::success();
}

namespace corogpu::runtime::vulkan {

/// A batch recorded into a command buffer that is submitted again at each
/// launch, with its own descriptor sets, scalar buffers and a pair of
/// timestamps around the whole batch.
class VulkanRecordedBatch : public RecordedBatch {
public:
  explicit VulkanRecordedBatch(VulkanDevice &owner) : owner(owner) {}
  ~VulkanRecordedBatch() override {
    VkDevice device = owner.device;
    if (commands)
      vkFreeCommandBuffers(device, owner.commandPool, 1, &commands);
    if (pool)
      vkDestroyDescriptorPool(device, pool, nullptr);
    if (queries)
      vkDestroyQueryPool(device, queries, nullptr);
  }

  Status record(const std::vector<Dispatch> &dispatches) {
    what = "run a recorded batch of " + std::to_string(dispatches.size()) +
           " kernels";
    if (Status status = owner.prepareBatch(dispatches, batch); !status.ok())
      return status;
    VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    queryInfo.queryCount = 2;
    if (VkResult result =
            vkCreateQueryPool(owner.device, &queryInfo, nullptr, &queries)) {
      queries = VK_NULL_HANDLE;
      return check(result, "vkCreateQueryPool", what);
    }
    if (Status status = owner.createDescriptorPool(
            dispatches.size(), batch.totalBindings, pool, what);
        !status.ok())
      return status;
    if (Status status = owner.allocateCommands(commands, what); !status.ok())
      return status;
    // Submitted at every launch, timed as a whole.
    VulkanDevice::Recording how;
    how.reusable = true;
    how.timeWhole = queries;
    if (Status status =
            owner.recordCommands(commands, pool, dispatches, batch, how, what);
        !status.ok())
      return status;
    return owner.takeValidationMessages();
  }

  Status launch(double *gpuMilliseconds) override {
    if (Status status = owner.submitAndWait(commands, what); !status.ok())
      return status;
    if (gpuMilliseconds) {
      uint64_t stamps[2] = {0, 0};
      if (Status status =
              check(vkGetQueryPoolResults(
                        owner.device, queries, 0, 2, sizeof(stamps), stamps,
                        sizeof(uint64_t),
                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                    "vkGetQueryPoolResults", "time a recorded batch");
          !status.ok())
        return status;
      *gpuMilliseconds = (stamps[1] - stamps[0]) * owner.timestampPeriod * 1e-6;
    }
    return owner.takeValidationMessages();
  }

private:
  VulkanDevice &owner;
  VulkanDevice::PreparedBatch batch;
  VkQueryPool queries = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  std::string what;
};

} // namespace corogpu::runtime::vulkan

std::unique_ptr<RecordedBatch>
VulkanDevice::recordBatch(const std::vector<Dispatch> &dispatches,
                          Status &status) {
  if (!module) {
    status = Status::failure("no module loaded");
    return nullptr;
  }
  auto recorded = std::make_unique<VulkanRecordedBatch>(*this);
  status = recorded->record(dispatches);
  if (!status.ok())
    return nullptr;
  return recorded;
}

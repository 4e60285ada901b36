//===- VulkanBuffers.cpp - the Vulkan backend's buffers -------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every buffer is host-visible and coherent memory, mapped for its whole
// life: uploads and downloads are copies into and out of the mapping, and
// the kernels' writes reach the host through the barrier that ends each
// batch (VulkanLaunch.cpp).
//
//===----------------------------------------------------------------------===//

#include "VulkanDevice.h"

#include <cstring>

using namespace corogpu::runtime;
using namespace corogpu::runtime::vulkan;

std::unique_ptr<Buffer> VulkanDevice::createBuffer(size_t bytes,
                                                   Status &status) {
  // Vulkan has no empty buffers; scalars and empty arrays get 4 bytes. Whole
  // words: kernels without 8-bit storage read and write i8 and i1 buffers
  // a 32-bit word at a time.
  size_t size = bytes < 4 ? 4 : (bytes + 3) / 4 * 4;
  if (size > maxAllocationBytes) {
    status = Status::failure(
        "out of device memory allocating " + std::to_string(bytes) +
        " bytes: '" + name + "' allocates at most " +
        std::to_string(maxAllocationBytes) + " bytes at once");
    return nullptr;
  }
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = size;
  // Any buffer may hold the workgroup counts of an indirect dispatch.
  bufferInfo.usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer;
  if (VkResult result = vkCreateBuffer(device, &bufferInfo, nullptr, &buffer)) {
    status =
        Status::failure("cannot create a buffer of " + std::to_string(bytes) +
                        " bytes (" + describe(result) + ")");
    return nullptr;
  }
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, buffer, &requirements);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t typeIndex = memory.memoryTypeCount;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((requirements.memoryTypeBits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & wanted) == wanted) {
      typeIndex = i;
      break;
    }
  }
  VkMemoryAllocateInfo allocation{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocation.allocationSize = requirements.size;
  allocation.memoryTypeIndex = typeIndex;
  VkDeviceMemory deviceMemory;
  void *mapped = nullptr;
  if (typeIndex == memory.memoryTypeCount ||
      vkAllocateMemory(device, &allocation, nullptr, &deviceMemory)) {
    vkDestroyBuffer(device, buffer, nullptr);
    status = Status::failure("out of device memory allocating " +
                             std::to_string(bytes) + " bytes");
    return nullptr;
  }
  std::string what = "set up a buffer of " + std::to_string(bytes) + " bytes";
  status = check(vkBindBufferMemory(device, buffer, deviceMemory, 0),
                 "vkBindBufferMemory", what);
  if (status.ok())
    status =
        check(vkMapMemory(device, deviceMemory, 0, VK_WHOLE_SIZE, 0, &mapped),
              "vkMapMemory", what);
  if (!status.ok()) {
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, deviceMemory, nullptr);
    return nullptr;
  }
  std::memset(mapped, 0, size);
  status = Status::success();
  return std::make_unique<VulkanBuffer>(device, buffer, deviceMemory, mapped,
                                        bytes);
}

Status VulkanDevice::upload(Buffer &buffer, const void *data, size_t bytes) {
  auto &vulkanBuffer = static_cast<VulkanBuffer &>(buffer);
  if (bytes > vulkanBuffer.size)
    return Status::failure("upload of " + std::to_string(bytes) +
                           " bytes into a buffer of " +
                           std::to_string(vulkanBuffer.size));
  std::memcpy(vulkanBuffer.mapped, data, bytes);
  return Status::success();
}

Status VulkanDevice::download(const Buffer &buffer, void *data, size_t bytes) {
  const auto &vulkanBuffer = static_cast<const VulkanBuffer &>(buffer);
  if (bytes > vulkanBuffer.size)
    return Status::failure("download of " + std::to_string(bytes) +
                           " bytes from a buffer of " +
                           std::to_string(vulkanBuffer.size));
  std::memcpy(data, vulkanBuffer.mapped, bytes);
  return Status::success();
}

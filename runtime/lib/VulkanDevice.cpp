//===- VulkanDevice.cpp - the Vulkan backend of the runtime ---------------===//
//
// Part of the CoroGPU project.
//
// A deliberately plain Vulkan 1.2 compute backend: host-visible coherent
// storage buffers, one descriptor set per launch with kernel argument i at
// (set 0, binding i) -- the interface the MLIR GPU to SPIR-V conversion
// gives kernels, scalars included (each in a small buffer) -- and GPU
// timestamps around each dispatch. Works on any Vulkan 1.2 device, Mesa's
// lavapipe CPU driver included.
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Device.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <string>

using namespace corogpu::runtime;

namespace {

/// The names of the OpEntryPoint instructions of a SPIR-V module. Drivers
/// are not required to survive a pipeline with an unknown entry point, so
/// launches check the name first.
std::vector<std::string> readEntryPoints(const std::vector<uint32_t> &words) {
  constexpr uint32_t kOpEntryPoint = 15;
  std::vector<std::string> names;
  for (size_t i = 5; i < words.size();) {
    uint32_t wordCount = words[i] >> 16, opcode = words[i] & 0xffff;
    if (wordCount == 0 || i + wordCount > words.size())
      break;
    if (opcode == kOpEntryPoint && wordCount > 3) {
      const char *text = reinterpret_cast<const char *>(&words[i + 3]);
      names.emplace_back(text, strnlen(text, (wordCount - 3) * 4));
    }
    i += wordCount;
  }
  return names;
}

std::string describe(VkResult result) {
  return "VkResult " + std::to_string(static_cast<int>(result));
}

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
  ~VulkanDevice() override {
    if (device) {
      vkDeviceWaitIdle(device);
      if (module)
        vkDestroyShaderModule(device, module, nullptr);
      if (queryPool)
        vkDestroyQueryPool(device, queryPool, nullptr);
      if (commandPool)
        vkDestroyCommandPool(device, commandPool, nullptr);
      vkDestroyDevice(device, nullptr);
    }
    if (messenger) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy)
        destroy(instance, messenger, nullptr);
    }
    if (instance)
      vkDestroyInstance(instance, nullptr);
  }

  Status initialize(const VulkanOptions &options);

  std::string getName() const override { return name; }
  std::unique_ptr<Buffer> createBuffer(size_t bytes, Status &status) override;
  Status upload(Buffer &buffer, const void *data, size_t bytes) override;
  Status download(const Buffer &buffer, void *data, size_t bytes) override;
  std::string getTarget() const override { return "spirv"; }
  Status loadModule(const void *image, size_t bytes) override;
  Status launch(const std::string &kernel, std::array<uint32_t, 3> groups,
                std::array<uint32_t, 3> workgroup,
                const std::vector<KernelArg> &args,
                double *gpuMilliseconds) override;

private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity,
      VkDebugUtilsMessageTypeFlagsEXT,
      const VkDebugUtilsMessengerCallbackDataEXT *data, void *self) {
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
      static_cast<VulkanDevice *>(self)->validationMessages +=
          std::string(data->pMessage) + "\n";
    return VK_FALSE;
  }

  /// Fails if the validation layer reported anything since the last check.
  Status takeValidationMessages() {
    if (validationMessages.empty())
      return Status::success();
    std::string messages = std::move(validationMessages);
    validationMessages.clear();
    return Status::failure("Vulkan validation: " + messages);
  }

  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkQueryPool queryPool = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  float timestampPeriod = 1.0f;
  std::vector<std::string> entryPoints;
  std::string name;
  std::string validationMessages;
};

Status VulkanDevice::initialize(const VulkanOptions &options) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "corogpu";
  app.apiVersion = VK_API_VERSION_1_2;
  const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
  const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  if (options.validation) {
    instanceInfo.enabledLayerCount = 1;
    instanceInfo.ppEnabledLayerNames = layers;
    instanceInfo.enabledExtensionCount = 1;
    instanceInfo.ppEnabledExtensionNames = extensions;
  }
  if (VkResult result = vkCreateInstance(&instanceInfo, nullptr, &instance))
    return Status::failure(
        "cannot create a Vulkan instance (" + describe(result) +
        (options.validation ? "; is vulkan-validationlayers installed?)"
                            : "; is a Vulkan driver installed?)"));

  if (options.validation) {
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = onValidationMessage;
    messengerInfo.pUserData = this;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (!create || create(instance, &messengerInfo, nullptr, &messenger))
      return Status::failure("cannot install the validation message handler");
  }

  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  std::string wanted = options.deviceName;
  if (const char *env = std::getenv("COROGPU_VULKAN_DEVICE"))
    wanted = env;
  std::string available;
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(candidate, &properties);
    available +=
        std::string(available.empty() ? "" : ", ") + properties.deviceName;
    if (physicalDevice ||
        std::string(properties.deviceName).find(wanted) == std::string::npos)
      continue;
    physicalDevice = candidate;
    name = properties.deviceName;
    timestampPeriod = properties.limits.timestampPeriod;
  }
  if (!physicalDevice)
    return Status::failure(count == 0 ? "no Vulkan device"
                                      : "no Vulkan device named '" + wanted +
                                            "' (available: " + available + ")");

  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &count,
                                           families.data());
  bool found = false;
  for (uint32_t i = 0; i < count && !found; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      queueFamily = i;
      found = true;
    }
  }
  if (!found)
    return Status::failure("device '" + name + "' has no compute queue");

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  // Kernels may use 64-bit integers and floats (see the SPIR-V pipeline).
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(physicalDevice, &supported);
  VkPhysicalDeviceFeatures features{};
  features.shaderInt64 = supported.shaderInt64;
  features.shaderFloat64 = supported.shaderFloat64;
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.pEnabledFeatures = &features;
  if (VkResult result =
          vkCreateDevice(physicalDevice, &deviceInfo, nullptr, &device))
    return Status::failure("cannot create the Vulkan device (" +
                           describe(result) + ")");
  vkGetDeviceQueue(device, queueFamily, 0, &queue);

  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = queueFamily;
  if (vkCreateCommandPool(device, &poolInfo, nullptr, &commandPool))
    return Status::failure("cannot create a command pool");
  VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  queryInfo.queryCount = 2;
  if (vkCreateQueryPool(device, &queryInfo, nullptr, &queryPool))
    return Status::failure("cannot create a timestamp query pool");
  return takeValidationMessages();
}

std::unique_ptr<Buffer> VulkanDevice::createBuffer(size_t bytes,
                                                   Status &status) {
  // Vulkan has no empty buffers; scalars and empty arrays get 4 bytes.
  size_t size = bytes < 4 ? 4 : bytes;
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = size;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
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
  vkBindBufferMemory(device, buffer, deviceMemory, 0);
  vkMapMemory(device, deviceMemory, 0, VK_WHOLE_SIZE, 0, &mapped);
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

Status VulkanDevice::loadModule(const void *image, size_t bytes) {
  if (bytes % sizeof(uint32_t) != 0)
    return Status::failure("a SPIR-V binary is made of 32-bit words, got " +
                           std::to_string(bytes) + " bytes");
  std::vector<uint32_t> binary(bytes / sizeof(uint32_t));
  std::memcpy(binary.data(), image, bytes);
  if (module)
    vkDestroyShaderModule(device, module, nullptr);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = binary.size() * sizeof(uint32_t);
  info.pCode = binary.data();
  if (VkResult result = vkCreateShaderModule(device, &info, nullptr, &module))
    return Status::failure("cannot load the SPIR-V module (" +
                           describe(result) + ")");
  entryPoints = readEntryPoints(binary);
  return takeValidationMessages();
}

Status VulkanDevice::launch(const std::string &kernel,
                            std::array<uint32_t, 3> groups,
                            std::array<uint32_t, 3> /*workgroup*/,
                            const std::vector<KernelArg> &args,
                            double *gpuMilliseconds) {
  if (!module)
    return Status::failure("no module loaded");
  if (std::find(entryPoints.begin(), entryPoints.end(), kernel) ==
      entryPoints.end()) {
    std::string known;
    for (const std::string &name : entryPoints)
      known += (known.empty() ? "" : ", ") + name;
    return Status::failure("no kernel '" + kernel +
                           "' in the loaded module (kernels: " + known + ")");
  }
  // Scalars travel in small buffers of their own.
  std::vector<std::unique_ptr<Buffer>> scalarBuffers;
  std::vector<VkBuffer> buffers;
  for (const KernelArg &arg : args) {
    if (arg.address)
      return Status::failure("Vulkan kernels take buffers, not addresses");
    if (arg.buffer) {
      buffers.push_back(static_cast<VulkanBuffer *>(arg.buffer)->buffer);
      continue;
    }
    Status status;
    scalarBuffers.push_back(createBuffer(arg.scalar.size(), status));
    if (!status.ok())
      return status;
    upload(*scalarBuffers.back(), arg.scalar.data(), arg.scalar.size());
    buffers.push_back(
        static_cast<VulkanBuffer *>(scalarBuffers.back().get())->buffer);
  }

  uint32_t count = static_cast<uint32_t>(buffers.size());
  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (uint32_t i = 0; i < count; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  layoutInfo.bindingCount = count;
  layoutInfo.pBindings = bindings.data();
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(device, &layoutInfo, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo pipelineLayoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pipelineLayoutInfo.setLayoutCount = 1;
  pipelineLayoutInfo.pSetLayouts = &setLayout;
  VkPipelineLayout pipelineLayout;
  vkCreatePipelineLayout(device, &pipelineLayoutInfo, nullptr, &pipelineLayout);

  VkComputePipelineCreateInfo pipelineInfo{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = module;
  pipelineInfo.stage.pName = kernel.c_str();
  pipelineInfo.layout = pipelineLayout;
  VkPipeline pipeline;
  Status status;
  if (VkResult result = vkCreateComputePipelines(
          device, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline))
    status = Status::failure("cannot create the pipeline of kernel '" + kernel +
                             "' (" + describe(result) + ")");

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                count ? count : 1};
  VkDescriptorPoolCreateInfo poolInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  VkDescriptorPool pool;
  vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool);

  if (status.ok()) {
    VkDescriptorSetAllocateInfo setInfo{
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    setInfo.descriptorPool = pool;
    setInfo.descriptorSetCount = 1;
    setInfo.pSetLayouts = &setLayout;
    VkDescriptorSet set;
    vkAllocateDescriptorSets(device, &setInfo, &set);
    std::vector<VkDescriptorBufferInfo> bufferInfos(count);
    std::vector<VkWriteDescriptorSet> writes(count);
    for (uint32_t i = 0; i < count; ++i) {
      bufferInfos[i] = {buffers[i], 0, VK_WHOLE_SIZE};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = set;
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &bufferInfos[i];
    }
    vkUpdateDescriptorSets(device, count, writes.data(), 0, nullptr);

    VkCommandBufferAllocateInfo commandInfo{
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    commandInfo.commandPool = commandPool;
    commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    commandInfo.commandBufferCount = 1;
    VkCommandBuffer commands;
    vkAllocateCommandBuffers(device, &commandInfo, &commands);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(commands, &begin);
    vkCmdResetQueryPool(commands, queryPool, 0, 2);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                            pipelineLayout, 0, 1, &set, 0, nullptr);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queryPool,
                        0);
    vkCmdDispatch(commands, groups[0], groups[1], groups[2]);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        queryPool, 1);
    vkEndCommandBuffer(commands);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    if (VkResult result = vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE))
      status = Status::failure("cannot submit kernel '" + kernel + "' (" +
                               describe(result) + ")");
    else if (VkResult result = vkQueueWaitIdle(queue))
      status = Status::failure("kernel '" + kernel + "' failed (" +
                               describe(result) + ")");
    if (status.ok() && gpuMilliseconds) {
      uint64_t stamps[2] = {0, 0};
      vkGetQueryPoolResults(device, queryPool, 0, 2, sizeof(stamps), stamps,
                            sizeof(uint64_t),
                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      *gpuMilliseconds = (stamps[1] - stamps[0]) * timestampPeriod * 1e-6;
    }
    vkFreeCommandBuffers(device, commandPool, 1, &commands);
    vkDestroyPipeline(device, pipeline, nullptr);
  }
  vkDestroyDescriptorPool(device, pool, nullptr);
  vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  if (!status.ok())
    return status;
  return takeValidationMessages();
}

} // namespace

std::unique_ptr<Device>
corogpu::runtime::createVulkanDevice(const VulkanOptions &options,
                                     Status &status) {
  auto device = std::make_unique<VulkanDevice>();
  status = device->initialize(options);
  if (!status.ok())
    return nullptr;
  return device;
}

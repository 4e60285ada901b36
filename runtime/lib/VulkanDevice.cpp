//===- VulkanDevice.cpp - the Vulkan backend of the runtime ---------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A deliberately plain Vulkan 1.2 compute backend: host-visible coherent
// storage buffers, one descriptor set per launch with kernel argument i at
// (set 0, binding i) -- the interface the MLIR GPU to SPIR-V conversion
// gives kernels, scalars included (each in a small buffer) -- and GPU
// timestamps around each dispatch. Works on any Vulkan 1.2 device, Mesa's
// lavapipe CPU driver included.
//
// One class, the device (VulkanDevice.h), whose methods are the Vulkan
// calls of each step, each with its result checked; this file creates the
// instance and the device and listens to the validation layer, its buffers
// are in VulkanBuffers.cpp and its launches in VulkanLaunch.cpp.
//
//===----------------------------------------------------------------------===//

#include "VulkanDevice.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace corogpu::runtime;
using namespace corogpu::runtime::vulkan;

/// Keeps lavapipe (Mesa's llvmpipe) off AVX-512. Where the CPU has it,
/// lavapipe's LLVM 15 turns a bit insert assigned under a condition,
/// `if (c) x = (x & ~m) | (v & m)`, into a masked VPTERNLOGD whose constant
/// is a broadcast memory operand, and emits the truth table of the wrong
/// operand order (as in LLVM issue 157929). That is the form of a frame's
/// sub-word field stores, which then get wrong bits, silently
/// (test/e2e/known/driver/masked-bit-insert.test). "avx" clears only Mesa's
/// AVX-512 flags: the JIT keeps AVX2 and 256-bit vectors. Other drivers
/// ignore the variable, and a value the user set wins. It must be set
/// before the driver is loaded, which vkCreateInstance does.
static void avoidLavapipeAVX512() {
  setenv("GALLIUM_OVERRIDE_CPU_CAPS", "avx", /*overwrite=*/0);
}

std::string corogpu::runtime::vulkan::describe(VkResult result) {
  switch (result) {
#define CORO_VK_RESULT(name)                                                   \
  case name:                                                                   \
    return #name;
    CORO_VK_RESULT(VK_SUCCESS)
    CORO_VK_RESULT(VK_NOT_READY)
    CORO_VK_RESULT(VK_TIMEOUT)
    CORO_VK_RESULT(VK_INCOMPLETE)
    CORO_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    CORO_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CORO_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    CORO_VK_RESULT(VK_ERROR_DEVICE_LOST)
    CORO_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    CORO_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    CORO_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    CORO_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    CORO_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    CORO_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    CORO_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CORO_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    CORO_VK_RESULT(VK_ERROR_UNKNOWN)
    CORO_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    CORO_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    CORO_VK_RESULT(VK_ERROR_FRAGMENTATION)
    CORO_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
#undef CORO_VK_RESULT
  default:
    return "VkResult " + std::to_string(static_cast<int>(result));
  }
}

Status corogpu::runtime::vulkan::check(VkResult result, const char *call,
                                       const std::string &what) {
  if (result == VK_SUCCESS)
    return Status::success();
  return Status::failure("cannot " + what + ": " + call + " returned " +
                         describe(result));
}

VulkanDevice::~VulkanDevice() {
  if (device) {
    vkDeviceWaitIdle(device);
    clearPipelines();
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

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanDevice::onValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *self) {
  auto *device = static_cast<VulkanDevice *>(self);
  std::string message = data->pMessage ? data->pMessage : "";
  if (device->printfOutput && data->pMessageIdName &&
      std::string(data->pMessageIdName).find("DEBUG-PRINTF") !=
          std::string::npos) {
    // The layer's own word that its buffer overflowed is no print.
    if (message.find("Debug Printf message was truncated") != std::string::npos)
      device->printfOverflowed = true;
    else
      device->printfOutput(getPrintedText(message));
    return VK_FALSE;
  }
  if (device->toleratesNonSemanticInfo &&
      message.find("SPV_KHR_non_semantic_info") != std::string::npos &&
      message.find("VUID-VkShaderModuleCreateInfo-pCode-04147") !=
          std::string::npos)
    return VK_FALSE;
  if (device->validation &&
      severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
    device->validationMessages += message + "\n";
  return VK_FALSE;
}

std::string VulkanDevice::getPrintedText(const std::string &message) {
  size_t id = message.find("MessageID");
  if (id == std::string::npos)
    return message;
  size_t bar = message.find("| ", id);
  return bar == std::string::npos ? message : message.substr(bar + 2);
}

Status VulkanDevice::takeValidationMessages() {
  if (printfOverflowed) {
    printfOverflowed = false;
    validationMessages.clear();
    return Status::failure(
        "the kernels printed more than the validation layer's printf "
        "buffer holds (" +
        std::to_string(kPrintfBufferBytes >> 20) +
        " MiB per submission, or khronos_validation.printf_buffer_size in "
        "the settings file of VK_LAYER_SETTINGS_PATH): lines were lost; "
        "print from fewer instances or fewer times");
  }
  if (validationMessages.empty())
    return Status::success();
  std::string messages = std::move(validationMessages);
  validationMessages.clear();
  return Status::failure("Vulkan validation: " + messages);
}

Status VulkanDevice::initialize(const VulkanOptions &options) {
  avoidLavapipeAVX512();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "corogpu";
  app.apiVersion = VK_API_VERSION_1_2;
  const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
  const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  bool layer = options.validation || options.printf;
  validation = options.validation;
  if (options.printf)
    printfOutput = options.printfOutput ? options.printfOutput
                                        : [](const std::string &text) {
                                            std::fputs(text.c_str(), stdout);
                                            std::fflush(stdout);
                                          };
  // Debug printf is a feature of the validation layer, turned on here.
  VkValidationFeatureEnableEXT printfFeature =
      VK_VALIDATION_FEATURE_ENABLE_DEBUG_PRINTF_EXT;
  VkValidationFeaturesEXT validationFeatures{
      VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  validationFeatures.enabledValidationFeatureCount = 1;
  validationFeatures.pEnabledValidationFeatures = &printfFeature;
  // The layer keeps 1 KiB of prints per submission by default, and a grid
  // prints far more; the layer reads its buffer size only from a settings
  // file, so one is written for the instance's creation (unless the user
  // points the layer at their own with VK_LAYER_SETTINGS_PATH).
  std::string settingsDirectory;
  if (options.printf) {
    instanceInfo.pNext = &validationFeatures;
    char directory[] = "/tmp/corogpu-layer-XXXXXX";
    if (!std::getenv("VK_LAYER_SETTINGS_PATH") && mkdtemp(directory)) {
      settingsDirectory = directory;
      if (FILE *settings = std::fopen(
              (settingsDirectory + "/vk_layer_settings.txt").c_str(), "w")) {
        std::fprintf(settings, "khronos_validation.printf_buffer_size = %u\n",
                     kPrintfBufferBytes);
        std::fclose(settings);
        setenv("VK_LAYER_SETTINGS_PATH", directory, /*overwrite=*/1);
      }
    }
  }
  if (layer) {
    instanceInfo.enabledLayerCount = 1;
    instanceInfo.ppEnabledLayerNames = layers;
    instanceInfo.enabledExtensionCount = 1;
    instanceInfo.ppEnabledExtensionNames = extensions;
  }
  VkResult created = vkCreateInstance(&instanceInfo, nullptr, &instance);
  if (!settingsDirectory.empty()) {
    unsetenv("VK_LAYER_SETTINGS_PATH");
    std::remove((settingsDirectory + "/vk_layer_settings.txt").c_str());
    std::remove(settingsDirectory.c_str());
  }
  if (VkResult result = created)
    return Status::failure("cannot create a Vulkan instance (" +
                           describe(result) +
                           (layer ? "; is vulkan-validationlayers installed?)"
                                  : "; is a Vulkan driver installed?)"));

  if (layer) {
    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    // The layer reports prints as information.
    if (options.printf)
      messengerInfo.messageSeverity |=
          VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
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
  if (Status status =
          check(vkEnumeratePhysicalDevices(instance, &count, nullptr),
                "vkEnumeratePhysicalDevices", "list the Vulkan devices");
      !status.ok())
    return status;
  std::vector<VkPhysicalDevice> devices(count);
  if (Status status =
          check(vkEnumeratePhysicalDevices(instance, &count, devices.data()),
                "vkEnumeratePhysicalDevices", "list the Vulkan devices");
      !status.ok())
    return status;
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
  // Kernels may use 64-bit and narrow (8- and 16-bit) integers and floats
  // (see the SPIR-V pipeline); enable those the device has. Kernels only
  // require what they use (their OpCapability list).
  // f16 buffers (memref<?xf16> arguments) need 16-bit storage access.
  VkPhysicalDevice16BitStorageFeatures storageSupported{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features narrowSupported{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  narrowSupported.pNext = &storageSupported;
  VkPhysicalDeviceFeatures2 supported{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  supported.pNext = &narrowSupported;
  vkGetPhysicalDeviceFeatures2(physicalDevice, &supported);
  VkPhysicalDevice16BitStorageFeatures storage{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  storage.storageBuffer16BitAccess = storageSupported.storageBuffer16BitAccess;
  VkPhysicalDeviceShaderFloat16Int8Features narrow{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  narrow.pNext = &storage;
  narrow.shaderFloat16 = narrowSupported.shaderFloat16;
  narrow.shaderInt8 = narrowSupported.shaderInt8;
  VkPhysicalDeviceFeatures features{};
  features.shaderInt64 = supported.features.shaderInt64;
  features.shaderFloat64 = supported.features.shaderFloat64;
  features.shaderInt16 = supported.features.shaderInt16;
  // Kernels that print (NonSemantic.DebugPrintf) need the non-semantic
  // instructions allowed; enabled wherever the device has them.
  uint32_t extensionCount = 0;
  vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &extensionCount,
                                       nullptr);
  std::vector<VkExtensionProperties> deviceExtensions(extensionCount);
  vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &extensionCount,
                                       deviceExtensions.data());
  std::vector<const char *> enabledExtensions;
  for (const VkExtensionProperties &extension : deviceExtensions)
    if (std::string(extension.extensionName) ==
        VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME)
      enabledExtensions.push_back(
          VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
  // Without it (lavapipe of Mesa 22), drivers still skip the non-semantic
  // instructions and the layer's debug printf still replaces them; only the
  // layer's complaint that the modules declare the extension is wrong then.
  toleratesNonSemanticInfo = enabledExtensions.empty();
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.pNext = &narrow;
  deviceInfo.enabledExtensionCount = enabledExtensions.size();
  deviceInfo.ppEnabledExtensionNames = enabledExtensions.data();
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
  if (Status status =
          check(vkCreateCommandPool(device, &poolInfo, nullptr, &commandPool),
                "vkCreateCommandPool", "create a command pool");
      !status.ok())
    return status;
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
    memoryBytes = std::max<uint64_t>(memoryBytes, memory.memoryHeaps[i].size);
  VkPhysicalDeviceDriverProperties driver{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  driver.pNext = &subgroup;
  VkPhysicalDeviceMaintenance3Properties maintenance{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  maintenance.pNext = &driver;
  VkPhysicalDeviceProperties2 properties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &maintenance;
  vkGetPhysicalDeviceProperties2(physicalDevice, &properties);
  maxAllocationBytes =
      std::min<uint64_t>(memoryBytes, maintenance.maxMemoryAllocationSize);
  const VkPhysicalDeviceLimits &limits = properties.properties.limits;
  maxBufferBytes =
      std::min<uint64_t>(maxAllocationBytes, limits.maxStorageBufferRange);
  maxWorkgroupMemoryBytes = limits.maxComputeSharedMemorySize;
  maxWorkgroupSize = std::min(limits.maxComputeWorkGroupSize[0],
                              limits.maxComputeWorkGroupInvocations);
  // gallivm's loop limiter (test/e2e/vulkan/termination.mlir).
  loopLimiter = driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
  subgroupReductions =
      (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
      (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  subgroupSize = subgroup.subgroupSize;
  cpu = properties.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return takeValidationMessages();
}

std::unique_ptr<Device>
corogpu::runtime::createVulkanDevice(const VulkanOptions &options,
                                     Status &status) {
  auto device = std::make_unique<VulkanDevice>();
  status = device->initialize(options);
  if (!status.ok())
    return nullptr;
  return device;
}

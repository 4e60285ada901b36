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
// Longer than most files (about 910 lines): it is one class, the device,
// whose methods are the Vulkan calls of each step (instance and device
// creation, buffers, pipelines, the batch's preparation, recording,
// submission and timestamps), each with its result checked.
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/SPIRVValidation.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

using namespace corogpu::runtime;

namespace {

/// The validation layer's printf buffer per submission, with printf on.
constexpr unsigned kPrintfBufferBytes = 16u << 20;

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
void avoidLavapipeAVX512() {
  setenv("GALLIUM_OVERRIDE_CPU_CAPS", "avx", /*overwrite=*/0);
}

/// The entry points of a SPIR-V module, each with the number of arguments
/// (descriptor bindings 0..n-1 of set 0) its function uses: one more than
/// the largest binding of a variable it loads, stores or indexes directly
/// (not through calls or copied pointers, which our kernels do not have:
/// a lower bound).
/// Drivers are not required to survive a pipeline with an unknown entry
/// point, nor a dispatch that leaves a binding it uses unbound, so launches
/// check both first.
std::map<std::string, uint32_t>
readEntryPoints(const std::vector<uint32_t> &words) {
  constexpr uint32_t kOpEntryPoint = 15, kOpFunction = 54, kOpFunctionEnd = 56,
                     kOpLoad = 61, kOpStore = 62, kOpCopyMemory = 63,
                     kOpAccessChain = 65, kOpInBoundsAccessChain = 66,
                     kOpPtrAccessChain = 67, kOpArrayLength = 68,
                     kOpDecorate = 71, kDecorationBinding = 33;
  std::map<uint32_t, std::string> entryFunctions;
  std::map<uint32_t, uint32_t> bindings;          // Variable -> binding.
  std::map<uint32_t, std::set<uint32_t>> reached; // Function -> variables.
  uint32_t function = 0;
  for (size_t i = 5; i < words.size();) {
    uint32_t wordCount = words[i] >> 16, opcode = words[i] & 0xffff;
    if (wordCount == 0 || i + wordCount > words.size())
      break;
    const uint32_t *operands = &words[i + 1];
    auto reach = [&](uint32_t position) {
      if (function && position < wordCount - 1)
        reached[function].insert(operands[position]);
    };
    switch (opcode) {
    case kOpEntryPoint:
      if (wordCount > 3) {
        const char *text = reinterpret_cast<const char *>(&words[i + 3]);
        entryFunctions[operands[1]] =
            std::string(text, strnlen(text, (wordCount - 3) * 4));
      }
      break;
    case kOpDecorate:
      if (wordCount > 3 && operands[1] == kDecorationBinding)
        bindings[operands[0]] = operands[2];
      break;
    case kOpFunction:
      function = wordCount > 2 ? operands[1] : 0;
      break;
    case kOpFunctionEnd:
      function = 0;
      break;
    case kOpStore:
      reach(0);
      break;
    case kOpCopyMemory:
      reach(0);
      reach(1);
      break;
    case kOpLoad:
    case kOpAccessChain:
    case kOpInBoundsAccessChain:
    case kOpPtrAccessChain:
    case kOpArrayLength:
      reach(2);
      break;
    default:
      break;
    }
    i += wordCount;
  }
  std::map<std::string, uint32_t> entryPoints;
  for (const auto &[id, name] : entryFunctions) {
    uint32_t arguments = 0;
    for (uint32_t variable : reached[id])
      if (auto it = bindings.find(variable); it != bindings.end())
        arguments = std::max(arguments, it->second + 1);
    entryPoints[name] = arguments;
  }
  return entryPoints;
}

/// The name of `result`, as the Vulkan headers spell it.
std::string describe(VkResult result) {
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

/// Success, or what `call` returned while the runtime was doing `what`.
Status check(VkResult result, const char *call, const std::string &what) {
  if (result == VK_SUCCESS)
    return Status::success();
  return Status::failure("cannot " + what + ": " + call + " returned " +
                         describe(result));
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

  Status initialize(const VulkanOptions &options);

  std::string getName() const override { return name; }
  std::unique_ptr<Buffer> createBuffer(size_t bytes, Status &status) override;
  Status upload(Buffer &buffer, const void *data, size_t bytes) override;
  Status download(const Buffer &buffer, void *data, size_t bytes) override;
  KernelTarget getTarget() const override { return KernelTarget::getSPIRV(); }
  Status loadModule(const void *image, size_t bytes) override;
  Status launchBatch(const std::vector<Dispatch> &dispatches,
                     std::vector<double> *gpuMilliseconds) override;
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
  static VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity,
      VkDebugUtilsMessageTypeFlagsEXT,
      const VkDebugUtilsMessengerCallbackDataEXT *data, void *self) {
    auto *device = static_cast<VulkanDevice *>(self);
    std::string message = data->pMessage ? data->pMessage : "";
    if (device->printfOutput && data->pMessageIdName &&
        std::string(data->pMessageIdName).find("DEBUG-PRINTF") !=
            std::string::npos) {
      // The layer's own word that its buffer overflowed is no print.
      if (message.find("Debug Printf message was truncated") !=
          std::string::npos)
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

  /// What a kernel printed, from the validation layer's message about it
  /// ("Validation Information: [ UNASSIGNED-DEBUG-PRINTF ] ... | MessageID
  /// = 0x... | <text>" in the layers we know; the text alone in others).
  static std::string getPrintedText(const std::string &message) {
    size_t id = message.find("MessageID");
    if (id == std::string::npos)
      return message;
    size_t bar = message.find("| ", id);
    return bar == std::string::npos ? message : message.substr(bar + 2);
  }

  /// Fails if the validation layer reported anything since the last check.
  Status takeValidationMessages() {
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
  /// Records the whole batch into `commands`: the dispatches in order, each
  /// timed when `timed`, then a barrier that makes their writes visible to
  /// the host.
  Status recordBatch(VkCommandBuffer commands, VkDescriptorPool pool,
                     const std::vector<Dispatch> &dispatches,
                     const PreparedBatch &batch, bool timed,
                     const std::string &what);
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
  entryPoints = readEntryPoints(binary);
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

Status VulkanDevice::recordBatch(VkCommandBuffer commands,
                                 VkDescriptorPool pool,
                                 const std::vector<Dispatch> &dispatches,
                                 const PreparedBatch &batch, bool timed,
                                 const std::string &what) {
  uint32_t count = static_cast<uint32_t>(dispatches.size());
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (Status status = check(vkBeginCommandBuffer(commands, &begin),
                            "vkBeginCommandBuffer", what);
      !status.ok())
    return status;
  if (timed)
    vkCmdResetQueryPool(commands, queryPool, 0, 2 * count);
  for (uint32_t i = 0; i < count; ++i) {
    if (Status status =
            recordDispatch(commands, pool, dispatches[i], *batch.pipelines[i],
                           batch.buffers[i], timed ? i : ~0u, what);
        !status.ok())
      return status;
  }
  // Waiting for the queue does not make device writes visible to the host:
  // a barrier to the host does.
  VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                       nullptr);
  return check(vkEndCommandBuffer(commands), "vkEndCommandBuffer", what);
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
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                std::max(batch.totalBindings, 1u)};
  VkDescriptorPoolCreateInfo poolInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = count;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  if (Status status =
          check(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool),
                "vkCreateDescriptorPool", what);
      !status.ok()) {
    pool = VK_NULL_HANDLE;
    return status;
  }
  VkCommandBufferAllocateInfo commandInfo{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  commandInfo.commandPool = commandPool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  if (Status status =
          check(vkAllocateCommandBuffers(device, &commandInfo, &commands),
                "vkAllocateCommandBuffers", what);
      !status.ok()) {
    commands = VK_NULL_HANDLE;
    return status;
  }

  if (Status status = recordBatch(commands, pool, dispatches, batch,
                                  gpuMilliseconds != nullptr, what);
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

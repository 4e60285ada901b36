//===- RuntimeWrappers.cpp - mgpu* functions on the CoroGPU runtime -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libcoro_runtime_wrappers.so: the C functions that upstream's gpu-to-llvm
// lowering calls for gpu.launch_func (mgpuModuleLoad, mgpuLaunchKernel,
// ...), implemented on the CoroGPU runtime, so that mlir-runner runs the
// host programs that coro-host-to-llvm compiled. The module objects are
// those of CoroGPU/Runner/HostKernels.h: a launch of a coroutine runs its
// scheduler's host loop (Runner's runCoroutine), a launch of a kernel one
// dispatch. Memrefs live in host memory and are copied to the device and
// back around each launch. A failure prints an error and ends the program
// with exit code 1: the mgpu* functions return no status.
//
// Environment: COROGPU_VULKAN_VALIDATION=1 turns on the Khronos validation
// layer (its messages fail the launch); COROGPU_PRINTF=1 shows what the
// kernels print (gpu.printf) on stdout, through the layer's debug printf
// (coro-run --printf; CUDA prints always); COROGPU_VULKAN_DEVICE picks a
// Vulkan device, COROGPU_CUDA_DEVICE a CUDA one (corogpu/runtime/Device.h);
// COROGPU_MAX_ROUNDS and COROGPU_TIME_LIMIT (seconds) bound the host loop
// of each coroutine launch (default: 2^20 rounds or launches, no time
// limit), as coro-run's --max-rounds and --time-limit do.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Plan/IR/PlanDialect.h"
#include "CoroGPU/Runner/HostKernels.h"
#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Runner/Run.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#define CORO_WRAPPER_EXPORT __attribute__((visibility("default")))

using namespace mlir;
using namespace mlir::coro;
namespace rt = corogpu::runtime;

namespace {

/// One loaded object of host kernels (its bytes are copied: the descriptor
/// and the image point into them).
struct HostModule {
  std::string object;
  runner::HostKernels kernels;
};

/// A function of a module: a coroutine or a kernel, by its descriptor.
struct HostFunction {
  HostModule *module;
  Attribute entry;
};

/// What the wrappers keep for the whole program: an MLIR context for the
/// descriptors, the devices (made on first use), the loaded modules.
struct WrapperState {
  WrapperState() { context.getOrLoadDialect<plan::CoroPlanDialect>(); }
  MLIRContext context;
  std::unique_ptr<rt::Device> vulkan, cuda;
  std::vector<std::unique_ptr<HostModule>> modules;
  std::vector<std::unique_ptr<HostFunction>> functions;
  std::mutex mutex;
};

WrapperState &getState() {
  static WrapperState state;
  return state;
}

} // namespace

/// Ends the program with `message`: the mgpu* functions cannot return an
/// error to the code that called them.
[[noreturn]] static void fail(const llvm::Twine &message) {
  llvm::errs() << "coro-runtime-wrappers: error: " << message << "\n";
  llvm::errs().flush();
  std::exit(EXIT_FAILURE);
}

/// The device for kernels compiled for `target`: Vulkan for SPIR-V, CUDA
/// for an NVIDIA chip.
static rt::Device &getDevice(const KernelTarget &target) {
  WrapperState &state = getState();
  bool spirv = target.isSPIRV();
  std::unique_ptr<rt::Device> &device = spirv ? state.vulkan : state.cuda;
  if (!device) {
    rt::Status status;
    if (spirv) {
      rt::VulkanOptions options;
      const char *validation = std::getenv("COROGPU_VULKAN_VALIDATION");
      options.validation = validation && StringRef(validation) == "1";
      const char *printf = std::getenv("COROGPU_PRINTF");
      options.printf = printf && StringRef(printf) == "1";
      device = rt::createVulkanDevice(options, status);
    } else {
      device = rt::createCUDADevice(0, status);
    }
    if (!device)
      fail(status.error);
    // The devices go before the libraries the device loaded (the driver,
    // the validation layer) tear down their own state at exit: exit
    // handlers run in the reverse order of their registration, and the
    // state's destructor registered before those libraries were loaded.
    // (The layer's debug printf crashed in vkDestroyDevice otherwise.)
    // (No lock: fail() exits with it held.)
    std::atexit([] {
      WrapperState &state = getState();
      state.modules.clear();
      state.functions.clear();
      state.vulkan.reset();
      state.cuda.reset();
    });
  }
  // PTX for one chip runs on later ones: the driver compiles it.
  if (spirv != device->getTarget().isSPIRV())
    fail("the kernels were compiled for " + target.str() + ", but " +
         device->getName() + " runs " + device->getTarget().str() +
         " (coro-host-to-llvm's target= option)");
  return *device;
}

namespace {
/// The arguments of one launch, read from the launch's parameters as
/// gpu-to-llvm passes them: a memref as the fields of its descriptor
/// (allocated and aligned pointers, offset, sizes, strides), any other
/// value as itself.
struct LaunchArguments {
  std::vector<rt::KernelArg> scalars;
  std::vector<runner::HostBuffer> buffers;
  /// Where each buffer's elements live in host memory.
  std::vector<uint8_t *> hostData;
};
} // namespace

static LaunchArguments readArguments(StringRef function,
                                     FunctionType functionType,
                                     const KernelTarget &target, void **params,
                                     size_t paramsCount) {
  bool wideIndex = target.isPTX();
  LaunchArguments arguments;
  size_t next = 0;
  auto param = [&](size_t index) {
    if (index >= paramsCount)
      fail("the launch of @" + function + " passes " +
           llvm::Twine(paramsCount) + " parameters, fewer than its type " +
           "needs");
    return params[index];
  };
  for (auto [index, type] : llvm::enumerate(functionType.getInputs())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      llvm::Expected<rt::KernelArg> arg = runner::getKernelArgumentFromHost(
          type, param(next++), index, wideIndex);
      if (!arg)
        fail("@" + function + ": " + llvm::toString(arg.takeError()));
      arguments.scalars.push_back(std::move(*arg));
      continue;
    }
    Type element = memref.getElementType();
    if (std::string why = runner::checkHostMemRef(memref, target); !why.empty())
      fail("argument #" + llvm::Twine(index) + " of @" + function + ": " + why);
    int64_t rank = memref.getRank();
    auto field = [&](int64_t at) {
      return *static_cast<int64_t *>(param(next + at));
    };
    auto *aligned = *static_cast<uint8_t **>(param(next + 1));
    int64_t offset = field(2);
    // Row-major and dense: what a kernel indexes as such.
    int64_t count = 1, expectedStride = 1;
    bool dense = true;
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      int64_t size = field(3 + dim), stride = field(3 + rank + dim);
      dense = dense && (size == 1 || stride == expectedStride);
      expectedStride *= size;
      count *= size;
    }
    if (!dense)
      fail("argument #" + llvm::Twine(index) + " of @" + function +
           " is a memref with strides; pass a dense, row-major one");
    next += 3 + 2 * rank;
    runner::HostBuffer buffer = runner::HostBuffer::getZeros(element, count);
    uint8_t *data = aligned + offset * buffer.elementSize;
    std::memcpy(buffer.bytes.data(), data, buffer.bytes.size());
    // The device gets a copy of each memref: two that share memory would
    // not see each other's stores.
    for (auto [other, otherData] :
         llvm::zip_equal(arguments.buffers, arguments.hostData))
      if (data < otherData + other.bytes.size() &&
          otherData < data + buffer.bytes.size())
        fail("@" + function + " gets memrefs that share memory (argument #" +
             llvm::Twine(index) +
             " and an earlier one); the wrappers copy each memref to the "
             "device on its own, so pass it once");
    arguments.buffers.push_back(std::move(buffer));
    arguments.hostData.push_back(data);
  }
  if (next != paramsCount)
    fail("the launch of @" + function + " passes " + llvm::Twine(paramsCount) +
         " parameters, its type needs " + llvm::Twine(next));
  return arguments;
}

/// Copies the buffers a launch changed back to host memory (only those: a
/// memref the kernels only read may be a constant global).
static void writeBack(const LaunchArguments &arguments,
                      const runner::RunResult &result) {
  for (auto [buffer, data] :
       llvm::zip_equal(result.buffers, arguments.hostData))
    if (std::memcmp(data, buffer.bytes.data(), buffer.bytes.size()) != 0)
      std::memcpy(data, buffer.bytes.data(), buffer.bytes.size());
}

static std::array<uint32_t, 3> toExtents(StringRef what, intptr_t x, intptr_t y,
                                         intptr_t z) {
  std::array<uint32_t, 3> extents;
  std::array<intptr_t, 3> values = {x, y, z};
  for (auto [extent, value] : llvm::zip_equal(extents, values)) {
    if (value < 0 || value > intptr_t(UINT32_MAX))
      fail(what + " " + llvm::Twine(int64_t(value)) +
           " is not a 32-bit extent");
    extent = uint32_t(value);
  }
  return extents;
}

/// The limits of every coroutine launch's host loop: 2^20 rounds or
/// launches, or those of COROGPU_MAX_ROUNDS and COROGPU_TIME_LIMIT.
static rt::RunLimits getRunLimits() {
  rt::RunLimits limits;
  limits.maxRounds = uint64_t(1) << 20;
  limits.howToChange = "COROGPU_MAX_ROUNDS and COROGPU_TIME_LIMIT (seconds) "
                       "set the limits";
  if (const char *rounds = std::getenv("COROGPU_MAX_ROUNDS"))
    if (StringRef(rounds).getAsInteger(10, limits.maxRounds) ||
        limits.maxRounds == 0)
      fail("COROGPU_MAX_ROUNDS='" + llvm::Twine(rounds) +
           "' is not a positive integer");
  if (const char *seconds = std::getenv("COROGPU_TIME_LIMIT"))
    if (StringRef(seconds).getAsDouble(limits.maxSeconds) ||
        !(limits.maxSeconds >= 0))
      fail("COROGPU_TIME_LIMIT='" + llvm::Twine(seconds) +
           "' is not a number of seconds");
  return limits;
}

static void launchCoroutine(plan::HostCoroutineAttr coroutine,
                            HostModule &module, std::array<uint32_t, 3> grid,
                            void **params, size_t paramsCount) {
  rt::Device &device = getDevice(coroutine.getTarget());
  StringRef name = coroutine.getName();
  LaunchArguments arguments =
      readArguments(name, coroutine.getFunctionType(), coroutine.getTarget(),
                    params, paramsCount);
  runner::CompiledCoroutine compiled;
  compiled.coroutine = name.str();
  compiled.scheduler = runner::getPlanScheduler(coroutine.getPlan());
  compiled.target = device.getTarget();
  compiled.image = module.kernels.image.str();
  compiled.plan = coroutine.getPlan();
  runner::RunOptions options;
  for (corogpu::runtime::RunLimits *limits :
       {&options.instanceKernel.limits, &options.wavefront.limits,
        &options.persistent.limits})
    *limits = getRunLimits();
  if (compiled.scheduler == GPUScheduler::StateMachine &&
      device.getLoopIterationLimit())
    options.instanceKernel.loopLimitAdvice =
        "; coro-host-to-llvm's scheduler-options='state-machine-steps=N' runs "
        "at most N subroutines of an instance per launch";
  runner::RunResult result;
  rt::Status status = runner::runCoroutine(
      device, compiled, grid, coroutine.getFunctionType().getInputs(),
      arguments.scalars, arguments.buffers, options, result);
  if (!status.ok())
    fail("launch of @" + name + " (" + getGPUSchedulerName(compiled.scheduler) +
         "): " + status.error);
  writeBack(arguments, result);
}

static void launchKernel(plan::HostKernelAttr kernel, HostModule &module,
                         std::array<uint32_t, 3> groups,
                         std::array<uint32_t, 3> workgroup, void **params,
                         size_t paramsCount) {
  rt::Device &device = getDevice(kernel.getTarget());
  StringRef name = kernel.getName();
  ArrayRef<int32_t> compiled = kernel.getWorkgroupSize().asArrayRef();
  for (auto [threads, declared] : llvm::zip_equal(workgroup, compiled))
    if (int64_t(threads) != declared)
      fail("launch of @" + name + " with blocks of " +
           llvm::Twine(workgroup[0]) + "x" + llvm::Twine(workgroup[1]) + "x" +
           llvm::Twine(workgroup[2]) + " threads, but it was compiled for " +
           llvm::Twine(compiled[0]) + "x" + llvm::Twine(compiled[1]) + "x" +
           llvm::Twine(compiled[2]) + " (its known_block_size)");
  LaunchArguments arguments = readArguments(
      name, kernel.getFunctionType(), kernel.getTarget(), params, paramsCount);
  runner::RunResult result;
  rt::Status status =
      runner::runKernel(device, module.kernels.image, name, groups, workgroup,
                        kernel.getFunctionType().getInputs(), arguments.scalars,
                        arguments.buffers, result);
  if (!status.ok())
    fail("launch of @" + name + ": " + status.error);
  writeBack(arguments, result);
}

extern "C" {

CORO_WRAPPER_EXPORT void *mgpuModuleLoad(const void *data, size_t bytes) {
  WrapperState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto module = std::make_unique<HostModule>();
  module->object.assign(static_cast<const char *>(data), bytes);
  llvm::Expected<runner::HostKernels> kernels =
      runner::decodeHostKernels(module->object, &state.context);
  if (!kernels)
    fail(llvm::toString(kernels.takeError()));
  module->kernels = *kernels;
  state.modules.push_back(std::move(module));
  return state.modules.back().get();
}

CORO_WRAPPER_EXPORT void *mgpuModuleLoadJIT(void *, int, size_t) {
  fail("a module of assembly (PTX text for the driver to compile) reached "
       "the CoroGPU wrappers; compile the host program with "
       "coro-host-to-llvm");
}

CORO_WRAPPER_EXPORT void mgpuModuleUnload(void *) {
  // Modules stay loaded until the program ends: their functions may be
  // launched again after a reload of the same binary.
}

CORO_WRAPPER_EXPORT void *mgpuModuleGetFunction(void *module,
                                                const char *name) {
  WrapperState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto *hostModule = static_cast<HostModule *>(module);
  for (Attribute entry : hostModule->kernels.descriptor) {
    StringRef entryName = isa<plan::HostCoroutineAttr>(entry)
                              ? cast<plan::HostCoroutineAttr>(entry).getName()
                              : cast<plan::HostKernelAttr>(entry).getName();
    if (entryName != name)
      continue;
    state.functions.push_back(
        std::make_unique<HostFunction>(HostFunction{hostModule, entry}));
    return state.functions.back().get();
  }
  fail("no kernel @" + llvm::Twine(name) + " in the module");
}

CORO_WRAPPER_EXPORT void *mgpuStreamCreate() {
  // Every launch completes before it returns: one stream serves all.
  return &getState();
}

CORO_WRAPPER_EXPORT void mgpuStreamDestroy(void *) {}

CORO_WRAPPER_EXPORT void mgpuStreamSynchronize(void *) {}

// gpu.host_register makes host memory visible to the device: all memory
// is, here.
CORO_WRAPPER_EXPORT void mgpuMemHostRegisterMemRef(int64_t, void *, int64_t) {}
CORO_WRAPPER_EXPORT void mgpuMemHostUnregisterMemRef(int64_t, void *, int64_t) {
}

// Events order work between streams; with every launch complete when it
// returns, there is nothing to order.
CORO_WRAPPER_EXPORT void *mgpuEventCreate() { return &getState(); }
CORO_WRAPPER_EXPORT void mgpuEventDestroy(void *) {}
CORO_WRAPPER_EXPORT void mgpuEventSynchronize(void *) {}
CORO_WRAPPER_EXPORT void mgpuEventRecord(void *, void *) {}
CORO_WRAPPER_EXPORT void mgpuStreamWaitEvent(void *, void *) {}

// Device memory (gpu.alloc, gpu.memcpy, gpu.memset) is host memory here:
// every launch copies its memrefs to the device and back, so a gpu.alloc'ed
// memref is one more host buffer.
CORO_WRAPPER_EXPORT void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/,
                                       bool /*isHostShared*/) {
  // Aligned as memref.alloc's, for any element type.
  void *memory =
      std::aligned_alloc(64, llvm::alignTo(std::max<uint64_t>(bytes, 1), 64));
  if (!memory)
    fail("gpu.alloc of " + llvm::Twine(bytes) + " bytes: out of memory");
  return memory;
}

CORO_WRAPPER_EXPORT void mgpuMemFree(void *memory, void * /*stream*/) {
  std::free(memory);
}

CORO_WRAPPER_EXPORT void mgpuMemcpy(void *destination, void *source,
                                    size_t bytes, void * /*stream*/) {
  std::memmove(destination, source, bytes);
}

CORO_WRAPPER_EXPORT void mgpuMemset32(void *destination, unsigned value,
                                      size_t count, void * /*stream*/) {
  auto *words = static_cast<uint32_t *>(destination);
  std::fill(words, words + count, uint32_t(value));
}

CORO_WRAPPER_EXPORT void mgpuMemset16(void *destination, unsigned short value,
                                      size_t count, void * /*stream*/) {
  auto *halves = static_cast<uint16_t *>(destination);
  std::fill(halves, halves + count, uint16_t(value));
}

CORO_WRAPPER_EXPORT void
mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                 intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                 int32_t sharedMemoryBytes, void * /*stream*/, void **params,
                 void ** /*extra*/, size_t paramsCount) {
  WrapperState &state = getState();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto *hostFunction = static_cast<HostFunction *>(function);
  std::array<uint32_t, 3> grid = toExtents("grid", gridX, gridY, gridZ);
  std::array<uint32_t, 3> block = toExtents("block", blockX, blockY, blockZ);
  if (sharedMemoryBytes != 0)
    fail("dynamic shared memory is not supported by the CoroGPU wrappers");
  // A launch of no instances or threads (a grid of ceil(0 / n)) runs nothing.
  if (rt::countInstances(grid) == 0 || rt::countInstances(block) == 0)
    return;
  if (auto coroutine = dyn_cast<plan::HostCoroutineAttr>(hostFunction->entry)) {
    if (block != std::array<uint32_t, 3>{1, 1, 1})
      fail("a launch of coroutine @" + coroutine.getName() +
           " has blocks of threads: its grid counts instances");
    launchCoroutine(coroutine, *hostFunction->module, grid, params,
                    paramsCount);
    return;
  }
  launchKernel(cast<plan::HostKernelAttr>(hostFunction->entry),
               *hostFunction->module, grid, block, params, paramsCount);
}

} // extern "C"

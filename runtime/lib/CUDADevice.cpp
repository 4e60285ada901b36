//===- CUDADevice.cpp - the CUDA backend of the runtime -------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"), so the
// project builds and its tests run on machines without CUDA; there,
// createCUDADevice says "no CUDA driver". Kernels come as PTX text, JIT-
// compiled by the driver (cuModuleLoadData); launches are timed with events.
// Kernel parameters are passed as the caller lays them out (scalars, and
// buffer addresses for pointer parameters).
//
//===----------------------------------------------------------------------===//

#include "corogpu/runtime/Device.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace corogpu::runtime;

namespace {

// The few driver API types and entry points the backend uses, declared here
// so that no CUDA header is needed to build.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUevent = struct CUevent_st *;
using CUstream = struct CUstream_st *;
using CUgraph = struct CUgraph_st *;
using CUgraphExec = struct CUgraphExec_st *;
constexpr int kComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_..._MAJOR
constexpr int kComputeCapabilityMinor = 76; // CU_DEVICE_ATTRIBUTE_..._MINOR
constexpr int kMaxThreadsPerBlock = 1;      // CU_DEVICE_ATTRIBUTE_..._BLOCK
constexpr int kMaxSharedMemoryPerBlock = 8; // CU_DEVICE_ATTRIBUTE_..._BLOCK
constexpr int kMultiprocessorCount = 16;    // CU_DEVICE_ATTRIBUTE_..._COUNT
// CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR
constexpr int kMaxThreadsPerMultiprocessor = 39;
// CU_STREAM_CAPTURE_MODE_RELAXED: a capture forbids no other call (it
// looks the kernels up, cuModuleGetFunction, as it records them).
constexpr int kCaptureModeRelaxed = 2;

struct DriverAPI {
  void *library = nullptr;
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*deviceGetCount)(int *) = nullptr;
  CUresult (*deviceGet)(CUdevice *, int) = nullptr;
  CUresult (*deviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*deviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*deviceTotalMem)(size_t *, CUdevice) = nullptr;
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*primaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*ctxSetCurrent)(CUcontext) = nullptr;
  CUresult (*ctxSynchronize)() = nullptr;
  CUresult (*moduleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*moduleUnload)(CUmodule) = nullptr;
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*memAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*memFree)(CUdeviceptr) = nullptr;
  CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **) = nullptr;
  CUresult (*eventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*eventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*eventSynchronize)(CUevent) = nullptr;
  CUresult (*eventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*eventDestroy)(CUevent) = nullptr;
  CUresult (*getErrorString)(CUresult, const char **) = nullptr;
  CUresult (*getErrorName)(CUresult, const char **) = nullptr;
  // Graphs (recorded batches), bound where the driver has them: a driver
  // without them runs everything else.
  CUresult (*streamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*streamDestroy)(CUstream) = nullptr;
  CUresult (*streamBeginCapture)(CUstream, int) = nullptr;
  CUresult (*streamEndCapture)(CUstream, CUgraph *) = nullptr;
  CUresult (*graphInstantiate)(CUgraphExec *, CUgraph,
                               unsigned long long) = nullptr;
  CUresult (*graphLaunch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*graphExecDestroy)(CUgraphExec) = nullptr;
  CUresult (*graphDestroy)(CUgraph) = nullptr;

  /// Loads the driver; on failure says which library or symbol is missing.
  Status load() {
    library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library)
      return Status::failure("no CUDA driver (libcuda.so.1 cannot be loaded)");
    std::string missing;
    auto bind = [&](auto &function, std::initializer_list<const char *> names) {
      for (const char *name : names) {
        if (void *symbol = dlsym(library, name)) {
          function = reinterpret_cast<std::decay_t<decltype(function)>>(symbol);
          return;
        }
      }
      missing += std::string(missing.empty() ? "" : ", ") + *names.begin();
    };
    bind(init, {"cuInit"});
    bind(deviceGetCount, {"cuDeviceGetCount"});
    bind(deviceGet, {"cuDeviceGet"});
    bind(deviceGetName, {"cuDeviceGetName"});
    bind(deviceGetAttribute, {"cuDeviceGetAttribute"});
    bind(deviceTotalMem, {"cuDeviceTotalMem_v2"});
    bind(primaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    bind(primaryCtxRelease,
         {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
    bind(ctxSetCurrent, {"cuCtxSetCurrent"});
    bind(ctxSynchronize, {"cuCtxSynchronize"});
    bind(moduleLoadData, {"cuModuleLoadData"});
    bind(moduleUnload, {"cuModuleUnload"});
    bind(moduleGetFunction, {"cuModuleGetFunction"});
    bind(memAlloc, {"cuMemAlloc_v2"});
    bind(memFree, {"cuMemFree_v2"});
    bind(memcpyHtoD, {"cuMemcpyHtoD_v2"});
    bind(memcpyDtoH, {"cuMemcpyDtoH_v2"});
    bind(launchKernel, {"cuLaunchKernel"});
    bind(eventCreate, {"cuEventCreate"});
    bind(eventRecord, {"cuEventRecord"});
    bind(eventSynchronize, {"cuEventSynchronize"});
    bind(eventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    bind(eventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
    bind(getErrorString, {"cuGetErrorString"});
    bind(getErrorName, {"cuGetErrorName"});
    if (!missing.empty())
      return Status::failure("the CUDA driver lacks " + missing);
    bind(streamCreate, {"cuStreamCreate"});
    bind(streamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"});
    bind(streamBeginCapture, {"cuStreamBeginCapture_v2"});
    bind(streamEndCapture, {"cuStreamEndCapture"});
    bind(graphInstantiate, {"cuGraphInstantiateWithFlags"});
    bind(graphLaunch, {"cuGraphLaunch"});
    bind(graphExecDestroy, {"cuGraphExecDestroy"});
    bind(graphDestroy, {"cuGraphDestroy"});
    missingGraphCalls = missing;
    return Status::success();
  }

  /// The graph entry points this driver lacks (empty: it has them all).
  std::string missingGraphCalls;

  /// `CUDA_ERROR_<NAME> (<description>)`, or the number where the driver
  /// does not know it.
  std::string describe(CUresult result) const {
    const char *name = nullptr, *text = nullptr;
    if (getErrorName)
      getErrorName(result, &name);
    if (getErrorString)
      getErrorString(result, &text);
    std::string described =
        name ? std::string(name) : "CUDA error " + std::to_string(result);
    return described + (text ? std::string(" (") + text + ")" : "");
  }
};

class CUDABuffer : public Buffer {
public:
  CUDABuffer(const DriverAPI &api, CUdeviceptr pointer, size_t size)
      : api(api), pointer(pointer), size(size) {}
  ~CUDABuffer() override { api.memFree(pointer); }
  size_t getSize() const override { return size; }

  const DriverAPI &api;
  CUdeviceptr pointer;
  size_t size;
};

class CUDADevice : public Device {
public:
  ~CUDADevice() override {
    if (module)
      api.moduleUnload(module);
    if (context)
      api.primaryCtxRelease(device);
    if (api.library)
      dlclose(api.library);
  }

  Status initialize(int ordinal) {
    if (Status status = api.load(); !status.ok())
      return status;
    if (CUresult result = api.init(0))
      return Status::failure("cannot initialize CUDA: " + api.describe(result));
    if (const char *env = std::getenv("COROGPU_CUDA_DEVICE"))
      ordinal = std::atoi(env);
    int count = 0;
    api.deviceGetCount(&count);
    if (ordinal < 0 || ordinal >= count)
      return Status::failure("no CUDA device " + std::to_string(ordinal) +
                             " (" + std::to_string(count) + " found)");
    if (CUresult result = api.deviceGet(&device, ordinal))
      return Status::failure(api.describe(result));
    char buffer[256] = {};
    api.deviceGetName(buffer, sizeof(buffer), device);
    name = buffer;
    int major = 0, minor = 0;
    api.deviceGetAttribute(&major, kComputeCapabilityMajor, device);
    api.deviceGetAttribute(&minor, kComputeCapabilityMinor, device);
    target = KernelTarget::getPTX("sm_" + std::to_string(major) +
                                  std::to_string(minor));
    computeCapabilityMajor = major;
    int threads = 0, shared = 0;
    api.deviceGetAttribute(&threads, kMaxThreadsPerBlock, device);
    api.deviceGetAttribute(&shared, kMaxSharedMemoryPerBlock, device);
    maxWorkgroupSize = threads;
    int multiprocessors = 0, perMultiprocessor = 0;
    api.deviceGetAttribute(&multiprocessors, kMultiprocessorCount, device);
    api.deviceGetAttribute(&perMultiprocessor, kMaxThreadsPerMultiprocessor,
                           device);
    residentThreads = uint64_t(std::max(multiprocessors, 1)) *
                      uint64_t(std::max(perMultiprocessor, threads));
    maxWorkgroupMemoryBytes = shared;
    size_t total = 0;
    api.deviceTotalMem(&total, device);
    memoryBytes = total;
    if (CUresult result = api.primaryCtxRetain(&context, device))
      return Status::failure("cannot create a CUDA context: " +
                             api.describe(result));
    api.ctxSetCurrent(context);
    return Status::success();
  }

  std::string getName() const override { return name; }
  KernelTarget getTarget() const override { return target; }

  std::unique_ptr<Buffer> createBuffer(size_t bytes, Status &status) override {
    CUdeviceptr pointer = 0;
    if (CUresult result = api.memAlloc(&pointer, bytes ? bytes : 4)) {
      status = Status::failure("out of device memory allocating " +
                               std::to_string(bytes) +
                               " bytes: " + api.describe(result));
      return nullptr;
    }
    status = Status::success();
    return std::make_unique<CUDABuffer>(api, pointer, bytes);
  }

  Status upload(Buffer &buffer, const void *data, size_t bytes) override {
    auto &cudaBuffer = static_cast<CUDABuffer &>(buffer);
    if (bytes > cudaBuffer.size)
      return Status::failure("upload larger than the buffer");
    if (CUresult result = api.memcpyHtoD(cudaBuffer.pointer, data, bytes))
      return Status::failure("upload failed: " + api.describe(result));
    return Status::success();
  }

  Status download(const Buffer &buffer, void *data, size_t bytes) override {
    const auto &cudaBuffer = static_cast<const CUDABuffer &>(buffer);
    if (bytes > cudaBuffer.size)
      return Status::failure("download larger than the buffer");
    if (CUresult result = api.memcpyDtoH(data, cudaBuffer.pointer, bytes))
      return Status::failure("download failed: " + api.describe(result));
    return Status::success();
  }

  Status loadModule(const void *image, size_t bytes) override {
    // cuModuleLoadData wants NUL-terminated PTX text.
    std::string text(static_cast<const char *>(image), bytes);
    if (module && text == loadedText)
      return Status::success();
    loadedText = text;
    if (module)
      api.moduleUnload(module);
    module = nullptr;
    if (CUresult result = api.moduleLoadData(&module, text.c_str()))
      return Status::failure("cannot load the PTX module: " +
                             api.describe(result));
    return Status::success();
  }

  Status launchBatch(const std::vector<Dispatch> &dispatches,
                     std::vector<double> *gpuMilliseconds) override {
    if (!module)
      return Status::failure("no module loaded");
    // All launches go to the default stream, in order; events around each
    // one time it. CUDA has no indirect dispatch: an indirect launch runs
    // its upper bound of workgroups and the kernel exits early by itself.
    std::vector<CUevent> events(2 * dispatches.size(), nullptr);
    if (gpuMilliseconds)
      for (CUevent &event : events)
        api.eventCreate(&event, 0);
    auto destroyEvents = [&] {
      for (CUevent event : events)
        if (event)
          api.eventDestroy(event);
    };
    for (size_t i = 0; i < dispatches.size(); ++i) {
      if (gpuMilliseconds)
        api.eventRecord(events[2 * i], nullptr);
      Status launched = enqueue(dispatches[i], nullptr);
      if (gpuMilliseconds)
        api.eventRecord(events[2 * i + 1], nullptr);
      if (!launched.ok()) {
        destroyEvents();
        return launched;
      }
    }
    if (CUresult result = api.ctxSynchronize()) {
      destroyEvents();
      return Status::failure((dispatches.size() == 1
                                  ? "kernel '" + dispatches[0].kernel + "'"
                                  : std::string("a batch of kernels")) +
                             " failed: " + api.describe(result));
    }
    if (gpuMilliseconds) {
      gpuMilliseconds->resize(dispatches.size());
      for (size_t i = 0; i < dispatches.size(); ++i) {
        float milliseconds = 0;
        api.eventElapsedTime(&milliseconds, events[2 * i], events[2 * i + 1]);
        (*gpuMilliseconds)[i] = milliseconds;
      }
    }
    destroyEvents();
    return Status::success();
  }

  std::unique_ptr<RecordedBatch>
  recordBatch(const std::vector<Dispatch> &dispatches, Status &status) override;

  /// Launches `dispatch` into `stream` (null: the default stream) without
  /// waiting for it.
  Status enqueue(const Dispatch &dispatch, CUstream stream) {
    CUfunction function;
    if (api.moduleGetFunction(&function, module, dispatch.kernel.c_str()))
      return Status::failure("no kernel '" + dispatch.kernel +
                             "' in the loaded module");
    // Parameter storage must outlive the launch call (which copies it).
    std::vector<std::vector<uint8_t>> storage;
    std::vector<void *> params;
    for (const KernelArg &arg : dispatch.args) {
      if (arg.buffer)
        return Status::failure(
            "CUDA kernels take buffer addresses, not bound buffers");
      if (arg.address) {
        CUdeviceptr pointer = static_cast<CUDABuffer *>(arg.address)->pointer;
        std::vector<uint8_t> bytes(sizeof(pointer));
        std::memcpy(bytes.data(), &pointer, sizeof(pointer));
        storage.push_back(std::move(bytes));
      } else {
        storage.push_back(arg.scalar);
      }
    }
    params.reserve(storage.size());
    for (std::vector<uint8_t> &bytes : storage)
      params.push_back(bytes.data());
    const std::array<uint32_t, 3> &groups = dispatch.groups;
    const std::array<uint32_t, 3> &workgroup = dispatch.workgroup;
    if (!groups[0] || !groups[1] || !groups[2])
      return Status::success();
    if (CUresult result = api.launchKernel(
            function, groups[0], groups[1], groups[2], workgroup[0],
            workgroup[1], workgroup[2], 0, stream, params.data(), nullptr))
      return Status::failure("kernel '" + dispatch.kernel +
                             "' failed to launch: " + api.describe(result));
    return Status::success();
  }

  const DriverAPI &getAPI() const { return api; }

  uint64_t getMemoryBytes() const override { return memoryBytes; }
  uint64_t getMaxBufferBytes() const override { return memoryBytes; }
  uint64_t getMaxWorkgroupMemoryBytes() const override {
    return maxWorkgroupMemoryBytes;
  }
  uint32_t getMaxWorkgroupSize() const override { return maxWorkgroupSize; }
  uint64_t getResidentThreads() const override { return residentThreads; }
  uint32_t getLoopIterationLimit() const override { return 0; }
  bool supportsSubgroupReductions() const override {
    return computeCapabilityMajor >= 8;
  }
  // Every NVIDIA GPU CUDA 13 supports has warps of 32 threads.
  uint32_t getSubgroupSize() const override { return 32; }
  bool isCPU() const override { return false; }

private:
  DriverAPI api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int computeCapabilityMajor = 0;
  CUmodule module = nullptr;
  std::string name, loadedText;
  KernelTarget target;
  uint64_t memoryBytes = 0;
  uint64_t maxWorkgroupMemoryBytes = 0;
  uint32_t maxWorkgroupSize = 0;
  uint64_t residentThreads = 65536;
};

/// A batch captured from a stream into a CUDA graph, instantiated once and
/// launched into that stream at each launch.
class CUDARecordedBatch : public RecordedBatch {
public:
  explicit CUDARecordedBatch(CUDADevice &owner)
      : owner(owner), api(owner.getAPI()) {}
  ~CUDARecordedBatch() override {
    for (CUevent event : events)
      if (event)
        api.eventDestroy(event);
    if (executable)
      api.graphExecDestroy(executable);
    if (graph)
      api.graphDestroy(graph);
    if (stream)
      api.streamDestroy(stream);
  }

  Status record(const std::vector<Dispatch> &dispatches) {
    if (!api.missingGraphCalls.empty())
      return Status::failure("the CUDA driver has no graphs (it lacks " +
                             api.missingGraphCalls + ")");
    // A blocking stream: it waits for the default stream's work (uploads)
    // as the default stream's launches do.
    if (CUresult result = api.streamCreate(&stream, 0))
      return Status::failure("cannot create a stream to record a batch in: " +
                             api.describe(result));
    if (CUresult result = api.streamBeginCapture(stream, kCaptureModeRelaxed))
      return Status::failure("cannot record a batch (cuStreamBeginCapture): " +
                             api.describe(result));
    Status launched = Status::success();
    for (const Dispatch &dispatch : dispatches) {
      launched = owner.enqueue(dispatch, stream);
      if (!launched.ok())
        break;
    }
    // The capture ends whatever happened, so that the stream is usable.
    CUresult ended = api.streamEndCapture(stream, &graph);
    if (!launched.ok())
      return launched;
    if (ended)
      return Status::failure("cannot record a batch (cuStreamEndCapture): " +
                             api.describe(ended));
    if (CUresult result = api.graphInstantiate(&executable, graph, 0))
      return Status::failure("cannot instantiate the recorded batch's graph: " +
                             api.describe(result));
    // Recorded around each launch, when it is timed.
    for (CUevent &event : events)
      if (CUresult result = api.eventCreate(&event, 0))
        return Status::failure("cannot create an event to time a recorded "
                               "batch: " +
                               api.describe(result));
    return Status::success();
  }

  Status launch(double *gpuMilliseconds) override {
    if (gpuMilliseconds)
      api.eventRecord(events[0], stream);
    CUresult result = api.graphLaunch(executable, stream);
    if (gpuMilliseconds)
      api.eventRecord(events[1], stream);
    if (!result)
      result = api.ctxSynchronize();
    if (result)
      return Status::failure("a recorded batch of kernels failed: " +
                             api.describe(result));
    if (gpuMilliseconds) {
      float milliseconds = 0;
      if (CUresult timed =
              api.eventElapsedTime(&milliseconds, events[0], events[1]))
        return Status::failure("cannot time a recorded batch: " +
                               api.describe(timed));
      *gpuMilliseconds = milliseconds;
    }
    return Status::success();
  }

private:
  CUDADevice &owner;
  const DriverAPI &api;
  CUstream stream = nullptr;
  CUgraph graph = nullptr;
  CUgraphExec executable = nullptr;
  CUevent events[2] = {nullptr, nullptr};
};

std::unique_ptr<RecordedBatch>
CUDADevice::recordBatch(const std::vector<Dispatch> &dispatches,
                        Status &status) {
  if (!module) {
    status = Status::failure("no module loaded");
    return nullptr;
  }
  auto recorded = std::make_unique<CUDARecordedBatch>(*this);
  status = recorded->record(dispatches);
  if (!status.ok())
    return nullptr;
  return recorded;
}

} // namespace

std::unique_ptr<Device> corogpu::runtime::createCUDADevice(int ordinal,
                                                           Status &status) {
  auto device = std::make_unique<CUDADevice>();
  status = device->initialize(ordinal);
  if (!status.ok())
    return nullptr;
  return device;
}

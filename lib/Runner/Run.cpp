//===- Run.cpp - run a compiled coroutine on a device ---------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/Run.h"
#include "CoroGPU/Dialect/Plan/RuntimePlans.h"
#include "CoroGPU/Runner/KernelABI.h"

#include <chrono>

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;
namespace rt = corogpu::runtime;

using Clock = std::chrono::steady_clock;
static double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

RunOptions mlir::coro::runner::getRunOptions(const rt::Device &device,
                                             const CompiledCoroutine &compiled,
                                             const RunLimitSettings &settings) {
  RunOptions options;
  for (rt::RunLimits *limits :
       {&options.wavefront.limits, &options.persistent.limits,
        &options.instanceKernel.limits}) {
    limits->maxRounds = settings.maxRounds.value_or(uint64_t(1) << 20);
    limits->maxSeconds = settings.maxSeconds;
    limits->howToChange = settings.howToChange;
  }
  auto machine = dyn_cast<plan::StateMachinePlanAttr>(compiled.plan);
  if (machine && machine.getStepsPerLaunch() == 0 &&
      device.limitsLoopIterations() &&
      !settings.stateMachineStepsAdvice.empty())
    options.instanceKernel.loopLimitAdvice =
        "; " + settings.stateMachineStepsAdvice;
  return options;
}

ScheduledRun
mlir::coro::runner::getScheduledRun(const CompiledCoroutine &compiled) {
  namespace plan = coro::plan;
  ScheduledRun run;
  StringRef name = compiled.coroutine;
  Attribute planAttr = compiled.plan;
  if (auto mega = dyn_cast<plan::MegakernelPlanAttr>(planAttr)) {
    run.instanceKernel = plan::toRuntimePlan(mega, name);
  } else if (auto machine = dyn_cast<plan::StateMachinePlanAttr>(planAttr)) {
    run.instanceKernel = plan::toRuntimePlan(machine, name);
    run.stateMachine = true;
  } else if (auto wave = dyn_cast<plan::WavefrontPlanAttr>(planAttr)) {
    run.wavefront = plan::toRuntimePlan(wave, name);
  } else {
    run.persistent =
        plan::toRuntimePlan(cast<plan::PersistentPlanAttr>(planAttr), name);
  }
  run.fallThrough = compiled.fallThrough;
  if (ArrayAttr names = plan::getSubroutineNames(planAttr))
    for (StringRef subroutine : names.getAsValueRange<StringAttr>())
      run.subroutineNames.push_back(subroutine.str());
  return run;
}

/// Loads `image` and uploads `buffers` into new `deviceBuffers`.
static rt::Status
loadAndUpload(rt::Device &device, StringRef image, ArrayRef<HostBuffer> buffers,
              std::vector<std::unique_ptr<rt::Buffer>> &deviceBuffers) {
  rt::Status status = device.loadModule(image.data(), image.size());
  if (!status.ok())
    return status;
  for (const HostBuffer &buffer : buffers) {
    // An empty buffer still gets room for one element: a bounds-checked
    // load out of bounds reads element 0 (BoundsCheckABI.h).
    deviceBuffers.push_back(device.createBuffer(
        std::max(buffer.bytes.size(), buffer.elementSize), status));
    if (!status.ok())
      return status;
    status = device.upload(*deviceBuffers.back(), buffer.bytes.data(),
                           buffer.bytes.size());
    if (!status.ok())
      return status;
  }
  return status;
}

static rt::Status
downloadBuffers(rt::Device &device,
                ArrayRef<std::unique_ptr<rt::Buffer>> deviceBuffers,
                MutableArrayRef<HostBuffer> buffers) {
  for (auto [buffer, deviceBuffer] : llvm::zip_equal(buffers, deviceBuffers))
    if (rt::Status status = device.download(*deviceBuffer, buffer.bytes.data(),
                                            buffer.bytes.size());
        !status.ok())
      return status;
  return rt::Status::success();
}

/// An error unless `scalars` and `buffers` are the arguments of
/// `argumentTypes` (one buffer per memref, one scalar per other type).
static rt::Status checkArguments(StringRef function,
                                 ArrayRef<Type> argumentTypes,
                                 ArrayRef<rt::KernelArg> scalars,
                                 ArrayRef<HostBuffer> buffers) {
  size_t memrefs = llvm::count_if(argumentTypes, llvm::IsaPred<MemRefType>);
  if (memrefs == buffers.size() &&
      argumentTypes.size() - memrefs == scalars.size()) {
    // Each buffer of its memref's element type, as long as its static shape.
    size_t next = 0;
    for (auto [index, type] : llvm::enumerate(argumentTypes)) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref)
        continue;
      const HostBuffer &buffer = buffers[next++];
      if (buffer.elementType != memref.getElementType() ||
          buffer.elementSize != getElementSize(buffer.elementType) ||
          buffer.bytes.size() != buffer.count * buffer.elementSize ||
          (memref.hasStaticShape() &&
           buffer.count < uint64_t(memref.getNumElements()))) {
        std::string expected;
        llvm::raw_string_ostream os(expected);
        os << memref;
        return rt::Status::invalidInput(
            ("argument #" + llvm::Twine(index) + " of @" + function + " is " +
             expected + ", but its buffer has " + llvm::Twine(buffer.count) +
             " elements of another type or size")
                .str());
      }
    }
    return rt::Status::success();
  }
  return rt::Status::invalidInput(
      ("@" + function + " takes " + llvm::Twine(memrefs) + " buffer(s) and " +
       llvm::Twine(argumentTypes.size() - memrefs) + " scalar(s); " +
       llvm::Twine(buffers.size()) + " and " + llvm::Twine(scalars.size()) +
       " were given")
          .str());
}

rt::Status mlir::coro::runner::runCoroutine(
    rt::Device &device, const CompiledCoroutine &compiled,
    std::array<uint32_t, 3> grid, ArrayRef<Type> argumentTypes,
    ArrayRef<rt::KernelArg> scalars, ArrayRef<HostBuffer> buffers,
    const RunOptions &options, RunResult &result) {
  result = RunResult();
  if (!compiled.plan)
    return rt::Status::invalidInput("@" + compiled.coroutine +
                                    " has no plan: compile it first "
                                    "(compileCoroutine)");
  if (rt::countInstances(grid) == 0)
    return rt::Status::invalidInput("the grid of @" + compiled.coroutine +
                                    " has no instance");
  result.scheduled = getScheduledRun(compiled);
  ScheduledRun &scheduled = result.scheduled;
  if (rt::Status valid =
          checkArguments(compiled.coroutine, argumentTypes, scalars, buffers);
      !valid.ok())
    return valid;
  if (device.getTarget() != compiled.target)
    return rt::Status::invalidInput(
        "@" + compiled.coroutine + " was compiled for " +
        compiled.target.str() + ", but " + device.getName() + " runs " +
        device.getTarget().str());

  Clock::time_point start = Clock::now();
  std::vector<HostBuffer> hostBuffers(buffers.begin(), buffers.end());
  std::vector<std::unique_ptr<rt::Buffer>> deviceBuffers;
  rt::Status status =
      loadAndUpload(device, compiled.image, hostBuffers, deviceBuffers);
  if (!status.ok())
    return status;
  double uploadMs = millisecondsSince(start);

  bool ptxABI = device.getTarget().isPTX();
  std::vector<rt::KernelArg> args = buildKernelArguments(
      ptxABI, grid, argumentTypes, scalars, deviceBuffers, hostBuffers);
  double gpuMs = 0;
  start = Clock::now();
  auto passBuffer = [&](std::vector<rt::KernelArg> &out, rt::Buffer &buffer,
                        uint64_t words) {
    appendMemRefArgument(out, ptxABI, buffer, {int64_t(words)});
  };
  std::vector<rt::KernelArg> gridArgs(args.begin(), args.begin() + 3);
  std::vector<rt::KernelArg> coroutineArgs(args.begin() + 3, args.end());
  if (scheduled.wavefront) {
    rt::WavefrontStats &stats = scheduled.wavefrontStats;
    status = rt::runWavefront(device, *scheduled.wavefront, options.wavefront,
                              grid, gridArgs, coroutineArgs, passBuffer, stats);
    gpuMs = stats.schedulingMilliseconds + stats.subroutineMilliseconds +
            stats.recordedMilliseconds;
  } else if (scheduled.persistent) {
    rt::PersistentStats &stats = scheduled.persistentStats;
    status =
        rt::runPersistent(device, *scheduled.persistent, options.persistent,
                          grid, gridArgs, coroutineArgs, passBuffer, stats);
    gpuMs = stats.gpuMilliseconds;
  } else {
    rt::InstanceKernelStats &stats = scheduled.instanceStats;
    status = rt::runInstanceKernel(device, scheduled.instanceKernel,
                                   options.instanceKernel, grid, args,
                                   passBuffer, stats);
    gpuMs = stats.gpuMilliseconds;
  }
  auto download = [&] {
    return downloadBuffers(device, deviceBuffers, hostBuffers);
  };
  if (!status.ok()) {
    // A run that a limit cut short leaves its buffers as they were then
    // (with bounds checks: the violations so far, which may say why).
    if (status.code == rt::StatusCode::LimitExceeded && download().ok())
      result.buffers = std::move(hostBuffers);
    return status;
  }
  double runMs = millisecondsSince(start);

  start = Clock::now();
  status = download();
  if (!status.ok())
    return status;
  result.timing = {uploadMs, runMs, gpuMs, millisecondsSince(start)};
  result.buffers = std::move(hostBuffers);
  return rt::Status::success();
}

rt::Status mlir::coro::runner::runKernel(
    rt::Device &device, StringRef image, StringRef kernel,
    std::array<uint32_t, 3> groups, std::array<uint32_t, 3> workgroup,
    ArrayRef<Type> argumentTypes, ArrayRef<rt::KernelArg> scalars,
    ArrayRef<HostBuffer> buffers, RunResult &result) {
  result = RunResult();
  if (rt::Status valid =
          checkArguments(kernel, argumentTypes, scalars, buffers);
      !valid.ok())
    return valid;
  if (rt::countInstances(groups) == 0 || rt::countInstances(workgroup) == 0)
    return rt::Status::invalidInput("a launch of " + kernel.str() +
                                    " without threads");
  Clock::time_point start = Clock::now();
  std::vector<HostBuffer> hostBuffers(buffers.begin(), buffers.end());
  std::vector<std::unique_ptr<rt::Buffer>> deviceBuffers;
  rt::Status status = loadAndUpload(device, image, hostBuffers, deviceBuffers);
  if (!status.ok())
    return status;
  double uploadMs = millisecondsSince(start);

  // The kernel's own arguments: buildKernelArguments less the grid.
  bool ptxABI = device.getTarget().isPTX();
  std::vector<rt::KernelArg> args = buildKernelArguments(
      ptxABI, {1, 1, 1}, argumentTypes, scalars, deviceBuffers, hostBuffers);
  args.erase(args.begin(), args.begin() + 3);
  start = Clock::now();
  double gpuMs = 0;
  status = device.launch(kernel.str(), groups, workgroup, args, &gpuMs);
  if (!status.ok())
    return status;
  double runMs = millisecondsSince(start);
  start = Clock::now();
  status = downloadBuffers(device, deviceBuffers, hostBuffers);
  if (!status.ok())
    return status;
  result.timing = {uploadMs, runMs, gpuMs, millisecondsSince(start)};
  result.buffers = std::move(hostBuffers);
  return rt::Status::success();
}

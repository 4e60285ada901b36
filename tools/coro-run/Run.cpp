//===- Run.cpp - coro-run: compile and run on a device
//---------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The second phase of a run: the device of --backend, the kernels compiled
// for it under the scheduler with the command line's options over the
// Runner library's policy, the runs (--repeat, the median reported) and the
// reference of --check. --emit compiles the same way and writes the code
// instead.
//
//===----------------------------------------------------------------------===//

#include "CoroRun.h"

#include "CoroGPU/Runner/CPUReference.h"
#include "CoroGPU/Runner/CompilePolicy.h"
#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace corogpu::cororun;

/// The schedulers' options for `device`: the library's policy
/// with what the command line sets (runner::getCompileOptions).
static coro::SchedulerCompileOptions
getSchedulerCompileOptions(const runner::DeviceTraits &device) {
  coro::SchedulerCompileOptions options =
      runner::getCompileOptions(device, compileFlags);
  bool needsClassify = compactBelow != 0 || order != rt::LaunchOrder::Fixed ||
                       refill != rt::RefillPolicy::EveryRound;
  if (options.wavefront.design == coro::WavefrontDesign::Auto && needsClassify)
    options.wavefront.design = coro::WavefrontDesign::Classify;
  // Not profiled: see the --profile-lanes check in prepareArguments.
  if (compileFlags.profileLanes && !compileFlags.fallThrough.hasValue()) {
    options.persistent.fallThrough = false;
    options.stateMachine.fallThrough = false;
  }
  return options;
}

/// The device --emit compiles for (--device-traits), for `target`.
static FailureOr<runner::DeviceTraits>
getEmitDevice(const coro::KernelTarget &target) {
  llvm::Expected<runner::DeviceTraits> device =
      runner::parseDeviceTraits(deviceTraits, target);
  if (!device) {
    fail("--device-traits: " + llvm::toString(device.takeError()), kExitUsage);
    return failure();
  }
  return *device;
}

int CoroRun::emitCode() {
  if (emit == EmitKind::PTX && !coro::isNVVMChip(chip))
    return fail("--chip: '" + chip +
                    "' is not an NVIDIA architecture coro-run targets; use "
                    "sm_<major><minor>, e.g. sm_90 (sm_20 to sm_90, sm_100, "
                    "sm_101, sm_103, sm_110, sm_120, sm_121)",
                kExitUsage);
  FailureOr<runner::DeviceTraits> device =
      getEmitDevice(emit == EmitKind::PTX ? coro::KernelTarget::getPTX(chip)
                                          : coro::KernelTarget::getSPIRV());
  if (failed(device))
    return kExitUsage;
  std::string error;
  auto output = openOutputFile(emitTo, &error);
  if (!output)
    return fail(error, kExitUsage);
  if (emit == EmitKind::PTX) {
    std::string ptx;
    if (failed(runner::compileToPTX(*module, coroutineName, scheduler, chip,
                                    getSchedulerCompileOptions(*device), ptx)))
      return fail("compiling to PTX failed (see above)", kExitCompile);
    output->os() << ptx;
  } else {
    std::vector<uint32_t> words;
    OwningOpRef<ModuleOp> lowered;
    if (failed(runner::compileToSPIRV(*module, coroutineName, scheduler,
                                      getSchedulerCompileOptions(*device),
                                      words, &lowered))) {
      // An invalid module is still written, for spirv-val and spirv-dis.
      if (emit == EmitKind::SPIRV && !words.empty()) {
        output->os().write(reinterpret_cast<const char *>(words.data()),
                           words.size() * sizeof(uint32_t));
        output->keep();
      }
      return fail("compiling to SPIR-V failed (see above)", kExitCompile);
    }
    if (emit == EmitKind::MLIR)
      lowered->print(output->os());
    else
      output->os().write(reinterpret_cast<const char *>(words.data()),
                         words.size() * sizeof(uint32_t));
  }
  output->keep();
  return 0;
}

/// The host loops' options from the command line, for a run of `label` under
/// scheduler `kind` on `device`: progress on a terminal only, at most once a
/// second, the time of the last line shown in `lastProgress`.
static runner::RunOptions
getRunOptions(rt::Device &device, const runner::CompiledCoroutine &compiled,
              StringRef label, double &lastProgress) {
  coro::GPUScheduler kind = compiled.scheduler;
  bool showProgress = !quiet && !json && llvm::errs().is_displayed();
  std::string name = label.str();
  bool wavefront = kind == coro::GPUScheduler::Wavefront;
  bool persistent = kind == coro::GPUScheduler::Persistent;
  // Where stderr is no terminal (a script, a log), one line after 10 s says
  // that the run goes on and when it will stop.
  bool notice = !quiet && !json && !showProgress;
  double seconds = timeLimit;
  rt::RunProgressCallback progress = [=, &lastProgress](
                                         const rt::RunProgress &at) {
    if (notice && lastProgress == 0 && at.seconds >= 10) {
      lastProgress = -1;
      llvm::errs() << llvm::format(
          "coro-run: %s: still running after %.0f s (%llu %s, %llu of %llu "
          "instances started)",
          name.c_str(), at.seconds, static_cast<unsigned long long>(at.rounds),
          wavefront ? "rounds" : "launches",
          static_cast<unsigned long long>(at.started),
          static_cast<unsigned long long>(at.instances));
      if (seconds > 0)
        llvm::errs() << llvm::format("; --time-limit stops it at %.0f s",
                                     seconds);
      llvm::errs() << "\n";
    }
    if (!showProgress || at.seconds - lastProgress < 1)
      return;
    lastProgress = at.seconds;
    llvm::errs() << llvm::format(
        "\r%s: %llu %s, %llu of %llu instances started", name.c_str(),
        static_cast<unsigned long long>(at.rounds),
        wavefront ? "rounds" : "launches",
        static_cast<unsigned long long>(at.started),
        static_cast<unsigned long long>(at.instances));
    if (!persistent)
      llvm::errs() << llvm::format(
          ", %llu alive, %.0f %s/s", static_cast<unsigned long long>(at.alive),
          at.rounds / at.seconds, wavefront ? "rounds" : "launches");
    llvm::errs() << "  ";
  };
  // 2^20 rounds or launches unless --max-rounds is given (the persistent
  // kernel in bounded steps relaunches as long as an instance is live).
  runner::RunLimitSettings limits;
  if (maxRounds != ~uint64_t(0))
    limits.maxRounds = maxRounds;
  limits.maxSeconds = timeLimit;
  limits.howToChange =
      "--time-limit=S sets the limit of seconds (default 300, 0: none), "
      "--max-rounds=N that of rounds or launches (default 2^20)";
  limits.stateMachineStepsAdvice =
      "--state-machine-steps=N runs at most N passes of an instance's state "
      "machine per launch";
  runner::RunOptions options = runner::getRunOptions(device, compiled, limits);

  options.wavefront.capacity = capacity;
  options.wavefront.refill = refill;
  options.wavefront.order = order;
  options.wavefront.compactBelowPercent = compactBelow;
  options.wavefront.roundsPerCheck = roundsPerCheck;
  options.wavefront.replayRounds = replayRounds;
  options.wavefront.strideWorkgroups = wavefrontStrideWorkgroups;
  options.wavefront.timing =
      timing || printStats || json || compileFlags.profileLanes;
  options.wavefront.progress = progress;

  options.persistent.threads = persistentThreads;
  if (persistentBatchesPerLaunch >= 0)
    options.persistent.batchesPerLaunch = persistentBatchesPerLaunch;
  options.persistent.timing = true;
  options.persistent.progress = progress;

  options.instanceKernel.statusBuffer = compileFlags.terminationChecks;
  options.instanceKernel.progress = progress;
  return options;
}

/// Runs `compiled` once from `buffers` into `result`; on failure prints the
/// error (prefixed with `label`) and returns its exit code, with the buffers
/// in `result` all the same when a limit stopped the run.
static ExitCode
runOnce(rt::Device &device, const runner::CompiledCoroutine &compiled,
        std::array<uint32_t, 3> grid, ArrayRef<Type> argumentTypes,
        ArrayRef<rt::KernelArg> scalars, ArrayRef<runner::HostBuffer> buffers,
        StringRef label, runner::RunResult &result) {
  double lastProgress = 0;
  runner::RunOptions options =
      getRunOptions(device, compiled, label, lastProgress);
  rt::Status status = runner::runCoroutine(
      device, compiled, grid, argumentTypes, scalars, buffers, options, result);
  // A progress line, if one was shown, ends before what follows.
  if (lastProgress > 0)
    llvm::errs() << "\n";
  if (!status.ok())
    return fail(label + ": " + status.error, getExitCode(status));
  const runner::RunTiming &times = result.timing;
  if (timing && !json)
    llvm::outs() << llvm::format(
        "%s: upload %.3f ms, run %.3f ms (GPU %.3f ms), download %.3f ms\n",
        label.str().c_str(), times.upload, times.run, times.gpu,
        times.download);
  return kExitSuccess;
}

//===----------------------------------------------------------------------===//
// The phase
//===----------------------------------------------------------------------===//

ExitCode CoroRun::openDevice() {
  bool kernelsPrint =
      module->walk([](gpu::PrintfOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (kernelsPrint && !printKernels && backend == Backend::Vulkan)
    llvm::errs() << "coro-run: warning: @" << coroutineName
                 << " prints (gpu.printf); add --printf to see it (through "
                    "the Khronos validation layer)\n";
  rt::Status status;
  if (backend == Backend::CUDA) {
    device = rt::createCUDADevice(0, status);
  } else {
    rt::VulkanOptions options;
    options.validation = validation;
    options.deviceName = deviceName;
    options.printf = printKernels;
    // Under --json the prints go to stderr, so that stdout stays JSON; the
    // reference's would repeat the run's (showPrints).
    llvm::raw_ostream &prints = json ? llvm::errs() : llvm::outs();
    options.printfOutput = [this, &prints](const std::string &text) {
      if (showPrints)
        prints << text;
      prints.flush();
    };
    device = rt::createVulkanDevice(options, status);
  }
  if (!device)
    return fail(status.error, getExitCode(status));
  uint64_t bufferBytes = 0;
  for (const runner::HostBuffer &buffer : buffers)
    bufferBytes += buffer.bytes.size();
  if (bufferBytes > device->getMemoryBytes())
    return fail("out of device memory: the buffers need " +
                    llvm::Twine(bufferBytes) + " bytes, " + device->getName() +
                    " has " + llvm::Twine(device->getMemoryBytes()),
                kExitDevice);
  return kExitSuccess;
}

ExitCode CoroRun::compile() {
  FailureOr<runner::CompiledCoroutine> compiledCoroutine =
      runner::compileCoroutine(
          *module, coroutineName, scheduler, device->getTarget(),
          getSchedulerCompileOptions(runner::getDeviceTraits(*device)));
  if (failed(compiledCoroutine))
    return fail("compiling @" + coroutineName + " failed (see above)",
                kExitCompile);
  compiled = std::move(*compiledCoroutine);
  // --profile-lanes: the kernels take the profile buffer last.
  laneProfile = compiled.laneProfile;
  // It goes after the user's buffers; the reference run takes those alone.
  runArgumentTypes.assign(argumentTypes.begin(), argumentTypes.end());
  if (compileFlags.profileLanes) {
    if (!device->supportsSubgroupReductions())
      return fail("--profile-lanes: " + device->getName() +
                      " cannot reduce over the active lanes of a subgroup "
                      "(Vulkan: no subgroup arithmetic in compute shaders; "
                      "CUDA: before sm_80)",
                  kExitDevice);
    if (!laneProfile)
      return fail("--profile-lanes: @" + coroutineName +
                      " was not instrumented (see above)",
                  kExitCompile);
    runArgumentTypes.push_back(MemRefType::get({ShapedType::kDynamic},
                                               IntegerType::get(&context, 32)));
    buffers.push_back(runner::createLaneProfileBuffer(laneProfile));
  }
  if (check == CheckReference::Megakernel) {
    coro::SchedulerCompileOptions referenceOptions =
        getSchedulerCompileOptions(runner::getDeviceTraits(*device));
    referenceOptions.profileLanes = false;
    FailureOr<runner::CompiledCoroutine> megakernel = runner::compileCoroutine(
        *module, coroutineName, coro::GPUScheduler::Megakernel,
        device->getTarget(), referenceOptions);
    if (failed(megakernel))
      return fail("compiling the mega-kernel reference failed (see above)",
                  kExitCompile);
    reference = std::move(*megakernel);
  }
  compileMs = millisecondsSince(start);
  if (timing && !json)
    llvm::outs() << llvm::format("compile: %.3f ms\n", compileMs);
  return kExitSuccess;
}

ExitCode CoroRun::run() {
  label = coro::getGPUSchedulerName(scheduler);
  // Repeated runs: the kernels stay compiled, every run starts from the
  // same buffers; medians are reported (the first run pays for compiling
  // the kernels on drivers that do it lazily).
  if (repeat == 0)
    return fail("--repeat must be at least 1", kExitUsage);
  runs.resize(repeat);
  for (runner::RunResult &run : runs) {
    if (ExitCode code = runOnce(*device, compiled, grid, runArgumentTypes,
                                scalars, buffers, label, run)) {
      // An access out of bounds can be why a run never ended.
      if (boundsCheck &&
          run.buffers.size() > (compileFlags.profileLanes ? 1 : 0))
        reportViolations(run.buffers[run.buffers.size() - 1 -
                                     (compileFlags.profileLanes ? 1 : 0)]);
      return code;
    }
    if (compileFlags.profileLanes)
      profiles.push_back(run.buffers.back());
    results = std::move(run.buffers);
    run.buffers.clear();
  }
  // Report the run with the median GPU time (the lower one of the two
  // middle runs for an even count), whole, so that its times and statistics
  // agree with each other.
  std::vector<size_t> order(runs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return runs[a].timing.gpu < runs[b].timing.gpu;
  });
  reportedRun = order[(order.size() - 1) / 2];
  runner::RunResult &reported = runs[reportedRun];
  const runner::RunTiming &runTiming = reported.timing;
  if (repeat > 1 && timing && !json)
    llvm::outs() << llvm::format(
        "%s: median of %u runs: run %.3f ms (GPU %.3f ms)\n",
        label.str().c_str(), unsigned(repeat), runTiming.run, runTiming.gpu);
  if (printStats && !json)
    runner::printSchedulerStats(reported.scheduled, runTiming.gpu,
                                llvm::outs());
  if (check == CheckReference::Megakernel) {
    showPrints = false;
    if (ExitCode code =
            runOnce(*device, *reference, grid, argumentTypes, scalars,
                    getReferenceBuffers(), "reference", referenceRun))
      return code;
    showPrints = true;
    if (boundsCheck)
      referenceRun.buffers.pop_back();
  } else if (check == CheckReference::CPU) {
    Clock::time_point referenceStart = Clock::now();
    llvm::Expected<std::vector<runner::HostBuffer>> cpuBuffers =
        runner::runCPUReference(
            *source, coroutineName, grid, scalarArgs,
            getReferenceBuffers().drop_back(boundsCheck ? 1 : 0));
    if (!cpuBuffers)
      return fail(llvm::toString(cpuBuffers.takeError()), kExitCompile);
    referenceRun.buffers = std::move(*cpuBuffers);
    if (timing && !json)
      llvm::outs() << llvm::format("CPU reference: %.3f ms\n",
                                   millisecondsSince(referenceStart));
  }
  return kExitSuccess;
}

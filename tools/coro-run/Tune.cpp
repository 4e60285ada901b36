//===- Tune.cpp - coro-run --tune: pick a scheduler for a kernel ----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each configuration is a child coro-run with --check --json --repeat=N:
// the same code path as a user's run, isolated (a configuration that
// crashes, hangs or is rejected is reported, and the others still run),
// and its JSON report gives the median GPU time.
//
//===----------------------------------------------------------------------===//

#include "Tune.h"
#include "CoroGPU/Conversion/SchedulerOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

using namespace corogpu::tune;
using mlir::coro::getGPUSchedulerName;
using mlir::coro::GPUScheduler;

namespace {

/// A scheduler and its options, as coro-run arguments.
struct Configuration {
  GPUScheduler scheduler;
  std::vector<std::string> options;

  /// Whether the runtime runs it in a loop of launches that the limits
  /// bound.
  bool hasHostLoop() const {
    return scheduler == GPUScheduler::Wavefront ||
           scheduler == GPUScheduler::Persistent ||
           llvm::any_of(options, [](const std::string &option) {
             return llvm::StringRef(option).starts_with(
                 "--state-machine-steps=");
           });
  }

  std::string describe() const {
    std::string text = getGPUSchedulerName(scheduler).str();
    for (const std::string &option : options)
      text += " " + option;
    return text;
  }
};

struct Result {
  Configuration configuration;
  int exitCode = 0;
  std::optional<double> gpuMilliseconds;
  std::string device;
  /// Why it failed: the first error line of the child.
  std::string error;
};

/// The configurations worth comparing: every scheduler with its default
/// options, then the options that change the most (bounded steps of the
/// state machine, the wavefront's classify design, frame layout, workgroup
/// size, compaction, the tail kernel, sorting by each
/// integer promise, batch and workgroup memory of the persistent threads).
std::vector<Configuration> getConfigurations(const TuneOptions &options) {
  std::vector<Configuration> configurations = {
      {GPUScheduler::Megakernel, {}},
      {GPUScheduler::StateMachine, {}},
      // Frames in global memory between launches of 64 steps: for drivers
      // that limit loop iterations (lavapipe).
      {GPUScheduler::StateMachine, {"--state-machine-steps=64"}},
      {GPUScheduler::Wavefront, {}},
      {GPUScheduler::Wavefront, {"--wavefront-design=classify"}},
      {GPUScheduler::Wavefront, {"--layout=soa"}},
      {GPUScheduler::Wavefront, {"--layout=aos"}},
      {GPUScheduler::Wavefront, {"--wavefront-workgroup-size=32"}},
      {GPUScheduler::Wavefront, {"--wavefront-workgroup-size=128"}},
      {GPUScheduler::Wavefront, {"--compact-below=50"}},
      {GPUScheduler::Wavefront, {"--wavefront-tail-below=10"}},
  };
  for (const std::string &key : options.sortKeys)
    configurations.push_back({GPUScheduler::Wavefront, {"--sort-by=" + key}});
  llvm::append_range(
      configurations,
      std::vector<Configuration>{
          {GPUScheduler::Persistent, {}},
          {GPUScheduler::Persistent, {"--layout=aos"}},
          {GPUScheduler::Persistent, {"--layout=aosoa"}},
          {GPUScheduler::Persistent, {"--persistent-workgroup-size=32"}},
          // The defaults on a GPU, which a CPU device's
          // defaults (one subgroup per workgroup) replace.
          {GPUScheduler::Persistent,
           {"--persistent-workgroup-size=64", "--persistent-batch=256"}},
          {GPUScheduler::Persistent, {"--persistent-workgroup-size=128"}},
          {GPUScheduler::Persistent, {"--persistent-batch=64"}},
          {GPUScheduler::Persistent, {"--persistent-shared-memory=4096"}},
      });
  return configurations;
}

/// What coro-run's exit code `code` means, briefly.
llvm::StringRef describeExitCode(int code) {
  switch (code) {
  case 1:
    return "--check found a mismatch";
  case 2:
    return "rejected the command line";
  case 3:
    return "did not compile";
  case 4:
    return "the device or runtime failed";
  case 5:
    return "a limit stopped the run";
  case 6:
    return "an access out of bounds";
  default:
    return code < 0 ? "crashed" : "failed";
  }
}

std::string readFileOrEmpty(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

/// Runs one configuration in a child coro-run.
Result runConfiguration(const TuneOptions &options,
                        const Configuration &configuration) {
  Result result{configuration};
  std::vector<std::string> arguments = {options.executable};
  llvm::append_range(arguments, options.runArguments);
  arguments.push_back("--scheduler=" +
                      getGPUSchedulerName(configuration.scheduler).str());
  llvm::append_range(arguments, configuration.options);
  if (configuration.scheduler == GPUScheduler::Wavefront)
    llvm::append_range(arguments, options.wavefrontArguments);
  if (configuration.scheduler == GPUScheduler::Persistent)
    llvm::append_range(arguments, options.persistentArguments);
  if (configuration.hasHostLoop())
    llvm::append_range(arguments, options.limitArguments);
  arguments.emplace_back("--json");
  // The report needs no buffers (--quiet leaves them out of the JSON).
  if (!llvm::is_contained(options.runArguments, "--quiet") &&
      !llvm::is_contained(options.runArguments, "-quiet"))
    arguments.emplace_back("--quiet");
  arguments.push_back("--repeat=" + std::to_string(options.repeat));
  if (configuration.scheduler != GPUScheduler::Megakernel)
    arguments.emplace_back("--check");
  llvm::SmallVector<llvm::StringRef> argumentRefs(arguments.begin(),
                                                  arguments.end());

  llvm::SmallString<128> outPath, errPath;
  if (llvm::sys::fs::createTemporaryFile("coro-tune", "json", outPath) ||
      llvm::sys::fs::createTemporaryFile("coro-tune", "err", errPath)) {
    result.exitCode = 4;
    result.error = "cannot create a temporary file";
    return result;
  }
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, outPath.str(),
                                                errPath.str()};
  std::string message;
  bool notExecuted = false;
  result.exitCode = llvm::sys::ExecuteAndWait(
      options.executable, argumentRefs, /*Env=*/std::nullopt, redirects,
      options.timeoutSeconds, /*MemoryLimit=*/0, &message, &notExecuted);
  std::string out = readFileOrEmpty(outPath);
  std::string err = readFileOrEmpty(errPath);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);

  if (result.exitCode != 0) {
    if (llvm::StringRef(message).contains("timed out")) {
      // A limit stopped it, as --time-limit would (exit code 5).
      result.exitCode = 5;
      result.error = "ran longer than --tune-timeout (" +
                     std::to_string(options.timeoutSeconds) + " s)";
      return result;
    }
    if (result.exitCode < 0 || notExecuted)
      result.exitCode = -1;
    // The first error line says why.
    llvm::StringRef rest = err;
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      if (line.contains("error")) {
        result.error = line.trim().str();
        break;
      }
      rest = next;
    }
    if (result.error.empty())
      result.error = message.empty() ? err.substr(0, 200) : message;
    return result;
  }
  llvm::Expected<llvm::json::Value> report = llvm::json::parse(out);
  const llvm::json::Object *object = report ? report->getAsObject() : nullptr;
  const llvm::json::Object *timings =
      object ? object->getObject("timing_ms") : nullptr;
  std::optional<double> gpu =
      timings ? timings->getNumber("gpu") : std::nullopt;
  if (!report)
    llvm::consumeError(report.takeError());
  if (!gpu) {
    result.exitCode = 4;
    result.error = "no GPU time in the JSON report";
    return result;
  }
  result.gpuMilliseconds = gpu;
  if (std::optional<llvm::StringRef> device = object->getString("device"))
    result.device = device->str();
  return result;
}

} // namespace

int corogpu::tune::runTuner(const TuneOptions &options) {
  // A file that cannot be written is an error before, not after, the runs.
  std::optional<llvm::raw_fd_ostream> jsonFile;
  if (!options.jsonPath.empty()) {
    std::error_code error;
    jsonFile.emplace(options.jsonPath, error);
    if (error) {
      llvm::errs() << "coro-run: error: --tune-json: " << options.jsonPath
                   << ": " << error.message() << "\n";
      return 2;
    }
  }
  std::vector<Configuration> configurations = getConfigurations(options);
  std::vector<Result> results;
  bool showProgress = llvm::errs().is_displayed();
  for (auto [index, configuration] : llvm::enumerate(configurations)) {
    // A bar on a terminal; elsewhere one line per configuration.
    std::string label = configuration.describe();
    if (showProgress) {
      unsigned done = index * 30 / configurations.size();
      llvm::errs() << "\rtune: [" << std::string(done, '#')
                   << std::string(30 - done, ' ') << "] " << index + 1 << "/"
                   << configurations.size() << " " << label << "\x1b[K";
    } else {
      llvm::errs() << "tune: " << index + 1 << "/" << configurations.size()
                   << " " << label << "\n";
    }
    results.push_back(runConfiguration(options, configuration));
    // Every other configuration is checked against the mega-kernel: without
    // it there is nothing to rank (and a bad argument fails them all).
    if (index == 0 && results.front().exitCode != 0) {
      if (showProgress)
        llvm::errs() << "\r\x1b[K";
      const Result &baseline = results.front();
      llvm::errs() << "coro-run: error: --tune: the mega-kernel "
                   << describeExitCode(baseline.exitCode) << " (exit "
                   << baseline.exitCode << "): " << baseline.error << "\n";
      return baseline.exitCode < 0 ? 4 : baseline.exitCode;
    }
  }
  if (showProgress)
    llvm::errs() << "\r\x1b[K";

  // Ranked by median GPU time; the failures last, in their order.
  std::optional<double> baseline = results.front().gpuMilliseconds;
  std::vector<const Result *> ranked;
  ranked.reserve(results.size());
  for (const Result &result : results)
    ranked.push_back(&result);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Result *a, const Result *b) {
                     if (a->gpuMilliseconds && b->gpuMilliseconds)
                       return *a->gpuMilliseconds < *b->gpuMilliseconds;
                     return a->gpuMilliseconds.has_value() &&
                            !b->gpuMilliseconds.has_value();
                   });
  std::string device = "an unknown device";
  for (const Result &result : results)
    if (!result.device.empty())
      device = result.device;

  llvm::json::Array rows;
  unsigned rank = 0;
  for (const Result *result : ranked) {
    llvm::json::Array optionValues;
    for (const std::string &option : result->configuration.options)
      optionValues.push_back(option);
    llvm::json::Object row{
        {"scheduler", getGPUSchedulerName(result->configuration.scheduler)},
        {"options", std::move(optionValues)},
        {"exit_code", result->exitCode},
    };
    if (result->gpuMilliseconds) {
      row["rank"] = ++rank;
      row["gpu_ms"] = *result->gpuMilliseconds;
      if (baseline)
        row["vs_megakernel"] = *result->gpuMilliseconds / *baseline;
      row["checked"] =
          result->configuration.scheduler != GPUScheduler::Megakernel;
    } else {
      row["error"] = result->error;
    }
    rows.push_back(std::move(row));
  }
  llvm::json::Value report = llvm::json::Object{
      {"device", device},
      {"repeat", options.repeat},
      {"results", std::move(rows)},
  };
  if (jsonFile)
    *jsonFile << llvm::formatv("{0:2}", report) << "\n";
  if (options.json) {
    llvm::outs() << llvm::formatv("{0:2}", report) << "\n";
  } else {
    llvm::outs() << "tune: median GPU time of " << options.repeat
                 << " runs per configuration on " << device
                 << "; every scheduler's results checked against the "
                    "mega-kernel's\n";
    auto join = [](const std::vector<std::string> &list) {
      std::string text;
      for (const std::string &item : list)
        text += " " + item;
      return text;
    };
    if (!options.wavefrontArguments.empty())
      llvm::outs() << "tune: every wavefront configuration with"
                   << join(options.wavefrontArguments) << "\n";
    if (!options.persistentArguments.empty())
      llvm::outs() << "tune: every persistent configuration with"
                   << join(options.persistentArguments) << "\n";
    if (!options.limitArguments.empty())
      llvm::outs() << "tune: every configuration with a host loop with"
                   << join(options.limitArguments) << "\n";
    llvm::outs() << llvm::format("%4s  %-48s %10s %14s\n", "rank",
                                 "configuration", "GPU ms", "vs mega-kernel");
    rank = 0;
    for (const Result *result : ranked) {
      std::string label = result->configuration.describe();
      if (result->gpuMilliseconds) {
        llvm::outs() << llvm::format("%4u  %-48s %10.3f", ++rank, label.c_str(),
                                     *result->gpuMilliseconds);
        if (baseline)
          llvm::outs() << llvm::format(" %13.2fx",
                                       *result->gpuMilliseconds / *baseline);
        llvm::outs() << "\n";
      } else {
        llvm::outs() << llvm::format("%4s  %-48s ", "-", label.c_str())
                     << "failed (exit " << result->exitCode << ", "
                     << describeExitCode(result->exitCode)
                     << "): " << result->error << "\n";
      }
    }
  }
  for (const Result &result : results)
    if (result.exitCode != 0) {
      llvm::errs() << "coro-run: error: --tune: "
                   << result.configuration.describe() << " "
                   << describeExitCode(result.exitCode) << "\n";
      return result.exitCode < 0 ? 4 : result.exitCode;
    }
  return 0;
}

//===- Report.cpp - what a run did, for people and tools ------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/Report.h"
#include "corogpu/runtime/BoundsCheckABI.h"
#include "corogpu/runtime/LaneProfileABI.h"
#include "corogpu/runtime/WavefrontABI.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::runner;
namespace rt = corogpu::runtime;

/// " entry:256 shade:8295": instances per subroutine, each named by its
/// tag (`names`, from the scheduler's plan) where there is one.
static void printPerSubroutine(ArrayRef<uint64_t> counts,
                               ArrayRef<std::string> names,
                               llvm::raw_ostream &os) {
  for (auto [token, count] : llvm::enumerate(counts)) {
    os << " ";
    if (token < names.size())
      os << names[token];
    else
      os << token;
    os << ":" << count;
  }
  os << "\n";
}

/// How the state machine's or the persistent kernel's dispatch ran.
/// "1 launch", "3 launches".
static std::string count(uint64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

static const char *getDispatchName(const ScheduledRun &run) {
  return run.fallThrough ? "fall-through" : "switch";
}

void mlir::coro::runner::printSchedulerStats(const ScheduledRun &run,
                                             double gpuMilliseconds,
                                             llvm::raw_ostream &os) {
  ArrayRef<std::string> names = run.subroutineNames;
  if (!run.wavefront && !run.persistent) {
    // The mega-kernel and the state machine: one kernel, launched once or,
    // in bounded steps, until every instance returned.
    const rt::InstanceKernelStats &stats = run.instanceStats;
    StringRef name = run.stateMachine ? "state-machine" : "megakernel";
    os << name << ": " << count(stats.launches, "launch", "launches")
       << ", workgroups of " << run.instanceKernel.workgroupSize << " threads";
    if (run.stateMachine) {
      os << ", dispatch by " << getDispatchName(run) << ", ";
      if (run.instanceKernel.stepsPerLaunch)
        os << "bounded steps (" << run.instanceKernel.stepsPerLaunch
           << " per launch), frame buffer " << stats.frameBufferBytes
           << " bytes";
      else
        os << "every instance to its end in one launch";
    }
    os << "\n";
    if (run.stateMachine) {
      os << "state-machine: subroutines:";
      for (const std::string &subroutine : names)
        os << " " << subroutine;
      os << "\n";
    }
  }
  if (run.wavefront) {
    const rt::WavefrontStats &stats = run.wavefrontStats;
    os << "wavefront: " << stats.capacity << " slots, " << stats.rounds
       << " rounds, " << stats.launches << " subroutine launches, "
       << stats.submissions << " submissions, " << stats.compactions
       << " compactions\n";
    os << "wavefront: instances per subroutine:";
    printPerSubroutine(stats.instancesPerSubroutine, names, os);
    double total = std::max(gpuMilliseconds, 1e-9);
    if (stats.recorded) {
      os << llvm::format("wavefront: GPU time %.3f ms, each submission timed "
                         "whole (the first with the init kernel, then one "
                         "recording of the rounds launched %llu times; no "
                         "time per kernel)\n",
                         gpuMilliseconds,
                         static_cast<unsigned long long>(stats.replays));
    } else {
      os << llvm::format(
          "wavefront: GPU time %.3f ms: scheduling %.3f ms (%.1f%%), "
          "subroutines %.3f ms (%.1f%%)\n",
          gpuMilliseconds, stats.schedulingMilliseconds,
          100 * stats.schedulingMilliseconds / total,
          stats.subroutineMilliseconds,
          100 * stats.subroutineMilliseconds / total);
      os << "wavefront: GPU time per kernel:";
      for (const auto &[kernel, milliseconds] : stats.kernelMilliseconds)
        os << llvm::format(" %s %.3f ms;", kernel.c_str(), milliseconds);
      os << "\n";
    }
    os << "wavefront: frame buffer: "
       << rt::getFrameArrayLayoutName(run.wavefront->layout) << ", "
       << stats.frameBufferBytes << " bytes\n";
  }
  if (run.persistent) {
    const rt::PersistentStats &stats = run.persistentStats;
    os << "persistent: " << count(stats.workgroups, "workgroup", "workgroups")
       << ", " << count(stats.launches, "launch", "launches") << ", "
       << count(stats.steps, "step", "steps") << ", "
       << count(stats.acquisitions, "batch", "batches")
       << ", global memory extension " << stats.extensionBytes << " bytes";
    if (stats.swappedFrames)
      os << ", " << count(stats.swappedFrames, "frame", "frames")
         << " swapped in";
    os << "\n";
    os << "persistent: dispatch by " << getDispatchName(run) << "\n";
    os << "persistent: instances per subroutine:";
    printPerSubroutine(stats.instancesPerSubroutine, names, os);
    os << "persistent: frames: "
       << rt::getFrameArrayLayoutName(run.persistent->layout) << ", "
       << run.persistent->sharedSlots << " of " << run.persistent->batch
       << " slots per workgroup in workgroup memory\n";
  }
}

void mlir::coro::runner::addSchedulerStats(const ScheduledRun &run,
                                           llvm::json::Object &object) {
  const std::vector<std::string> &names = run.subroutineNames;
  if (!run.stateMachine && !run.wavefront && !run.persistent)
    object["megakernel"] = llvm::json::Object{
        {"launches", run.instanceStats.launches},
        {"workgroup_size", run.instanceKernel.workgroupSize}};
  if (run.stateMachine)
    object["state_machine"] = llvm::json::Object{
        {"steps_per_launch", run.instanceKernel.stepsPerLaunch},
        {"dispatch", getDispatchName(run)},
        {"launches", run.instanceStats.launches},
        {"frame_buffer_bytes", run.instanceStats.frameBufferBytes},
        {"subroutines", names}};
  if (run.persistent) {
    const rt::PersistentStats &stats = run.persistentStats;
    object["persistent"] = llvm::json::Object{
        {"workgroups", stats.workgroups},
        {"launches", stats.launches},
        {"batch", run.persistent->batch},
        {"shared_slots", run.persistent->sharedSlots},
        {"frame_layout", rt::getFrameArrayLayoutName(run.persistent->layout)},
        {"extension_bytes", stats.extensionBytes},
        {"steps", stats.steps},
        {"batches", stats.acquisitions},
        {"swapped_frames", stats.swappedFrames},
        {"dispatch", getDispatchName(run)},
        {"subroutines", names},
        {"instances_per_subroutine", stats.instancesPerSubroutine}};
  }
  if (run.wavefront) {
    const rt::WavefrontStats &stats = run.wavefrontStats;
    llvm::json::Object perKernel;
    for (const auto &[kernel, milliseconds] : stats.kernelMilliseconds)
      perKernel[kernel] = milliseconds;
    object["wavefront"] = llvm::json::Object{
        {"capacity", stats.capacity},
        {"frame_layout", rt::getFrameArrayLayoutName(run.wavefront->layout)},
        {"frame_buffer_bytes", stats.frameBufferBytes},
        {"rounds", stats.rounds},
        {"submissions", stats.submissions},
        {"launches", stats.launches},
        {"compactions", stats.compactions},
        {"subroutines", names},
        {"instances_per_subroutine", stats.instancesPerSubroutine},
        {"scheduling_gpu_ms", stats.schedulingMilliseconds},
        {"kernel_gpu_ms", std::move(perKernel)},
        {"subroutine_gpu_ms", stats.subroutineMilliseconds},
        {"recorded", stats.recorded},
        {"replays", stats.replays},
        {"recorded_gpu_ms", stats.recordedMilliseconds}};
  }
}

/// Word `index` of `buffer`, 0 past its end.
static uint32_t getWord(const HostBuffer &buffer, uint64_t index) {
  uint32_t value = 0;
  if ((index + 1) * sizeof(value) <= buffer.bytes.size())
    std::memcpy(&value, buffer.bytes.data() + index * sizeof(value),
                sizeof(value));
  return value;
}

BoundsReport mlir::coro::runner::decodeViolations(const HostBuffer &violations,
                                                  BoundsCheckAttr boundsCheck) {
  namespace bounds = corogpu::runtime::bounds;
  BoundsReport report;
  auto word = [&](uint64_t index) { return getWord(violations, index); };
  report.count = word(bounds::kViolationCount);
  if (report.count == 0)
    return report;
  uint32_t recorded =
      std::min(word(bounds::kRecordCount), boundsCheck.getRecords());
  uint64_t first = bounds::kFirstArgumentSize + boundsCheck.getArgument();
  for (uint32_t i = 0; i < recorded; ++i) {
    uint64_t at = first + uint64_t(i) * bounds::kRecordWords;
    // The kernel writes the indices; clamp them rather than trust them.
    auto site = cast<BoundsSiteAttr>(boundsCheck.getSites()[std::min<size_t>(
        word(at + bounds::kSite), boundsCheck.getSites().size() - 1)]);
    uint32_t resume =
        std::min<size_t>(word(at + bounds::kResumePoint),
                         boundsCheck.getResumePoints().size() - 1);
    auto join = [&](bounds::RecordWord low, bounds::RecordWord high) {
      return (uint64_t(word(at + high)) << 32) | word(at + low);
    };
    BoundsViolation violation;
    violation.location = formatSourceLocation(site.getLocation());
    violation.op = site.getOp().str();
    violation.memref = site.getMemref().str();
    violation.index = int64_t(join(bounds::kIndexLow, bounds::kIndexHigh));
    violation.dimension = word(at + bounds::kDimension);
    violation.size = word(at + bounds::kSize);
    violation.instance = join(bounds::kInstanceLow, bounds::kInstanceHigh);
    violation.resumedAt =
        resume == 0
            ? "entry"
            : cast<StringAttr>(boundsCheck.getResumePoints()[resume]).str();
    report.recorded.push_back(std::move(violation));
  }
  return report;
}

void mlir::coro::runner::printBoundsReport(const BoundsReport &report,
                                           StringRef label,
                                           llvm::raw_ostream &os) {
  if (report.count == 0)
    return;
  os << label << ": " << report.count << " memory access"
     << (report.count == 1 ? " was" : "es were")
     << " out of bounds and skipped (a load or an atomic gave 0)";
  if (report.recorded.size() < report.count)
    os << "; " << report.recorded.size()
       << " recorded (an instance's first since it last suspended)";
  os << "\n";
  for (const BoundsViolation &violation : report.recorded) {
    StringRef resumedAt = violation.resumedAt;
    os << "  " << violation.location << ": " << violation.op << " of "
       << violation.memref << ": index " << violation.index << " in dimension "
       << violation.dimension << " of size " << violation.size << "; instance "
       << violation.instance << ", "
       << (resumedAt == "entry" ? "before its first suspension"
           : resumedAt.starts_with("#")
               ? ("resumed at suspension " + resumedAt).str()
               : ("resumed at suspension \"" + resumedAt + "\"").str())
       << "\n";
  }
}

llvm::json::Value mlir::coro::runner::toJSON(const BoundsReport &report) {
  llvm::json::Array recorded;
  for (const BoundsViolation &violation : report.recorded)
    recorded.push_back(llvm::json::Object{{"location", violation.location},
                                          {"op", violation.op},
                                          {"memref", violation.memref},
                                          {"index", violation.index},
                                          {"dimension", violation.dimension},
                                          {"size", violation.size},
                                          {"instance", violation.instance},
                                          {"resumed_at", violation.resumedAt}});
  return llvm::json::Object{{"count", report.count},
                            {"recorded", std::move(recorded)}};
}

LaneProfile mlir::coro::runner::decodeLaneProfile(const HostBuffer &buffer,
                                                  LaneProfileAttr laneProfile,
                                                  const ScheduledRun &run,
                                                  double gpuMilliseconds) {
  namespace lanes = rt::lanes;
  auto counter = [&](uint64_t word) {
    return uint64_t(getWord(buffer, word)) | uint64_t(getWord(buffer, word + 1))
                                                 << 32;
  };
  LaneProfile profile;
  profile.subgroupSize = getWord(buffer, lanes::kSubgroupSize);
  profile.gpuMilliseconds = gpuMilliseconds;
  ArrayRef<Attribute> functions = laneProfile.getFunctions().getValue();
  for (auto [index, name] : llvm::enumerate(functions)) {
    LaneProfileFunction function;
    function.name = cast<StringAttr>(name).str();
    uint64_t first = lanes::getFunctionWord(index);
    function.frameBytesLoaded = counter(first + lanes::kFrameBytesLoaded);
    function.frameBytesStored = counter(first + lanes::kFrameBytesStored);
    profile.functions.push_back(std::move(function));
  }
  // The wavefront scheduler runs subroutine t as kernel `<coroutine>__wf_t`,
  // and all of them in its tail kernel; its other kernels schedule. The
  // mega-kernel is the whole run.
  if (run.wavefront) {
    profile.schedulingMilliseconds = run.wavefrontStats.schedulingMilliseconds;
    for (const auto &[kernel, milliseconds] :
         run.wavefrontStats.kernelMilliseconds) {
      if (StringRef(kernel).ends_with(
              corogpu::runtime::wavefront::kTailKernel)) {
        profile.tailMilliseconds = milliseconds;
        continue;
      }
      size_t at = kernel.rfind("__wf_");
      unsigned token = 0;
      if (at != std::string::npos &&
          !StringRef(kernel).drop_front(at + 5).getAsInteger(10, token) &&
          token < profile.functions.size())
        profile.functions[token].gpuMilliseconds = milliseconds;
    }
  } else if (!run.persistent && !run.stateMachine &&
             profile.functions.size() == 1) {
    profile.functions.front().gpuMilliseconds = gpuMilliseconds;
  }
  for (auto [index, attr] : llvm::enumerate(laneProfile.getSites())) {
    auto siteAttr = cast<ProfileSiteAttr>(attr);
    LaneProfileSite site;
    site.kind = siteAttr.getKind().str();
    site.location = formatSourceLocation(siteAttr.getLocation());
    site.function = siteAttr.getFunction();
    uint64_t first = lanes::getSiteWord(functions.size(), index);
    site.visits = counter(first + lanes::kVisits);
    site.divergentVisits = counter(first + lanes::kDivergentVisits);
    site.activeLanes = counter(first + lanes::kActiveLanes);
    LaneProfileFunction &function = profile.functions[site.function];
    function.visits += site.visits;
    function.activeLanes += site.activeLanes;
    if (site.kind == "entry") {
      function.executions += site.activeLanes;
    } else {
      function.branchVisits += site.visits;
      function.divergentVisits += site.divergentVisits;
    }
    profile.sites.push_back(std::move(site));
  }
  return profile;
}

/// Active lanes over the lanes of the subgroups that visited: 0 to 1.
static double getLaneUse(uint64_t activeLanes, uint64_t visits,
                         uint32_t subgroupSize) {
  return visits && subgroupSize
             ? double(activeLanes) / (double(visits) * subgroupSize)
             : 0;
}

/// The share of branch visits whose lanes all went the same way.
static double getBranchEfficiency(uint64_t branchVisits,
                                  uint64_t divergentVisits) {
  return branchVisits ? 1 - double(divergentVisits) / double(branchVisits) : 1;
}

void mlir::coro::runner::printLaneProfile(const LaneProfile &profile,
                                          StringRef label, unsigned worstSites,
                                          llvm::raw_ostream &os) {
  os << label << ": lane profile, subgroup size " << profile.subgroupSize
     << " (lanes active per subgroup at function entries, branches and loop "
        "headers)\n";
  os << llvm::format("  %-16s %9s %11s %9s %12s   %s\n", "kernel", "GPU time",
                     "executions", "lane use", "branch eff.",
                     "frame bytes / execution (load / store)");
  double total = std::max(profile.gpuMilliseconds, 1e-9);
  auto percent = [&](double milliseconds) {
    return milliseconds < 0
               ? std::string("-")
               : llvm::formatv("{0:f1} %", 100 * milliseconds / total).str();
  };
  uint64_t visits = 0, activeLanes = 0, branchVisits = 0, divergent = 0;
  for (const LaneProfileFunction &function : profile.functions) {
    double executions = std::max<double>(function.executions, 1);
    os << llvm::format("  %-16s %9s %11llu %7.1f %% %10.1f %%   %.1f / %.1f\n",
                       function.name.c_str(),
                       percent(function.gpuMilliseconds).c_str(),
                       (unsigned long long)function.executions,
                       100 * getLaneUse(function.activeLanes, function.visits,
                                        profile.subgroupSize),
                       100 * getBranchEfficiency(function.branchVisits,
                                                 function.divergentVisits),
                       double(function.frameBytesLoaded) / executions,
                       double(function.frameBytesStored) / executions);
    visits += function.visits;
    activeLanes += function.activeLanes;
    branchVisits += function.branchVisits;
    divergent += function.divergentVisits;
  }
  if (profile.tailMilliseconds >= 0)
    os << llvm::format("  %-16s %9s   (the subroutines it ran are counted "
                       "above)\n",
                       "tail kernel",
                       percent(profile.tailMilliseconds).c_str());
  if (profile.schedulingMilliseconds >= 0)
    os << llvm::format("  %-16s %9s\n", "scheduling",
                       percent(profile.schedulingMilliseconds).c_str());
  if (profile.functions.size() > 1)
    os << llvm::format(
        "  %-16s %9s %11s %7.1f %% %10.1f %%\n", "all", "", "",
        100 * getLaneUse(activeLanes, visits, profile.subgroupSize),
        100 * getBranchEfficiency(branchVisits, divergent));
  // Where lanes idled most: the visits' idle lanes.
  std::vector<const LaneProfileSite *> sites;
  for (const LaneProfileSite &site : profile.sites)
    if (site.visits)
      sites.push_back(&site);
  auto idle = [&](const LaneProfileSite *site) {
    return site->visits * profile.subgroupSize - site->activeLanes;
  };
  std::stable_sort(sites.begin(), sites.end(),
                   [&](const LaneProfileSite *a, const LaneProfileSite *b) {
                     return idle(a) > idle(b);
                   });
  sites.resize(std::min<size_t>(sites.size(), worstSites));
  if (!sites.empty())
    os << "  sites where the most lanes idled:\n";
  for (const LaneProfileSite *site : sites) {
    std::string where = site->kind == "entry" ? "start of" : site->kind + " in";
    os << llvm::format(
        "    %s: %s %s: %llu visits, lane use %.1f %%, %.1f %% divergent\n",
        site->location.c_str(), where.c_str(),
        profile.functions[site->function].name.c_str(),
        (unsigned long long)site->visits,
        100 * getLaneUse(site->activeLanes, site->visits, profile.subgroupSize),
        100 * double(site->divergentVisits) / double(site->visits));
  }
}

llvm::json::Value mlir::coro::runner::toJSON(const LaneProfile &profile) {
  llvm::json::Array functions;
  for (const LaneProfileFunction &function : profile.functions) {
    llvm::json::Object object{
        {"name", function.name},
        {"executions", function.executions},
        {"visits", function.visits},
        {"active_lanes", function.activeLanes},
        {"branch_visits", function.branchVisits},
        {"divergent_visits", function.divergentVisits},
        {"lane_use", getLaneUse(function.activeLanes, function.visits,
                                profile.subgroupSize)},
        {"branch_efficiency",
         getBranchEfficiency(function.branchVisits, function.divergentVisits)},
        {"frame_bytes_loaded", function.frameBytesLoaded},
        {"frame_bytes_stored", function.frameBytesStored}};
    if (function.gpuMilliseconds >= 0)
      object["gpu_ms"] = function.gpuMilliseconds;
    functions.push_back(std::move(object));
  }
  llvm::json::Array sites;
  for (const LaneProfileSite &site : profile.sites)
    sites.push_back(
        llvm::json::Object{{"kind", site.kind},
                           {"location", site.location},
                           {"function", profile.functions[site.function].name},
                           {"visits", site.visits},
                           {"divergent_visits", site.divergentVisits},
                           {"active_lanes", site.activeLanes}});
  llvm::json::Object result{{"subgroup_size", profile.subgroupSize},
                            {"gpu_ms", profile.gpuMilliseconds},
                            {"functions", std::move(functions)},
                            {"sites", std::move(sites)}};
  if (profile.schedulingMilliseconds >= 0)
    result["scheduling_gpu_ms"] = profile.schedulingMilliseconds;
  if (profile.tailMilliseconds >= 0)
    result["tail_gpu_ms"] = profile.tailMilliseconds;
  return result;
}

llvm::json::Value mlir::coro::runner::toJSON(const HostBuffer &buffer) {
  llvm::json::Array values;
  for (size_t i = 0; i < buffer.count; ++i) {
    // JSON has no NaN or infinities: name them. Integers exactly.
    if (!isa<FloatType>(buffer.elementType)) {
      values.push_back(buffer.getInteger(i));
      continue;
    }
    double v = buffer.getElement(i);
    if (std::isfinite(v))
      values.push_back(v);
    else
      values.push_back(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
  }
  std::string type;
  llvm::raw_string_ostream os(type);
  os << buffer.elementType;
  return llvm::json::Object{{"type", type}, {"values", std::move(values)}};
}

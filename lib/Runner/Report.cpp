//===- Report.cpp - what a run did, for people and tools ------------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Runner/Report.h"
#include "corogpu/runtime/BoundsCheckABI.h"

#include "llvm/Support/Format.h"

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

void mlir::coro::runner::printSchedulerStats(const ScheduledRun &run,
                                             double gpuMilliseconds,
                                             llvm::raw_ostream &os) {
  ArrayRef<std::string> names = run.subroutineNames;
  if (run.wavefront) {
    const rt::WavefrontStats &stats = run.wavefrontStats;
    os << "wavefront: " << stats.capacity << " slots, " << stats.rounds
       << " rounds, " << stats.launches << " subroutine launches, "
       << stats.submissions << " submissions, " << stats.compactions
       << " compactions\n";
    os << "wavefront: instances per subroutine:";
    printPerSubroutine(stats.instancesPerSubroutine, names, os);
    double total = std::max(gpuMilliseconds, 1e-9);
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
  if (run.persistent) {
    const rt::PersistentStats &stats = run.persistentStats;
    auto count = [](uint64_t n, const char *one, const char *many) {
      return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    os << "persistent: " << count(stats.workgroups, "workgroup", "workgroups")
       << ", " << count(stats.launches, "launch", "launches") << ", "
       << count(stats.steps, "step", "steps") << ", "
       << count(stats.acquisitions, "batch", "batches")
       << ", global memory extension " << stats.extensionBytes << " bytes\n";
    os << "persistent: instances per subroutine:";
    printPerSubroutine(stats.instancesPerSubroutine, names, os);
  }
}

void mlir::coro::runner::addSchedulerStats(const ScheduledRun &run,
                                           llvm::json::Object &object) {
  const std::vector<std::string> &names = run.subroutineNames;
  if (run.stateMachine)
    object["state_machine"] = llvm::json::Object{
        {"steps_per_launch", run.instanceKernel.stepsPerLaunch},
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
        {"extension_bytes", stats.extensionBytes},
        {"steps", stats.steps},
        {"batches", stats.acquisitions},
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
        {"rounds", stats.rounds},
        {"submissions", stats.submissions},
        {"launches", stats.launches},
        {"compactions", stats.compactions},
        {"subroutines", names},
        {"instances_per_subroutine", stats.instancesPerSubroutine},
        {"scheduling_gpu_ms", stats.schedulingMilliseconds},
        {"kernel_gpu_ms", std::move(perKernel)},
        {"subroutine_gpu_ms", stats.subroutineMilliseconds}};
  }
}

BoundsReport mlir::coro::runner::decodeViolations(const HostBuffer &violations,
                                                  BoundsCheckAttr boundsCheck) {
  namespace bounds = corogpu::runtime::bounds;
  BoundsReport report;
  auto word = [&](uint64_t index) {
    uint32_t value = 0;
    if ((index + 1) * sizeof(value) <= violations.bytes.size())
      std::memcpy(&value, violations.bytes.data() + index * sizeof(value),
                  sizeof(value));
    return value;
  };
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

//===- Report.cpp - coro-run: the results of a run ------------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The last phase of a run: the buffers of the run with the median GPU time
// compared with the reference of --check, printed (as text or --json),
// written (--output-dir, --png), with what --check-bounds and
// --profile-lanes recorded, and the exit code that sums it up.
//
//===----------------------------------------------------------------------===//

#include "CoroRun.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace corogpu::cororun;

runner::BoundsReport
CoroRun::reportViolations(const runner::HostBuffer &violations) {
  runner::BoundsReport report =
      runner::decodeViolations(violations, boundsCheck);
  if (report.count) {
    llvm::errs() << "coro-run: error: ";
    runner::printBoundsReport(report, label, llvm::errs());
  }
  return report;
}

int CoroRun::report() {
  // --profile-lanes: the profile buffer is coro-run's, not the user's.
  runner::RunResult &reported = runs[reportedRun];
  const runner::RunTiming &runTiming = reported.timing;
  std::optional<runner::LaneProfile> lanes;
  if (compileFlags.profileLanes) {
    lanes = runner::decodeLaneProfile(profiles[reportedRun], laneProfile,
                                      reported.scheduled, runTiming.gpu);
    results.pop_back();
  }
  // --check-bounds: the violation buffer is coro-run's, not the user's.
  runner::BoundsReport violations;
  if (boundsCheck) {
    violations = reportViolations(results.back());
    results.pop_back();
  }
  std::optional<bool> matches;
  if (check != CheckReference::None) {
    SmallVector<runner::BufferMismatch> mismatches;
    matches = runner::compareBuffers(results, referenceRun.buffers, tolerance,
                                     mismatches) == 0;
    for (const runner::BufferMismatch &mismatch : mismatches)
      llvm::errs() << "coro-run: mismatch in buffer " << mismatch.buffer
                   << " at [" << mismatch.index
                   << "]: " << llvm::format("%g", mismatch.actual)
                   << ", reference " << llvm::format("%g", mismatch.expected)
                   << "\n";
  }

  if (json) {
    llvm::json::Object result{
        {"coroutine", coroutineName},
        {"scheduler", label},
        {"device", device->getName()},
        {"grid", llvm::json::Array{grid[0], grid[1], grid[2]}},
        {"timing_ms", llvm::json::Object{{"compile", compileMs},
                                         {"upload", runTiming.upload},
                                         {"run", runTiming.run},
                                         {"gpu", runTiming.gpu},
                                         {"download", runTiming.download}}}};
    // --quiet leaves the buffers out of the JSON too.
    if (!quiet) {
      llvm::json::Array jsonBuffers;
      for (const runner::HostBuffer &buffer : results)
        jsonBuffers.push_back(runner::toJSON(buffer));
      result["buffers"] = std::move(jsonBuffers);
    }
    if (matches)
      result["check"] = *matches;
    if (boundsCheck)
      result["bounds_violations"] = runner::toJSON(violations);
    if (lanes)
      result["lane_profile"] = runner::toJSON(*lanes);
    llvm::json::Array perRun;
    for (const runner::RunResult &run : runs) {
      llvm::json::Object entry{{"run", run.timing.run},
                               {"gpu", run.timing.gpu}};
      if (run.scheduled.wavefront) {
        entry["scheduling_gpu_ms"] =
            run.scheduled.wavefrontStats.schedulingMilliseconds;
        entry["subroutine_gpu_ms"] =
            run.scheduled.wavefrontStats.subroutineMilliseconds;
      }
      perRun.push_back(std::move(entry));
    }
    result["runs_ms"] = std::move(perRun);
    runner::addSchedulerStats(reported.scheduled, result);
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(result)))
                 << "\n";
  } else if (!quiet) {
    for (auto [index, buffer] : llvm::enumerate(results))
      buffer.print(index, llvm::outs());
  }
  if (lanes && !json)
    runner::printLaneProfile(*lanes, label, /*worstSites=*/5, llvm::outs());
  if (!outputDir.empty()) {
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create " + outputDir + ": " + error.message(),
                  kExitUsage);
    for (auto [index, buffer] : llvm::enumerate(results))
      if (llvm::Error error = runner::writeBufferFiles(
              outputDir, index, buffer,
              runner::getGridShape(grid, buffer.count)))
        return fail(llvm::toString(std::move(error)), kExitUsage);
  }
  for (const runner::PngImage &image : images)
    if (llvm::Error error =
            runner::writePng(image, results[image.buffer], pngExposure))
      return fail(llvm::toString(std::move(error)), kExitUsage);
  StringRef referenceName = check == CheckReference::CPU
                                ? "the CPU reference"
                                : "the mega-kernel reference";
  // Out-of-bounds accesses explain a mismatch, not the other way round.
  ExitCode code = violations.count ? kExitOutOfBounds : kExitSuccess;
  if (!matches)
    return code;
  if (!*matches) {
    llvm::errs() << "coro-run: --check FAILED: " << label << " differs from "
                 << referenceName << "\n";
    return violations.count ? code : kExitMismatch;
  }
  if (!json)
    llvm::outs() << "check: " << label << " matches " << referenceName << " on "
                 << device->getName() << "\n";
  return code;
}

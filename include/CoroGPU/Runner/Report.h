//===- Report.h - what a run did, for people and tools ----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The reports of `coro-run`: the scheduler's statistics (text and JSON,
// subroutines named by their tags), the out-of-bounds accesses that
// coro-check-bounds recorded, and buffers as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_REPORT_H
#define COROGPU_RUNNER_REPORT_H

#include "CoroGPU/Runner/Run.h"

#include "llvm/Support/JSON.h"

namespace mlir {
namespace coro {
namespace runner {

/// Prints what the scheduler did: `wavefront: ...`, `persistent: ...`,
/// `state-machine: ...` or `megakernel: ...` lines.
/// `gpuMilliseconds` is the run's GPU time.
void printSchedulerStats(const ScheduledRun &run, double gpuMilliseconds,
                         llvm::raw_ostream &os);

/// Adds the statistics of the state machine, the wavefront or the
/// persistent-threads scheduler to `object` (`"state_machine"`,
/// `"wavefront"`, `"persistent"`); nothing for the mega-kernel.
void addSchedulerStats(const ScheduledRun &run, llvm::json::Object &object);

/// One access out of bounds that coro-check-bounds recorded.
struct BoundsViolation {
  /// file:line:col of the access, the op, and the memref it accessed
  /// ("argument 0", a local array).
  std::string location, op, memref;
  int64_t index = 0;
  uint32_t dimension = 0, size = 0;
  uint64_t instance = 0;
  /// The suspension point the instance last resumed at: "entry", its tag,
  /// or "#N (anonymous)".
  std::string resumedAt;
};

/// The accesses out of bounds of a run: how many there were, and the
/// records kept (an instance's first since it last suspended).
struct BoundsReport {
  uint32_t count = 0;
  std::vector<BoundsViolation> recorded;
};

/// Decodes the violation buffer (KernelABI.h's createViolationBuffer) after
/// a run of a coroutine instrumented as `boundsCheck` says.
BoundsReport decodeViolations(const HostBuffer &violations,
                              BoundsCheckAttr boundsCheck);

/// Prints `<label>: N memory accesses were out of bounds ...` and one line
/// per record; nothing when there were none.
void printBoundsReport(const BoundsReport &report, StringRef label,
                       llvm::raw_ostream &os);

/// {"count": N, "recorded": [{"location", "op", ...}]}.
llvm::json::Value toJSON(const BoundsReport &report);

/// One site of a lane profile (coro-profile-lanes) and its counts.
struct LaneProfileSite {
  /// "entry", "scf.if", "scf.index_switch", "scf.while", "scf.for".
  std::string kind;
  /// file:line:col.
  std::string location;
  /// The function (LaneProfile::functions) it is in.
  unsigned function = 0;
  uint64_t visits = 0, divergentVisits = 0, activeLanes = 0;
};

/// One instrumented function: the mega-kernel, or a subroutine (a wavefront
/// kernel).
struct LaneProfileFunction {
  std::string name;
  /// Lanes that ran it (the active lanes at its entry).
  uint64_t executions = 0;
  /// Over all its sites, and over its branches and loop headers alone.
  uint64_t visits = 0, activeLanes = 0, branchVisits = 0, divergentVisits = 0;
  uint64_t frameBytesLoaded = 0, frameBytesStored = 0;
  /// GPU time of its kernel, where the scheduler gives it a kernel of its
  /// own (the mega-kernel, wavefront subroutines); negative otherwise.
  double gpuMilliseconds = -1;
};

/// A run's lane profile.
struct LaneProfile {
  uint32_t subgroupSize = 0;
  std::vector<LaneProfileFunction> functions;
  std::vector<LaneProfileSite> sites;
  /// The run's GPU time and, under the wavefront scheduler, the part its
  /// scheduling kernels took (negative otherwise) and the part its tail
  /// kernel took (negative without one; the subroutines it ran count in
  /// their functions' executions and lanes, its time in none of them).
  double gpuMilliseconds = 0, schedulingMilliseconds = -1,
         tailMilliseconds = -1;
};

/// Decodes the profile buffer (KernelABI.h's createLaneProfileBuffer) after
/// a run of `run`'s kernels, instrumented as `laneProfile` says;
/// `gpuMilliseconds` is the run's GPU time.
LaneProfile decodeLaneProfile(const HostBuffer &buffer,
                              LaneProfileAttr laneProfile,
                              const ScheduledRun &run, double gpuMilliseconds);

/// Prints the Table-2-style report: per function (kernel) its share of the
/// GPU time, lane use, branch efficiency and frame bytes per execution, then
/// the `worstSites` sites where the most lanes idled.
void printLaneProfile(const LaneProfile &profile, StringRef label,
                      unsigned worstSites, llvm::raw_ostream &os);

/// {"subgroup_size", "functions": [...], "sites": [...]}.
llvm::json::Value toJSON(const LaneProfile &profile);

/// {"type": "f32", "values": [...]}, NaN and infinities as strings.
llvm::json::Value toJSON(const HostBuffer &buffer);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_REPORT_H

//===- Report.h - what a run did, for people and tools ----------*- C++ -*-===//
//
// Part of the CoroGPU project.
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

/// Prints what the wavefront or the persistent-threads scheduler did
/// (`wavefront: ...` / `persistent: ...` lines); nothing for the others.
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

/// {"type": "f32", "values": [...]}, NaN and infinities as strings.
llvm::json::Value toJSON(const HostBuffer &buffer);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_REPORT_H

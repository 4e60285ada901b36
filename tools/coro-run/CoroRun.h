//===- CoroRun.h - one run of coro-run, phase by phase ----------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What coro-run holds from one phase to the next. main (coro-run.cpp) calls
// the phases in order and stops at the first that gives an exit code:
// prepare (Prepare.cpp: the module, the coroutine, the grid, the arguments
// and buffers, or --list, --tune, --emit instead of a run), run (Run.cpp:
// the device, the compiled kernels, the runs and the reference) and report
// (Report.cpp: the buffers, the check, the files).
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TOOLS_CORORUN_CORORUN_H
#define COROGPU_TOOLS_CORORUN_CORORUN_H

#include "Options.h"

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Runner/BufferIO.h"
#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Runner/Report.h"
#include "CoroGPU/Runner/Run.h"
#include "corogpu/runtime/Device.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace corogpu::cororun {

namespace runner = mlir::coro::runner;

using Clock = std::chrono::steady_clock;
inline double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// One run of coro-run. Each phase returns kExitSuccess to go on, or the
/// exit code to stop with (having printed why).
class CoroRun {
public:
  CoroRun(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr)
      : context(context), sourceMgr(sourceMgr) {}
  CoroRun(const CoroRun &) = delete;
  CoroRun &operator=(const CoroRun &) = delete;

  //===--------------------------------------------------------------------===//
  // Prepare (Prepare.cpp)
  //===--------------------------------------------------------------------===//

  /// Reads and parses the input file.
  ExitCode load();
  /// --list: describes every coroutine of the module; returns 0.
  int list();
  /// Picks the coroutine to run and checks what can be checked before it
  /// is instrumented: its sort key, its buffers, the grid.
  ExitCode choose();
  /// --tune: runs every configuration; returns the tuner's exit code.
  int runTuner(int argc, char **argv);
  /// --check-bounds: instruments the coroutine.
  ExitCode instrument();
  /// Parses the arguments and buffers (the violation buffer of
  /// --check-bounds after the user's) and the images to write.
  ExitCode prepareArguments();

  //===--------------------------------------------------------------------===//
  // Run (Run.cpp)
  //===--------------------------------------------------------------------===//

  /// --emit: writes the generated code to --emit-to instead of running it;
  /// returns the exit code.
  int emitCode();
  /// Creates the device of --backend.
  ExitCode openDevice();
  /// Compiles the coroutine (and the mega-kernel reference of --check).
  ExitCode compile();
  /// Runs it --repeat times, then the reference of --check.
  ExitCode run();

  //===--------------------------------------------------------------------===//
  // Report (Report.cpp)
  //===--------------------------------------------------------------------===//

  /// Prints and writes the results of the run with the median GPU time and
  /// compares them with the reference; returns the exit code.
  int report();

private:
  /// --check-bounds: reports what a run's violation buffer recorded.
  runner::BoundsReport reportViolations(const runner::HostBuffer &violations);
  /// The buffers of the reference run: those of the run less the profile
  /// buffer of --profile-lanes.
  llvm::ArrayRef<runner::HostBuffer> getReferenceBuffers() const {
    return llvm::ArrayRef<runner::HostBuffer>(buffers).drop_back(
        compileFlags.profileLanes ? 1 : 0);
  }

  mlir::MLIRContext &context;
  llvm::SourceMgr &sourceMgr;

  // Prepare.
  /// From the start of the parse: the compile time reported.
  Clock::time_point start;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// --check=cpu: the module as written (--check-bounds instruments it).
  mlir::OwningOpRef<mlir::ModuleOp> source;
  coro::FuncOp coroutine;
  /// The grid (--emit compiles for none).
  std::array<uint32_t, 3> grid = {1, 1, 1};
  /// --check-bounds: the coroutine's checks; it takes one more argument,
  /// the violation buffer, that coro-run passes after the user's.
  coro::BoundsCheckAttr boundsCheck;
  /// The coroutine's arguments, less the violation buffer.
  llvm::ArrayRef<mlir::Type> userArgumentTypes;
  /// The coroutine's arguments, the violation buffer included.
  llvm::ArrayRef<mlir::Type> argumentTypes;
  /// Arguments, in order: scalars from --arg, memrefs from --buffer.
  std::vector<rt::KernelArg> scalars;
  std::vector<runner::HostBuffer> buffers;
  std::vector<runner::PngImage> images;

  // Run.
  /// Whether what the kernels print is shown (not the reference's, which
  /// would repeat the run's).
  bool showPrints = true;
  std::unique_ptr<rt::Device> device;
  runner::CompiledCoroutine compiled;
  std::optional<runner::CompiledCoroutine> reference;
  /// --profile-lanes: the sites the kernels count, whose counts they write
  /// to the profile buffer, which they take after the user's.
  coro::LaneProfileAttr laneProfile;
  llvm::SmallVector<mlir::Type> runArgumentTypes;
  double compileMs = 0;
  /// The scheduler's name, that of the run in reports.
  llvm::StringRef label;
  /// Every run's times and statistics; the buffers of the last (memory for
  /// one copy only).
  std::vector<runner::RunResult> runs;
  std::vector<runner::HostBuffer> results;
  /// --profile-lanes: every run's profile buffer (the wavefront's counts
  /// depend on how its queues filled), to report the median run's.
  std::vector<runner::HostBuffer> profiles;
  /// The run reported: that with the median GPU time.
  size_t reportedRun = 0;
  /// --check: the reference's buffers.
  runner::RunResult referenceRun;
};

} // namespace corogpu::cororun

#endif // COROGPU_TOOLS_CORORUN_CORORUN_H

//===- Options.h - coro-run's command line ----------------------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// coro-run's options, its exit codes and the checks of the command line
// before any file is read. The options are the tool's globals (LLVM's
// llvm::cl), declared here for the phases of a run (Prepare.cpp, Run.cpp,
// Report.cpp) and defined in Options.cpp, with the table of which options
// serve which schedulers.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TOOLS_CORORUN_OPTIONS_H
#define COROGPU_TOOLS_CORORUN_OPTIONS_H

#include "CoroGPU/Pipelines/Pipelines.h"
#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/Wavefront.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>

namespace corogpu::cororun {

namespace coro = mlir::coro;
namespace rt = corogpu::runtime;

/// "; did you mean 'x'?" for the name in `candidates` nearest to `wrong`,
/// when one is near enough to be a misspelling; empty otherwise.
std::string suggestName(llvm::StringRef wrong,
                        llvm::ArrayRef<llvm::StringRef> candidates);

/// The parser of coro-run's enum options: a value it does not know is an
/// error that lists the values and suggests the nearest, instead of LLVM's
/// "Cannot find option named".
template <typename T, typename Base = llvm::cl::parser<T>>
class SuggestingParser : public Base {
public:
  using Base::Base;

  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, T &value) {
    llvm::SmallVector<llvm::StringRef> names;
    for (unsigned i = 0, e = this->getNumOptions(); i != e; ++i)
      names.push_back(this->getOption(i));
    if (llvm::is_contained(names, arg))
      return Base::parse(option, argName, arg, value);
    // (--check's value-less spelling is the empty name.)
    auto spelled = llvm::make_filter_range(
        names, [](llvm::StringRef name) { return !name.empty(); });
    return option.error("'" + arg + "' is not one of " +
                        llvm::join(spelled, ", ") + suggestName(arg, names));
  }
};

/// The device APIs coro-run drives.
enum class Backend { Vulkan, CUDA };
/// What --check compares the run with.
enum class CheckReference { None, Megakernel, CPU };
/// What --emit writes instead of running.
enum class EmitKind { None, MLIR, SPIRV, PTX };

// What to run.
extern llvm::cl::opt<std::string> inputFilename;
extern llvm::cl::opt<bool> listCoroutines;
extern llvm::cl::opt<std::string> coroutineName;
extern llvm::cl::opt<std::string> gridSpec;
extern llvm::cl::list<std::string> scalarArgs;
extern llvm::cl::list<std::string> bufferSpecs;
extern llvm::cl::opt<coro::GPUScheduler, false,
                     SuggestingParser<coro::GPUScheduler>>
    scheduler;

// The schedulers' run-time options (their compile-time ones: compileFlags).
extern llvm::cl::opt<unsigned> wavefrontStrideWorkgroups;
extern llvm::cl::opt<uint64_t> capacity;
extern llvm::cl::opt<rt::RefillPolicy, false,
                     SuggestingParser<rt::RefillPolicy>>
    refill;
extern llvm::cl::opt<rt::LaunchOrder, false, SuggestingParser<rt::LaunchOrder>>
    order;
extern llvm::cl::opt<unsigned> compactBelow;
extern llvm::cl::opt<unsigned> roundsPerCheck;
extern llvm::cl::opt<bool> replayRounds;
extern llvm::cl::opt<bool> printStats;
extern llvm::cl::opt<uint64_t> persistentThreads;
extern llvm::cl::opt<int> persistentBatchesPerLaunch;
extern llvm::cl::opt<uint64_t> maxRounds;
extern llvm::cl::opt<double> timeLimit;

// The device, the checks, the report.
extern llvm::cl::opt<bool> checkBounds;
extern llvm::cl::opt<Backend, false, SuggestingParser<Backend>> backend;
extern llvm::cl::opt<std::string> deviceName;
extern llvm::cl::opt<bool> printKernels;
extern llvm::cl::opt<bool> validation;
extern llvm::cl::opt<CheckReference, false, SuggestingParser<CheckReference>>
    check;
extern llvm::cl::opt<double> tolerance;
extern llvm::cl::opt<bool> timing;
extern llvm::cl::opt<unsigned> repeat;
extern llvm::cl::opt<bool> quiet;
extern llvm::cl::opt<bool> json;
extern llvm::cl::opt<bool> printOpOnDiagnostic;
extern llvm::cl::list<std::string> pngSpecs;
extern llvm::cl::opt<double> pngExposure;
extern llvm::cl::opt<std::string> outputDir;

// --tune.
extern llvm::cl::opt<bool> tune;
extern llvm::cl::opt<unsigned> tuneRepeat;
extern llvm::cl::opt<std::string> tuneJson;
extern llvm::cl::opt<unsigned> tuneTimeout;

// --emit.
extern llvm::cl::opt<EmitKind, false, SuggestingParser<EmitKind>> emit;
extern llvm::cl::opt<std::string> emitTo;
extern llvm::cl::opt<std::string> chip;
extern llvm::cl::opt<std::string> deviceTraits;

/// The schedulers' compile-time options (--layout, --sort-by, ...,
/// --termination-checks, --profile-lanes): declared once, with the
/// pipelines' (coro::SchedulerOptions), and put on the command line by
/// parseCommandLine.
extern coro::SchedulerPipelineOptions compileFlags;

/// coro-run's exit codes (documented in --help and the README): one
/// per kind of failure, so that scripts can tell a wrong result from a
/// mistake in the command line.
enum ExitCode : int {
  kExitSuccess = 0,
  /// --check: the scheduler's buffers differ from the mega-kernel's.
  kExitMismatch = 1,
  /// Bad command line or input: options, files, arguments, buffers.
  kExitUsage = 2,
  /// The coroutine did not compile (the compiler printed why), or its
  /// SPIR-V failed validation.
  kExitCompile = 3,
  /// The device or the runtime failed.
  kExitDevice = 4,
  /// A run went past a limit (--max-rounds, --time-limit, the device's loop
  /// limit) before every instance returned.
  kExitLimit = 5,
  /// --check-bounds: an access was out of bounds.
  kExitOutOfBounds = 6,
};

/// The exit code of a runtime failure.
ExitCode getExitCode(const rt::Status &status);

/// Prints a one-line error and returns `code`.
ExitCode fail(const llvm::Twine &message, ExitCode code);

/// Puts the schedulers' compile-time options on the command line and parses
/// it; false (LLVM printed why) on a bad command line.
bool parseCommandLine(int argc, char **argv);

/// Why the options given cannot go together, or empty: a scheduler's option
/// given to another scheduler, or to --tune, which picks them itself; a
/// value out of range.
std::string checkCommandLine();

/// Which configurations --tune passes a host-loop option to.
enum class TunePassesTo {
  None,
  Wavefront,
  Persistent,
  /// Every configuration with a host loop (the limits).
  HostLoops
};
/// Which configurations --tune passes the option `name` to.
TunePassesTo getTunePassedOption(llvm::StringRef name);

} // namespace corogpu::cororun

#endif // COROGPU_TOOLS_CORORUN_OPTIONS_H

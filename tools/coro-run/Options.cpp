//===- Options.cpp - coro-run's command line and its checks ---------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The options of coro-run and the checks that they go together. Which
// scheduler an option serves is data, kOptionSchedulers: the check of a
// scheduler's option given to another scheduler, the help sections of the
// compile-time options and what --tune passes on or refuses all walk that
// one table, so that an option is placed in one spot.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "CoroGPU/Version.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace corogpu::cororun;
using llvm::StringRef;

std::string corogpu::cororun::suggestName(StringRef wrong,
                                          ArrayRef<StringRef> candidates) {
  StringRef best;
  unsigned bestDistance = std::max<unsigned>(2, wrong.size() / 3) + 1;
  for (StringRef candidate : candidates) {
    unsigned distance = wrong.edit_distance(
        candidate, /*AllowReplacements=*/true, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best.empty() ? std::string()
                      : ("; did you mean '" + best + "'?").str();
}

//===----------------------------------------------------------------------===//
// The options
//===----------------------------------------------------------------------===//

namespace corogpu::cororun {

static llvm::cl::OptionCategory
    coroRunCategory("coro-run options (see also the scheduler options)");

llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                         llvm::cl::desc("<input.mlir>"),
                                         llvm::cl::Required,
                                         llvm::cl::cat(coroRunCategory));
llvm::cl::opt<bool>
    listCoroutines("list",
                   llvm::cl::desc("Describe every coroutine of the module: "
                                  "signature, suspension points, promises"),
                   llvm::cl::cat(coroRunCategory));
llvm::cl::opt<std::string>
    coroutineName("coro",
                  llvm::cl::desc("Name of the coroutine to run, with or "
                                 "without its '@' (default: the module's "
                                 "only coro.func)"),
                  llvm::cl::value_desc("symbol"),
                  llvm::cl::cat(coroRunCategory));
llvm::cl::opt<std::string>
    gridSpec("grid",
             llvm::cl::desc("Grid of instances, one per element: X, XxY or "
                            "XxYxZ (also X,Y,Z); required to run"),
             llvm::cl::value_desc("extents"), llvm::cl::cat(coroRunCategory));
llvm::cl::list<std::string>
    scalarArgs("arg",
               llvm::cl::desc("Value of the next scalar argument, in order "
                              "(a vector's elements comma-separated)"),
               llvm::cl::cat(coroRunCategory));
llvm::cl::list<std::string> bufferSpecs(
    "buffer",
    llvm::cl::desc(
        "The next memref argument, in order: TYPE:COUNT:INIT with "
        "TYPE f16|f32|f64|i32|i64, INIT zeros|iota|const=V|random=SEED|"
        "file=PATH (raw little-endian elements)|npy=PATH (a NumPy "
        ".npy file of that dtype and COUNT elements)"),
    llvm::cl::cat(coroRunCategory));
llvm::cl::opt<coro::GPUScheduler, false, SuggestingParser<coro::GPUScheduler>>
    scheduler("scheduler", llvm::cl::desc("Scheduler to materialize"),
              llvm::cl::init(coro::GPUScheduler::StateMachine),
              coro::getGPUSchedulerValues(), llvm::cl::cat(coroRunCategory));

// State-machine scheduler options.
static llvm::cl::OptionCategory stateMachineCategory(
    "State-machine scheduler options (--scheduler=state-machine; also "
    "--fall-through; with --state-machine-steps also --max-rounds, "
    "--time-limit)");

// Wavefront scheduler options: compile time (layout, sort-by, hint-buckets)
// and run time (the rest).
static llvm::cl::OptionCategory
    wavefrontCategory("Wavefront scheduler options (--scheduler=wavefront)");
llvm::cl::opt<unsigned> wavefrontStrideWorkgroups(
    "wavefront-stride-workgroups",
    llvm::cl::desc("Grid-stride kernels (--wavefront-grid-stride, always "
                   "on CUDA): workgroups of each subroutine kernel (0: enough "
                   "to fill the device; on lavapipe, which limits each "
                   "thread's loop passes, a thread per slot)"),
    llvm::cl::init(0), llvm::cl::cat(wavefrontCategory));
llvm::cl::opt<uint64_t>
    capacity("capacity",
             llvm::cl::desc("Instance slots (0: from device memory, at most "
                            "2^24 and the grid)"),
             llvm::cl::init(0), llvm::cl::cat(wavefrontCategory));
llvm::cl::opt<rt::RefillPolicy, false, SuggestingParser<rt::RefillPolicy>>
    refill("refill", llvm::cl::desc("When free slots take new instances"),
           llvm::cl::init(rt::RefillPolicy::EveryRound),
           llvm::cl::values(clEnumValN(rt::RefillPolicy::EveryRound, "always",
                                       "every round"),
                            clEnumValN(rt::RefillPolicy::BelowHalf, "half",
                                       "when fewer than half of the slots are "
                                       "alive (Cycles)")),
           llvm::cl::cat(wavefrontCategory));
llvm::cl::opt<rt::LaunchOrder, false, SuggestingParser<rt::LaunchOrder>>
    order("order", llvm::cl::desc("Which subroutines run each round"),
          llvm::cl::init(rt::LaunchOrder::Fixed),
          llvm::cl::values(clEnumValN(rt::LaunchOrder::Fixed, "fixed",
                                      "every non-empty queue, in token order"),
                           clEnumValN(rt::LaunchOrder::MostFirst, "most-first",
                                      "only the subroutine most instances need "
                                      "next (Cycles)")),
          llvm::cl::cat(wavefrontCategory));
llvm::cl::opt<unsigned> compactBelow(
    "compact-below",
    llvm::cl::desc("Compact the frames once the grid is exhausted and fewer "
                   "than this % of the active slots are alive (0: off)"),
    llvm::cl::init(0), llvm::cl::cat(wavefrontCategory));
llvm::cl::opt<unsigned> roundsPerCheck(
    "rounds-per-check",
    llvm::cl::desc("Rounds per submission; the host checks the GPU-written "
                   "termination flag after each"),
    llvm::cl::init(8), llvm::cl::cat(wavefrontCategory));
llvm::cl::opt<bool> replayRounds(
    "replay-rounds",
    llvm::cl::desc("Record a submission's rounds once and launch the "
                   "recording at each later submission (CUDA: a graph; "
                   "Vulkan: the command buffer submitted again), so that a "
                   "round costs no host work per kernel; each submission "
                   "is then timed whole, not per kernel"),
    llvm::cl::init(false), llvm::cl::cat(wavefrontCategory));
llvm::cl::opt<bool>
    printStats("scheduler-stats",
               llvm::cl::desc("Print the scheduler's statistics (wavefront: "
                              "rounds, launches, instances per subroutine, GPU "
                              "time in scheduling vs subroutine kernels; "
                              "persistent: workgroups, steps, batches, "
                              "instances per subroutine; mega-kernel and "
                              "state machine: launches, dispatch, frames)"),
               llvm::cl::cat(coroRunCategory));

// Persistent-threads scheduler options: compile time, then run time.
static llvm::cl::OptionCategory persistentCategory(
    "Persistent-threads scheduler options (--scheduler=persistent; also "
    "--layout)");
llvm::cl::opt<uint64_t> persistentThreads(
    "persistent-threads",
    llvm::cl::desc("Resident threads (0: 2^15, never more workgroups than "
                   "the grid's batches)"),
    llvm::cl::init(0), llvm::cl::cat(persistentCategory));
llvm::cl::opt<int> persistentBatchesPerLaunch(
    "persistent-batches-per-launch",
    llvm::cl::desc("Batches a workgroup takes per launch, the kernel being "
                   "launched again until the grid is done (0: no limit; "
                   "default -1: 1 on lavapipe, whose threads end their loops "
                   "after 65535 iterations in all, else no limit)"),
    llvm::cl::init(-1), llvm::cl::cat(persistentCategory));
llvm::cl::opt<uint64_t> maxRounds(
    "max-rounds",
    llvm::cl::desc("Give up, with exit code 5, after this many wavefront "
                   "rounds, persistent-threads launches or state-machine "
                   "launches with --state-machine-steps (0: no limit; "
                   "default: 2^20 rounds or launches)"),
    llvm::cl::init(~uint64_t(0)), llvm::cl::cat(coroRunCategory));
llvm::cl::opt<double> timeLimit(
    "time-limit",
    llvm::cl::desc("Give up, with exit code 5, once the host loop of the "
                   "wavefront, persistent-threads or bounded-steps "
                   "state-machine scheduler has run this many seconds (0: no "
                   "limit; checked between submissions, so that a coroutine "
                   "whose instances never return does not run unnoticed)"),
    llvm::cl::init(300), llvm::cl::cat(coroRunCategory));
llvm::cl::opt<bool> checkBounds(
    "check-bounds",
    llvm::cl::desc("Check the index of every memref load, store and atomic "
                   "of the coroutine (and of each element of a vector load "
                   "or store) against its buffer's size "
                   "(coro-check-bounds): an access out of bounds is skipped "
                   "(a load gives 0) and counted; at each suspension an "
                   "instance reports the first it met, 16 reports are kept "
                   "and printed with their source line, and coro-run exits "
                   "with code 6; off by default, as it slows the kernels"),
    llvm::cl::cat(coroRunCategory));
llvm::cl::opt<Backend, false, SuggestingParser<Backend>> backend(
    "backend", llvm::cl::desc("Device backend"),
    llvm::cl::init(Backend::Vulkan),
    llvm::cl::values(clEnumValN(Backend::Vulkan, "vulkan",
                                "any Vulkan 1.2 device, lavapipe included"),
                     clEnumValN(Backend::CUDA, "cuda", "NVIDIA driver")),
    llvm::cl::cat(coroRunCategory));
llvm::cl::opt<std::string>
    deviceName("device",
               llvm::cl::desc("Vulkan device whose name contains "
                              "this text (default: the first)"),
               llvm::cl::cat(coroRunCategory));
llvm::cl::opt<bool> printKernels(
    "printf",
    llvm::cl::desc("Show what the kernels print (gpu.printf; each line "
                   "prefixed with its instance and the suspension point it "
                   "resumed at; on stderr with --json): on Vulkan through "
                   "the Khronos validation layer's debug printf, which this "
                   "loads; CUDA prints always"),
    llvm::cl::cat(coroRunCategory));
llvm::cl::opt<bool>
    validation("validate",
               llvm::cl::desc("Enable the Khronos Vulkan validation layer; "
                              "any message is an error"),
               llvm::cl::cat(coroRunCategory));
llvm::cl::opt<CheckReference, false, SuggestingParser<CheckReference>> check(
    "check",
    llvm::cl::desc("Also run a reference and compare every buffer (exit "
                   "code 1 on mismatch)"),
    llvm::cl::ValueOptional, llvm::cl::init(CheckReference::None),
    llvm::cl::values(
        clEnumValN(CheckReference::Megakernel, "",
                   "--check: the mega-kernel on the same device"),
        clEnumValN(CheckReference::Megakernel, "megakernel",
                   "the mega-kernel on the same device: the same front half "
                   "(inlining, yields, handles), suspensions erased; shows "
                   "what the split and the scheduler change"),
        clEnumValN(CheckReference::CPU, "cpu",
                   "every instance run to completion on the CPU (JIT), "
                   "through none of the passes the schedulers' code takes; "
                   "also shows bugs of the front half, but cannot run "
                   "handles")),
    llvm::cl::cat(coroRunCategory));
llvm::cl::opt<double> tolerance(
    "tolerance",
    llvm::cl::desc("Largest relative difference accepted between floats "
                   "with --check (integers must be equal)"),
    llvm::cl::init(1e-5), llvm::cl::cat(coroRunCategory));
llvm::cl::opt<bool> timing("timing",
                           llvm::cl::desc("Print the time of each "
                                          "phase"),
                           llvm::cl::cat(coroRunCategory));
llvm::cl::opt<unsigned>
    repeat("repeat",
           llvm::cl::desc("Run the scheduler this many times (compiled "
                          "kernels kept) and report the run with the median "
                          "GPU time"),
           llvm::cl::init(1), llvm::cl::cat(coroRunCategory));
static llvm::cl::OptionCategory
    tuneCategory("Picking a scheduler (--tune; the other options are the "
                 "run's: file, coroutine, grid, arguments, buffers, device)");
llvm::cl::opt<bool>
    tune("tune",
         llvm::cl::desc("Run the coroutine under every scheduler and its "
                        "main options (layout, workgroup size, compaction, "
                        "sort key, batch, workgroup memory), each --check'ed "
                        "against the mega-kernel, and print them ranked by "
                        "median GPU time (--json: as JSON)"),
         llvm::cl::cat(tuneCategory));
llvm::cl::opt<unsigned>
    tuneRepeat("tune-repeat",
               llvm::cl::desc("Runs per configuration (their median counts)"),
               llvm::cl::init(5), llvm::cl::cat(tuneCategory));
llvm::cl::opt<std::string>
    tuneJson("tune-json",
             llvm::cl::desc("Also write the ranked results as JSON to this "
                            "file"),
             llvm::cl::value_desc("file"), llvm::cl::cat(tuneCategory));
llvm::cl::opt<unsigned> tuneTimeout(
    "tune-timeout",
    llvm::cl::desc("Seconds one configuration may take (its runs and "
                   "checks) before it is stopped and reported, as a limit "
                   "(exit code 5); 0: no limit"),
    llvm::cl::init(600), llvm::cl::cat(tuneCategory));
llvm::cl::opt<bool>
    quiet("quiet",
          llvm::cl::desc("Do not print the buffers (with --json: leave them "
                         "out of the JSON)"),
          llvm::cl::cat(coroRunCategory));

llvm::cl::opt<EmitKind, false, SuggestingParser<EmitKind>> emit(
    "emit", llvm::cl::desc("Write the generated code instead of running it"),
    llvm::cl::init(EmitKind::None),
    llvm::cl::values(
        clEnumValN(EmitKind::MLIR, "mlir",
                   "the module after the scheduler and the SPIR-V lowering"),
        clEnumValN(EmitKind::SPIRV, "spirv", "the SPIR-V binary (--emit-to)"),
        clEnumValN(EmitKind::PTX, "ptx", "PTX text for --chip")),
    llvm::cl::cat(coroRunCategory));
llvm::cl::opt<std::string>
    emitTo("emit-to", llvm::cl::desc("File for --emit (default: stdout)"),
           llvm::cl::init("-"), llvm::cl::cat(coroRunCategory));
llvm::cl::opt<std::string> chip("chip",
                                llvm::cl::desc("Target GPU of --emit=ptx"),
                                llvm::cl::init("sm_90"),
                                llvm::cl::cat(coroRunCategory));
llvm::cl::opt<std::string> deviceTraits(
    "device-traits",
    llvm::cl::desc("The device --emit compiles for, as a run compiles for "
                   "the device it runs on: gpu (a GPU, whose subgroup size "
                   "may vary), cpu:N (a CPU device with subgroups of N lanes; "
                   "lavapipe is cpu:8) or native (the device a run would "
                   "use)"),
    llvm::cl::init("gpu"), llvm::cl::cat(coroRunCategory));
llvm::cl::opt<bool> json("json",
                         llvm::cl::desc("Print the results as one JSON object"),
                         llvm::cl::cat(coroRunCategory));
llvm::cl::opt<bool> printOpOnDiagnostic(
    "print-op-on-diagnostic",
    llvm::cl::desc("Print the whole operation an error is about (generic "
                   "form) after the error, for debugging the compiler"),
    llvm::cl::init(false), llvm::cl::cat(coroRunCategory));
llvm::cl::list<std::string> pngSpecs(
    "png",
    llvm::cl::desc("Also write buffer I as a PNG image: "
                   "I:WIDTHxHEIGHT:CHANNELS:PATH, CHANNELS 1 (gray) or 3 "
                   "(RGB), rows top first, the whole buffer; each float "
                   "times --png-exposure, clamped to [0, 1], gamma 1/2.2, 8 "
                   "bits (NaN is black); integers scaled from the smallest "
                   "value (black) to the largest (white)"),
    llvm::cl::cat(coroRunCategory));
llvm::cl::opt<double>
    pngExposure("png-exposure",
                llvm::cl::desc("Factor of every value --png writes"),
                llvm::cl::init(1.0), llvm::cl::cat(coroRunCategory));
llvm::cl::opt<std::string> outputDir(
    "output-dir",
    llvm::cl::desc("Also write each buffer as buffer<i>.bin (raw "
                   "little-endian) and buffer<i>.npy into this directory; "
                   "the .npy has the grid's shape (64x64: (64, 64)), with "
                   "the elements of each instance last when the buffer "
                   "holds several ((64, 64, 3))"),
    llvm::cl::cat(coroRunCategory));

coro::SchedulerPipelineOptions compileFlags;

} // namespace corogpu::cororun

//===----------------------------------------------------------------------===//
// Which schedulers an option serves
//===----------------------------------------------------------------------===//

namespace {
/// A set of schedulers an option serves.
enum SchedulerSet : unsigned {
  kWavefront = 1,
  kPersistent = 2,
  kStateMachine = 4,
  /// The state machine with --state-machine-steps (a host loop of
  /// launches).
  kBoundedStateMachine = 8,
  /// Every scheduler with a host loop: the limits of those loops.
  kHostLoops = kWavefront | kPersistent | kBoundedStateMachine,
};

/// One option that only some schedulers use.
struct OptionSchedulers {
  StringRef name;
  unsigned schedulers;
  /// Whether --tune passes the option on to the configurations of those
  /// schedulers (an option of a host loop that --tune does not vary);
  /// --tune refuses the others, as it picks them itself.
  bool passedByTune = false;
};
} // namespace

/// The options that serve only some schedulers, compile-time and run-time
/// ones alike; an option not listed serves them all.
static const OptionSchedulers kOptionSchedulers[] = {
    // Compile time (compileFlags).
    // Both materialize frames as arrays (a single launch cannot be
    // interrupted).
    {"layout", kWavefront | kPersistent},
    {"sort-by", kWavefront},
    {"hint-buckets", kWavefront},
    {"wavefront-design", kWavefront},
    {"wavefront-grid-stride", kWavefront},
    {"wavefront-workgroup-size", kWavefront},
    {"wavefront-subgroup-appends", kWavefront},
    {"wavefront-tail-below", kWavefront},
    {"state-machine-steps", kStateMachine},
    // The schedulers that dispatch over the subroutines in one kernel.
    {"fall-through", kStateMachine | kPersistent},
    {"persistent-workgroup-size", kPersistent},
    {"persistent-batch", kPersistent},
    {"persistent-shared-memory", kPersistent},
    {"persistent-swap-frames", kPersistent},
    {"persistent-steps", kPersistent},
    // Run time: the host loops.
    {"wavefront-stride-workgroups", kWavefront},
    {"capacity", kWavefront, /*passedByTune=*/true},
    {"refill", kWavefront, /*passedByTune=*/true},
    {"order", kWavefront, /*passedByTune=*/true},
    {"compact-below", kWavefront},
    {"rounds-per-check", kWavefront, /*passedByTune=*/true},
    {"replay-rounds", kWavefront, /*passedByTune=*/true},
    {"persistent-threads", kPersistent, /*passedByTune=*/true},
    {"persistent-batches-per-launch", kPersistent, /*passedByTune=*/true},
    {"max-rounds", kHostLoops, /*passedByTune=*/true},
    {"time-limit", kHostLoops, /*passedByTune=*/true},
};

/// The row of option `name`, or null when every scheduler takes it.
static const OptionSchedulers *lookupOptionSchedulers(StringRef name) {
  for (const OptionSchedulers &row : kOptionSchedulers)
    if (row.name == name)
      return &row;
  return nullptr;
}

/// Whether `schedulers` include the one this run uses.
static bool servesChosenScheduler(unsigned schedulers) {
  switch (scheduler) {
  case coro::GPUScheduler::Wavefront:
    return schedulers & kWavefront;
  case coro::GPUScheduler::Persistent:
    return schedulers & kPersistent;
  case coro::GPUScheduler::StateMachine:
    // Bounded steps given, or left to the device (bound where it limits
    // loops, as lavapipe does).
    return (schedulers & kStateMachine) ||
           ((schedulers & kBoundedStateMachine) &&
            (compileFlags.stateMachineSteps > 0 ||
             !compileFlags.stateMachineSteps.hasValue()));
  default:
    return false;
  }
}

/// "wavefront and persistent schedulers", "state-machine scheduler", ...:
/// `schedulers` in words.
static std::string describeSchedulers(unsigned schedulers) {
  SmallVector<StringRef, 3> names;
  if (schedulers & kWavefront)
    names.push_back("wavefront");
  if (schedulers & kStateMachine)
    names.push_back("state-machine");
  bool plural = llvm::popcount(schedulers &
                               (kWavefront | kPersistent | kStateMachine)) > 1;
  if (schedulers & kPersistent)
    names.push_back(plural ? "persistent" : "persistent-threads");
  std::string words = llvm::join(names, " and ");
  words += plural ? " schedulers" : " scheduler";
  if (schedulers & kBoundedStateMachine)
    words += " and of the state machine in bounded steps "
             "(--state-machine-steps=N, the default on a device that limits "
             "loops)";
  return words;
}

/// The help section of one of compileFlags: that of the first of the
/// wavefront, persistent and state-machine schedulers it serves (one
/// section each, or --help lists an option twice; the sections' titles name
/// the options another scheduler shares), coro-run's own for the options of
/// every scheduler.
static void categorizeCompileFlag(llvm::cl::Option &option) {
  const OptionSchedulers *row = lookupOptionSchedulers(option.ArgStr);
  if (!row)
    option.addCategory(coroRunCategory);
  else if (row->schedulers & kWavefront)
    option.addCategory(wavefrontCategory);
  else if (row->schedulers & kPersistent)
    option.addCategory(persistentCategory);
  else
    option.addCategory(stateMachineCategory);
}

TunePassesTo corogpu::cororun::getTunePassedOption(StringRef name) {
  const OptionSchedulers *row = lookupOptionSchedulers(name);
  if (!row || !row->passedByTune)
    return TunePassesTo::None;
  if (row->schedulers == kWavefront)
    return TunePassesTo::Wavefront;
  if (row->schedulers == kPersistent)
    return TunePassesTo::Persistent;
  return TunePassesTo::HostLoops;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

ExitCode corogpu::cororun::getExitCode(const rt::Status &status) {
  switch (status.code) {
  case rt::StatusCode::Ok:
    return kExitSuccess;
  case rt::StatusCode::InvalidInput:
    return kExitUsage;
  case rt::StatusCode::LimitExceeded:
    return kExitLimit;
  case rt::StatusCode::DeviceError:
    break;
  }
  return kExitDevice;
}

ExitCode corogpu::cororun::fail(const llvm::Twine &message, ExitCode code) {
  llvm::errs() << "coro-run: error: " << message << "\n";
  return code;
}

/// The values of the options every scheduler takes.
static std::string checkGeneralOptions() {
  if (tolerance < 0)
    return "--tolerance must not be negative";
  if (!(pngExposure > 0) || !std::isfinite(pngExposure))
    return "--png-exposure must be a positive number";
  if (!(timeLimit >= 0))
    return "--time-limit must not be negative (or NaN)";
  return {};
}

/// An error for an option that has no effect on this run (a scheduler's
/// option given to another scheduler) or a value out of range.
static std::string checkOptionsApply() {
  std::string chosen = coro::getGPUSchedulerName(scheduler).str();
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    if (!option->getNumOccurrences())
      continue;
    const OptionSchedulers *row = lookupOptionSchedulers(name);
    if (row && !servesChosenScheduler(row->schedulers))
      return ("--" + name + " is an option of the " +
              describeSchedulers(row->schedulers) + "; --scheduler=" + chosen +
              " does not use it")
          .str();
  }
  if (wavefrontStrideWorkgroups.getNumOccurrences() &&
      !compileFlags.wavefrontGridStride && backend != Backend::CUDA)
    return "--wavefront-stride-workgroups sizes grid-stride kernels: add "
           "--wavefront-grid-stride (CUDA kernels always stride)";
  if (compileFlags.stateMachineSteps > 0 && !compileFlags.terminationChecks)
    return "--state-machine-steps needs --termination-checks: the host "
           "relaunches until every instance returned";
  if (compileFlags.stateMachineSteps < 0 ||
      compileFlags.stateMachineSteps > INT32_MAX)
    return "--state-machine-steps must be in [0, 2^31)";
  return checkGeneralOptions();
}

/// An error for an option --tune picks itself, or that a run under it
/// cannot take.
static std::string checkTuneOptions() {
  static const llvm::StringSet<> chosen = {
      "scheduler", "layout",  "scheduler-stats", "check", "repeat",
      "emit",      "emit-to", "output-dir",      "printf"};
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    if (!option->getNumOccurrences())
      continue;
    const OptionSchedulers *row = lookupOptionSchedulers(name);
    if (row && row->passedByTune)
      continue;
    if (row || chosen.contains(name))
      return ("--" + name +
              " cannot be combined with --tune, which runs every scheduler "
              "with its own options and checks each against the mega-kernel")
          .str();
  }
  if (tuneRepeat == 0)
    return "--tune-repeat must be at least 1";
  if (inputFilename == "-")
    return "--tune needs the input in a file (each configuration runs in a "
           "coro-run of its own, and reads it again)";
  return checkGeneralOptions();
}

std::string corogpu::cororun::checkCommandLine() {
  if (std::string error = tune ? checkTuneOptions() : checkOptionsApply();
      !error.empty())
    return error;
  if (std::string error = compileFlags.checkValues(); !error.empty())
    return "--" + error;
  return {};
}

bool corogpu::cororun::parseCommandLine(int argc, char **argv) {
  llvm::cl::SetVersionPrinter(coro::printCoroGPUVersion);
  compileFlags.addToCommandLine(categorizeCompileFlag);
  // libLLVM registers hundreds of options; --help shows coro-run's.
  llvm::cl::HideUnrelatedOptions({&coroRunCategory, &stateMachineCategory,
                                  &wavefrontCategory, &persistentCategory,
                                  &tuneCategory});
  return llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "coro-run: run a coro.func from a .mlir file\n\n"
      "Exit codes: 0 success; 1 --check found a mismatch; 2 bad command "
      "line or input (options, files, arguments, buffers, IR that does "
      "not parse or verify); 3 the coroutine did not compile (its "
      "SPIR-V failed validation included); 4 the device or the runtime "
      "failed; 5 a limit (--max-rounds, --time-limit, the device's loop "
      "limit) stopped the run before every instance returned; 6 "
      "--check-bounds found an access out of bounds\n",
      &llvm::errs());
}

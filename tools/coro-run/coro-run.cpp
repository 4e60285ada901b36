//===- coro-run.cpp - run a coroutine from a .mlir file -------------------===//
//
// Part of the CoroGPU project.
//
// Compiles one coro.func of a module with a scheduler, runs it on a device
// over a grid with the given arguments and buffers, and prints the buffers.
// With --check it also runs the mega-kernel reference (--check=cpu: a run
// on the CPU apart from the split, CPUReference.h) and compares every
// buffer. Example:
//
//   coro-run shade.mlir --coro=shade --grid=64 --arg=4 --buffer=f32:64:zeros \
//       --scheduler=state-machine --check
//
// The tool is the command line over the Runner library (CoroGPU/Runner:
// compile, buffers and their files, kernel arguments, the run, reports),
// which embedders call to run coroutines from C++; --tune (Tune.cpp) runs
// this tool once per configuration.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Pipelines/Pipelines.h"
#include "CoroGPU/Runner/BufferIO.h"
#include "CoroGPU/Runner/CPUReference.h"
#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Runner/CompilePolicy.h"
#include "CoroGPU/Runner/GridChecks.h"
#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Runner/Report.h"
#include "CoroGPU/Runner/Run.h"
#include "CoroGPU/Target/Passes.h"
#include "CoroGPU/Transforms/Passes.h"
#include "CoroGPU/Version.h"
#include "corogpu/runtime/Device.h"

#include "Tune.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
namespace rt = corogpu::runtime;
namespace runner = mlir::coro::runner;
using mlir::coro::KernelTarget;

/// "; did you mean 'x'?" for the name in `candidates` nearest to `wrong`,
/// when one is near enough to be a misspelling; empty otherwise.
static std::string suggestName(StringRef wrong,
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

namespace {
/// The parser of coro-run's enum options: a value it does not know is an
/// error that lists the values and suggests the nearest, instead of LLVM's
/// "Cannot find option named".
template <typename T, typename Base = llvm::cl::parser<T>>
class SuggestingParser : public Base {
public:
  using Base::Base;

  bool parse(llvm::cl::Option &option, StringRef argName, StringRef arg,
             T &value) {
    SmallVector<StringRef> names;
    for (unsigned i = 0, e = this->getNumOptions(); i != e; ++i)
      names.push_back(this->getOption(i));
    if (llvm::is_contained(names, arg))
      return Base::parse(option, argName, arg, value);
    // (--check's value-less spelling is the empty name.)
    auto spelled = llvm::make_filter_range(
        names, [](StringRef name) { return !name.empty(); });
    return option.error("'" + arg + "' is not one of " +
                        llvm::join(spelled, ", ") + suggestName(arg, names));
  }
};
} // namespace

static llvm::cl::OptionCategory
    coroRunCategory("coro-run options (see also the scheduler options)");

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<input.mlir>"),
                                                llvm::cl::Required,
                                                llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool>
    listCoroutines("list",
                   llvm::cl::desc("Describe every coroutine of the module: "
                                  "signature, suspension points, promises"),
                   llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    coroutineName("coro",
                  llvm::cl::desc("Name of the coroutine to run, with or "
                                 "without its '@' (default: the module's "
                                 "only coro.func)"),
                  llvm::cl::value_desc("symbol"),
                  llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    gridSpec("grid",
             llvm::cl::desc("Grid of instances, one per element: X, XxY or "
                            "XxYxZ (also X,Y,Z); required to run"),
             llvm::cl::value_desc("extents"), llvm::cl::cat(coroRunCategory));
static llvm::cl::list<std::string>
    scalarArgs("arg",
               llvm::cl::desc("Value of the next scalar argument, in order "
                              "(a vector's elements comma-separated)"),
               llvm::cl::cat(coroRunCategory));
static llvm::cl::list<std::string> bufferSpecs(
    "buffer",
    llvm::cl::desc(
        "The next memref argument, in order: TYPE:COUNT:INIT with "
        "TYPE f16|f32|f64|i32|i64, INIT zeros|iota|const=V|random=SEED|"
        "file=PATH (raw little-endian elements)|npy=PATH (a NumPy "
        ".npy file of that dtype and COUNT elements)"),
    llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<coro::GPUScheduler, false,
                     SuggestingParser<coro::GPUScheduler>>
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
static llvm::cl::opt<unsigned> wavefrontStrideWorkgroups(
    "wavefront-stride-workgroups",
    llvm::cl::desc("Grid-stride kernels (--wavefront-grid-stride, always "
                   "on CUDA): workgroups of each subroutine kernel (0: enough "
                   "to fill the device; on lavapipe, which limits each "
                   "thread's loop passes, a thread per slot)"),
    llvm::cl::init(0), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<uint64_t>
    capacity("capacity",
             llvm::cl::desc("Instance slots (0: from device memory, at most "
                            "2^24 and the grid)"),
             llvm::cl::init(0), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<rt::RefillPolicy, false,
                     SuggestingParser<rt::RefillPolicy>>
    refill("refill", llvm::cl::desc("When free slots take new instances"),
           llvm::cl::init(rt::RefillPolicy::EveryRound),
           llvm::cl::values(clEnumValN(rt::RefillPolicy::EveryRound, "always",
                                       "every round"),
                            clEnumValN(rt::RefillPolicy::BelowHalf, "half",
                                       "when fewer than half of the slots are "
                                       "alive (Cycles)")),
           llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<rt::LaunchOrder, false, SuggestingParser<rt::LaunchOrder>>
    order("order", llvm::cl::desc("Which subroutines run each round"),
          llvm::cl::init(rt::LaunchOrder::Fixed),
          llvm::cl::values(clEnumValN(rt::LaunchOrder::Fixed, "fixed",
                                      "every non-empty queue, in token order"),
                           clEnumValN(rt::LaunchOrder::MostFirst, "most-first",
                                      "only the subroutine most instances need "
                                      "next (Cycles)")),
          llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<unsigned> compactBelow(
    "compact-below",
    llvm::cl::desc("Compact the frames once the grid is exhausted and fewer "
                   "than this % of the active slots are alive (0: off)"),
    llvm::cl::init(0), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<unsigned> roundsPerCheck(
    "rounds-per-check",
    llvm::cl::desc("Rounds per submission; the host checks the GPU-written "
                   "termination flag after each"),
    llvm::cl::init(8), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<bool>
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
static llvm::cl::opt<uint64_t> persistentThreads(
    "persistent-threads",
    llvm::cl::desc("Resident threads (0: 2^15, never more workgroups than "
                   "the grid's batches)"),
    llvm::cl::init(0), llvm::cl::cat(persistentCategory));
static llvm::cl::opt<int> persistentBatchesPerLaunch(
    "persistent-batches-per-launch",
    llvm::cl::desc("Batches a workgroup takes per launch, the kernel being "
                   "launched again until the grid is done (0: no limit; "
                   "default -1: 1 on lavapipe, whose threads end their loops "
                   "after 65535 iterations in all, else no limit)"),
    llvm::cl::init(-1), llvm::cl::cat(persistentCategory));
static llvm::cl::opt<uint64_t> maxRounds(
    "max-rounds",
    llvm::cl::desc("Give up, with exit code 5, after this many wavefront "
                   "rounds, persistent-threads launches or state-machine "
                   "launches with --state-machine-steps (0: no limit; "
                   "default: 2^20 rounds or launches)"),
    llvm::cl::init(~uint64_t(0)), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<double> timeLimit(
    "time-limit",
    llvm::cl::desc("Give up, with exit code 5, once the host loop of the "
                   "wavefront, persistent-threads or bounded-steps "
                   "state-machine scheduler has run this many seconds (0: no "
                   "limit; checked between submissions, so that a coroutine "
                   "whose instances never return does not run unnoticed)"),
    llvm::cl::init(300), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool> checkBounds(
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
namespace {
/// The device APIs coro-run drives.
enum class Backend { Vulkan, CUDA };
} // namespace
static llvm::cl::opt<Backend, false, SuggestingParser<Backend>> backend(
    "backend", llvm::cl::desc("Device backend"),
    llvm::cl::init(Backend::Vulkan),
    llvm::cl::values(clEnumValN(Backend::Vulkan, "vulkan",
                                "any Vulkan 1.2 device, lavapipe included"),
                     clEnumValN(Backend::CUDA, "cuda", "NVIDIA driver")),
    llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    deviceName("device",
               llvm::cl::desc("Vulkan device whose name contains "
                              "this text (default: the first)"),
               llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool> printKernels(
    "printf",
    llvm::cl::desc("Show what the kernels print (gpu.printf; each line "
                   "prefixed with its instance and the suspension point it "
                   "resumed at; on stderr with --json): on Vulkan through "
                   "the Khronos validation layer's debug printf, which this "
                   "loads; CUDA prints always"),
    llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool>
    validation("validate",
               llvm::cl::desc("Enable the Khronos Vulkan validation layer; "
                              "any message is an error"),
               llvm::cl::cat(coroRunCategory));
/// What --check compares the run with.
enum class CheckReference { None, Megakernel, CPU };
static llvm::cl::opt<CheckReference, false, SuggestingParser<CheckReference>>
    check(
        "check",
        llvm::cl::desc("Also run a reference and compare every buffer (exit "
                       "code 1 on mismatch)"),
        llvm::cl::ValueOptional, llvm::cl::init(CheckReference::None),
        llvm::cl::values(
            clEnumValN(CheckReference::Megakernel, "",
                       "--check: the mega-kernel on the same device"),
            clEnumValN(
                CheckReference::Megakernel, "megakernel",
                "the mega-kernel on the same device: the same front half "
                "(inlining, yields, handles), suspensions erased; shows "
                "what the split and the scheduler change"),
            clEnumValN(CheckReference::CPU, "cpu",
                       "every instance run to completion on the CPU (JIT), "
                       "through none of the passes the schedulers' code takes; "
                       "also shows bugs of the front half, but cannot run "
                       "handles")),
        llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<double> tolerance(
    "tolerance",
    llvm::cl::desc("Largest relative difference accepted between floats "
                   "with --check (integers must be equal)"),
    llvm::cl::init(1e-5), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool> timing("timing",
                                  llvm::cl::desc("Print the time of each "
                                                 "phase"),
                                  llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<unsigned>
    repeat("repeat",
           llvm::cl::desc("Run the scheduler this many times (compiled "
                          "kernels kept) and report the run with the median "
                          "GPU time"),
           llvm::cl::init(1), llvm::cl::cat(coroRunCategory));
static llvm::cl::OptionCategory
    tuneCategory("Picking a scheduler (--tune; the other options are the "
                 "run's: file, coroutine, grid, arguments, buffers, device)");
static llvm::cl::opt<bool>
    tune("tune",
         llvm::cl::desc("Run the coroutine under every scheduler and its "
                        "main options (layout, workgroup size, compaction, "
                        "sort key, batch, workgroup memory), each --check'ed "
                        "against the mega-kernel, and print them ranked by "
                        "median GPU time (--json: as JSON)"),
         llvm::cl::cat(tuneCategory));
static llvm::cl::opt<unsigned>
    tuneRepeat("tune-repeat",
               llvm::cl::desc("Runs per configuration (their median counts)"),
               llvm::cl::init(5), llvm::cl::cat(tuneCategory));
static llvm::cl::opt<std::string>
    tuneJson("tune-json",
             llvm::cl::desc("Also write the ranked results as JSON to this "
                            "file"),
             llvm::cl::value_desc("file"), llvm::cl::cat(tuneCategory));
static llvm::cl::opt<unsigned> tuneTimeout(
    "tune-timeout",
    llvm::cl::desc("Seconds one configuration may take (its runs and "
                   "checks) before it is stopped and reported, as a limit "
                   "(exit code 5); 0: no limit"),
    llvm::cl::init(600), llvm::cl::cat(tuneCategory));
static llvm::cl::opt<bool>
    quiet("quiet",
          llvm::cl::desc("Do not print the buffers (with --json: leave them "
                         "out of the JSON)"),
          llvm::cl::cat(coroRunCategory));

namespace {
enum class EmitKind { None, MLIR, SPIRV, PTX };
} // namespace
static llvm::cl::opt<EmitKind, false, SuggestingParser<EmitKind>> emit(
    "emit", llvm::cl::desc("Write the generated code instead of running it"),
    llvm::cl::init(EmitKind::None),
    llvm::cl::values(
        clEnumValN(EmitKind::MLIR, "mlir",
                   "the module after the scheduler and the SPIR-V lowering"),
        clEnumValN(EmitKind::SPIRV, "spirv", "the SPIR-V binary (--emit-to)"),
        clEnumValN(EmitKind::PTX, "ptx", "PTX text for --chip")),
    llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    emitTo("emit-to", llvm::cl::desc("File for --emit (default: stdout)"),
           llvm::cl::init("-"), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    chip("chip", llvm::cl::desc("Target GPU of --emit=ptx"),
         llvm::cl::init("sm_90"), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string> deviceTraits(
    "device-traits",
    llvm::cl::desc("The device --emit compiles for, as a run compiles for "
                   "the device it runs on: gpu (a GPU, whose subgroup size "
                   "may vary), cpu:N (a CPU device with subgroups of N lanes; "
                   "lavapipe is cpu:8) or native (the device a run would "
                   "use)"),
    llvm::cl::init("gpu"), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool>
    json("json", llvm::cl::desc("Print the results as one JSON object"),
         llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool> printOpOnDiagnostic(
    "print-op-on-diagnostic",
    llvm::cl::desc("Print the whole operation an error is about (generic "
                   "form) after the error, for debugging the compiler"),
    llvm::cl::init(false), llvm::cl::cat(coroRunCategory));
static llvm::cl::list<std::string> pngSpecs(
    "png",
    llvm::cl::desc("Also write buffer I as a PNG image: "
                   "I:WIDTHxHEIGHT:CHANNELS:PATH, CHANNELS 1 (gray) or 3 "
                   "(RGB), rows top first, the whole buffer; each float "
                   "times --png-exposure, clamped to [0, 1], gamma 1/2.2, 8 "
                   "bits (NaN is black); integers scaled from the smallest "
                   "value (black) to the largest (white)"),
    llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<double>
    pngExposure("png-exposure",
                llvm::cl::desc("Factor of every value --png writes"),
                llvm::cl::init(1.0), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string> outputDir(
    "output-dir",
    llvm::cl::desc("Also write each buffer as buffer<i>.bin (raw "
                   "little-endian) and buffer<i>.npy into this directory; "
                   "the .npy has the grid's shape (64x64: (64, 64)), with "
                   "the elements of each instance last when the buffer "
                   "holds several ((64, 64, 3))"),
    llvm::cl::cat(coroRunCategory));

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
static ExitCode getExitCode(const rt::Status &status) {
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

/// The schedulers' compile-time options (--layout, --sort-by, ...,
/// --termination-checks, --profile-lanes): declared once, with the
/// pipelines' (coro::SchedulerOptions), and put on the command line in main.
static coro::SchedulerPipelineOptions compileFlags;

/// The help categories of one of compileFlags, which also say which
/// schedulers it serves (checkOptionsApply).
static void categorizeCompileFlag(llvm::cl::Option &option) {
  StringRef name = option.ArgStr;
  if (name == "layout" || name == "sort-by" || name == "hint-buckets" ||
      name.starts_with("wavefront-"))
    option.addCategory(wavefrontCategory);
  // One category each, or --help lists an option twice; the categories'
  // titles name the options another scheduler shares.
  if (name == "state-machine-steps")
    option.addCategory(stateMachineCategory);
  if (name == "fall-through" || name.starts_with("persistent-"))
    option.addCategory(persistentCategory);
  if (name == "termination-checks" || name == "profile-lanes")
    option.addCategory(coroRunCategory);
}

/// An error for an option that has no effect on this run: a scheduler's
/// option given to another scheduler, a negative tolerance.
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

static std::string checkOptionsApply() {
  std::string chosen = coro::getGPUSchedulerName(scheduler).str();
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    if (!option->getNumOccurrences())
      continue;
    bool wavefront = llvm::is_contained(option->Categories, &wavefrontCategory);
    bool persistent =
        llvm::is_contained(option->Categories, &persistentCategory);
    bool stateMachine =
        llvm::is_contained(option->Categories, &stateMachineCategory);
    // These serve both (a single launch cannot be interrupted).
    bool both = name == "layout";
    // The limits of the host loops.
    bool limits = name == "max-rounds" || name == "time-limit";
    // The schedulers that dispatch over the subroutines in one kernel.
    bool dispatching = name == "fall-through";
    bool applies =
        both ? scheduler == coro::GPUScheduler::Wavefront ||
                   scheduler == coro::GPUScheduler::Persistent
        : dispatching ? scheduler == coro::GPUScheduler::StateMachine ||
                            scheduler == coro::GPUScheduler::Persistent
        : limits ? scheduler == coro::GPUScheduler::Wavefront ||
                       scheduler == coro::GPUScheduler::Persistent ||
                       (scheduler == coro::GPUScheduler::StateMachine &&
                        compileFlags.stateMachineSteps > 0)
        : wavefront    ? scheduler == coro::GPUScheduler::Wavefront
        : persistent   ? scheduler == coro::GPUScheduler::Persistent
        : stateMachine ? scheduler == coro::GPUScheduler::StateMachine
                       : true;
    if (!applies)
      return ("--" + name + " is an option of the " +
              (both          ? "wavefront and persistent schedulers"
               : dispatching ? "state-machine and persistent schedulers"
               : limits      ? "wavefront and persistent schedulers and of the "
                               "state machine with --state-machine-steps"
               : wavefront   ? "wavefront scheduler"
               : stateMachine ? "state-machine scheduler"
                              : "persistent-threads scheduler") +
              "; --scheduler=" + chosen + " does not use it")
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

/// Prints a one-line error and returns `code`.
static int fail(const llvm::Twine &message, ExitCode code) {
  llvm::errs() << "coro-run: error: " << message << "\n";
  return code;
}

//===----------------------------------------------------------------------===//
// --list
//===----------------------------------------------------------------------===//

/// Prints one line per coroutine: name, signature, suspension points and
/// promise fields, in program order.
static void describeCoroutine(coro::FuncOp coroutine, llvm::raw_ostream &os) {
  os << "@" << coroutine.getSymName() << " : " << coroutine.getFunctionType();
  if (std::optional<Type> yieldType = coroutine.getYieldType())
    os << " yields " << *yieldType;
  unsigned anonymous = 0;
  SmallVector<std::string> suspensions;
  llvm::SetVector<StringRef> promises;
  coroutine.walk([&](Operation *op) {
    if (auto suspend = dyn_cast<coro::SuspendOp>(op)) {
      if (std::optional<StringRef> tag = suspend.getTag())
        suspensions.push_back(("\"" + *tag + "\"").str());
      else
        ++anonymous;
    } else if (auto await = dyn_cast<coro::AwaitOp>(op)) {
      suspensions.push_back(("await @" + await.getCallee()).str());
    } else if (isa<coro::YieldOp>(op)) {
      suspensions.push_back("yield");
    } else if (auto promise = dyn_cast<coro::PromiseOp>(op)) {
      promises.insert(promise.getName());
    }
  });
  os << "\n  suspension points: " << suspensions.size() + anonymous;
  if (anonymous)
    os << " (" << anonymous << " anonymous)";
  for (const std::string &point : suspensions)
    os << " " << point;
  os << "\n  promise fields:";
  for (StringRef name : promises)
    os << " \"" << name << "\"";
  os << "\n";
}

//===----------------------------------------------------------------------===//
// What to run: the coroutine, its sort key, the grid
//===----------------------------------------------------------------------===//

/// The coroutine --coro names (its '@' optional), or else the module's
/// only coroutine that no other one awaits, drives or iterates over;
/// prints why not (with the nearest name) and fails otherwise.
static FailureOr<coro::FuncOp> findCoroutine(ModuleOp module) {
  SmallVector<StringRef> names;
  llvm::StringSet<> used;
  for (auto coroutine : module.getOps<coro::FuncOp>()) {
    names.push_back(coroutine.getSymName());
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(coroutine))
      for (const SymbolTable::SymbolUse &use : *uses)
        used.insert(use.getSymbolRef().getRootReference().getValue());
  }
  std::string name = StringRef(coroutineName).ltrim('@').str();
  if (name.empty()) {
    SmallVector<coro::FuncOp> entries;
    for (auto coroutine : module.getOps<coro::FuncOp>())
      if (!used.contains(coroutine.getSymName()))
        entries.push_back(coroutine);
    if (entries.size() == 1) {
      coroutineName = entries.front().getSymName().str();
      return entries.front();
    }
    if (names.empty())
      fail(inputFilename + " has no coro.func to run", kExitUsage);
    else
      fail(inputFilename + " has " + llvm::Twine(names.size()) +
               " coroutines: name the one to run with --coro (" +
               llvm::join(names, ", ") + "; --list describes them)",
           kExitUsage);
    return failure();
  }
  coroutineName = name;
  if (auto coroutine = module.lookupSymbol<coro::FuncOp>(name))
    return coroutine;
  fail("no coro.func @" + name + " in " + inputFilename +
           suggestName(name, names) + " (--list describes them)",
       kExitUsage);
  return failure();
}

/// Why --sort-by cannot order any queue (no coroutine of the module has an
/// integer promise of that name), or empty: a usage error before any pass
/// runs. A key that only another coroutine has (not the one run, nor those
/// it awaits, drives or iterates over) sorts nothing: a warning.
static std::string checkSortKey(coro::FuncOp coroutine) {
  if (!compileFlags.sortBy.hasValue() || compileFlags.sortBy.empty())
    return {};
  StringRef key = compileFlags.sortBy;
  auto isKeyType = [](Type type) {
    return type.isIndex() || type.isSignlessInteger();
  };
  // The integer promises of `function` (a generator's yields included), and
  // the type of `key` there if it has one of another type.
  auto collect = [&](coro::FuncOp function, llvm::SetVector<StringRef> &keys,
                     std::optional<Type> &keyType) {
    function.walk([&](coro::PromiseOp promise) {
      Type type = promise.getValue().getType();
      if (isKeyType(type))
        keys.insert(promise.getName());
      else if (promise.getName() == key)
        keyType = type;
    });
    if (std::optional<Type> yielded = function.getYieldType()) {
      if (isKeyType(*yielded))
        keys.insert(coro::kYieldedValueField);
      else if (key == coro::kYieldedValueField)
        keyType = *yielded;
    }
  };
  auto module = coroutine->getParentOfType<ModuleOp>();
  llvm::SetVector<coro::FuncOp> reached;
  reached.insert(coroutine);
  for (size_t i = 0; i < reached.size(); ++i)
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(reached[i]))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = module.lookupSymbol<coro::FuncOp>(
                use.getSymbolRef().getRootReference()))
          reached.insert(callee);
  llvm::SetVector<StringRef> keys, moduleKeys;
  std::optional<Type> keyType, moduleKeyType;
  for (coro::FuncOp function : reached)
    collect(function, keys, keyType);
  if (keys.contains(key))
    return {};
  for (auto function : module.getOps<coro::FuncOp>())
    collect(function, moduleKeys, moduleKeyType);
  if (moduleKeys.contains(key)) {
    llvm::errs() << "coro-run: warning: --sort-by: @" << coroutine.getSymName()
                 << (keyType
                         ? " has promise \"" + key.str() + "\" only as " +
                               llvm::formatv("{0}", *keyType).str()
                         : " and the coroutines it uses have no promise \"" +
                               key.str() + "\"")
                 << " (another coroutine of the module has it): its queues "
                    "stay unsorted\n";
    return {};
  }
  if (keyType || moduleKeyType)
    return ("--sort-by: promise \"" + key + "\" holds " +
            llvm::formatv("{0}", keyType ? *keyType : *moduleKeyType).str() +
            "; the queues sort by an integer or index promise")
        .str();
  return ("--sort-by: @" + coroutine.getSymName() +
          " has no integer promise named \"" + key + "\"" +
          suggestName(key, keys.getArrayRef()) +
          (keys.empty()
               ? " (it has none)"
               : " (integer promises: " + llvm::join(keys, ", ") + ")"))
      .str();
}

/// The grid of --grid ("64", "64x64", "4x4x4" or "64,64"); prints why not
/// and fails when it is missing or malformed.
static FailureOr<std::array<uint32_t, 3>> parseGrid() {
  if (gridSpec.empty()) {
    fail("--grid is required: the instances to run, one per element, e.g. "
         "--grid=64 or --grid=64x64 (a 64x64 image)",
         kExitUsage);
    return failure();
  }
  std::array<uint32_t, 3> grid = {1, 1, 1};
  SmallVector<StringRef, 3> extents;
  StringRef(gridSpec).split(extents,
                            StringRef(gridSpec).contains('x') ? 'x' : ',');
  if (extents.size() > 3) {
    fail("--grid has more than 3 dimensions: '" + gridSpec + "'", kExitUsage);
    return failure();
  }
  for (auto [i, text] : llvm::enumerate(extents)) {
    uint64_t extent = 0;
    if (text.trim().getAsInteger(10, extent) || extent == 0) {
      fail("--grid: '" + text +
               "' is not a positive integer (the grid is X, "
               "XxY or XxYxZ)",
           kExitUsage);
      return failure();
    }
    if (extent > UINT32_MAX) {
      fail("--grid: '" + text + "' is larger than 2^32 - 1", kExitUsage);
      return failure();
    }
    grid[i] = extent;
  }
  // Instance ids (coro.id) are 32-bit on SPIR-V targets.
  if (rt::countInstances(grid) > uint64_t(INT32_MAX)) {
    fail("--grid: '" + gridSpec +
             "' has more than 2^31 - 1 instances (instance ids are 32-bit "
             "integers in the kernels)",
         kExitUsage);
    return failure();
  }
  return grid;
}

/// Fails, with an error at the access, when the grid has more instances
/// than a buffer the coroutine indexes by its instance id holds; warns of
/// the buffers it writes at indices computed otherwise from the id that are
/// smaller than the grid (only --check-bounds can tell whether those are
/// overrun). `buffers` are the user's, one per memref argument in order.
static LogicalResult
checkGridFitsBuffers(coro::FuncOp coroutine, uint64_t instances,
                     ArrayRef<runner::HostBuffer> buffers) {
  // The buffer of each memref argument.
  llvm::DenseMap<unsigned, const runner::HostBuffer *> bufferOf;
  unsigned next = 0;
  for (auto [index, type] : llvm::enumerate(coroutine.getArgumentTypes()))
    if (isa<MemRefType>(type) && next < buffers.size())
      bufferOf[index] = &buffers[next++];
  for (const runner::InstanceIndexedAccess &access :
       runner::findInstanceIndexedAccesses(coroutine)) {
    const runner::HostBuffer *buffer = bufferOf.lookup(access.argument);
    if (!buffer || instances + access.width - 1 <= buffer->count)
      continue;
    access.access->emitError()
        << "--grid=" << gridSpec << " runs " << instances
        << " instances, but this access indexes argument #" << access.argument
        << " by the instance id and its buffer holds " << buffer->count
        << " elements: instances "
        << (buffer->count >= uint64_t(access.width)
                ? buffer->count - access.width + 1
                : 0)
        << " and above would access it out of bounds (give a buffer of at "
           "least "
        << instances + access.width - 1 << " elements or a smaller grid)";
    return failure();
  }
  for (unsigned argument : runner::findInstanceDerivedWrites(coroutine)) {
    const runner::HostBuffer *buffer = bufferOf.lookup(argument);
    if (buffer && buffer->count < instances)
      llvm::errs() << "coro-run: warning: @" << coroutineName
                   << " writes argument #" << argument
                   << " at indices computed from the instance id, and its "
                      "buffer holds "
                   << buffer->count << " elements, fewer than the " << instances
                   << " instances: --check-bounds checks every access\n";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Compiling and running
//===----------------------------------------------------------------------===//

/// The schedulers' options for `device`: the library's policy
/// (runner::getDefaultCompileOptions), then what the command line sets.
static coro::SchedulerCompileOptions
getSchedulerCompileOptions(const runner::DeviceTraits &device) {
  coro::SchedulerCompileOptions options =
      runner::getDefaultCompileOptions(device);
  compileFlags.applyTo(options);
  // Subgroup appends only where the device allows them.
  options.wavefront.subgroupAppends =
      options.wavefront.subgroupAppends &&
      runner::allowsSubgroupAppends(device, options.wavefront.workgroupSize);
  bool needsClassify = compactBelow != 0 || order != rt::LaunchOrder::Fixed ||
                       refill != rt::RefillPolicy::EveryRound;
  if (options.wavefront.design == coro::WavefrontDesign::Auto && needsClassify)
    options.wavefront.design = coro::WavefrontDesign::Classify;
  // Not profiled: see the --profile-lanes check in main.
  if (compileFlags.profileLanes && !compileFlags.fallThrough.hasValue()) {
    options.persistent.fallThrough = false;
    options.stateMachine.fallThrough = false;
  }
  return options;
}

/// The device --emit compiles for (--device-traits), for `target`.
static FailureOr<runner::DeviceTraits>
getEmitDevice(const KernelTarget &target) {
  llvm::Expected<runner::DeviceTraits> device =
      runner::parseDeviceTraits(deviceTraits, target);
  if (!device) {
    fail("--device-traits: " + llvm::toString(device.takeError()), kExitUsage);
    return failure();
  }
  return *device;
}

/// --emit: writes the generated code of `module` to --emit-to.
static int emitCode(ModuleOp module) {
  if (emit == EmitKind::PTX && !coro::isNVVMChip(chip))
    return fail("--chip: '" + chip +
                    "' is not an NVIDIA architecture coro-run targets; use "
                    "sm_<major><minor>, e.g. sm_90 (sm_20 to sm_90, sm_100, "
                    "sm_101, sm_103, sm_110, sm_120, sm_121)",
                kExitUsage);
  FailureOr<runner::DeviceTraits> device =
      getEmitDevice(emit == EmitKind::PTX ? KernelTarget::getPTX(chip)
                                          : KernelTarget::getSPIRV());
  if (failed(device))
    return kExitUsage;
  std::string error;
  auto output = openOutputFile(emitTo, &error);
  if (!output)
    return fail(error, kExitUsage);
  if (emit == EmitKind::PTX) {
    std::string ptx;
    if (failed(runner::compileToPTX(module, coroutineName, scheduler, chip,
                                    getSchedulerCompileOptions(*device), ptx)))
      return fail("compiling to PTX failed (see above)", kExitCompile);
    output->os() << ptx;
  } else {
    std::vector<uint32_t> words;
    OwningOpRef<ModuleOp> lowered;
    if (failed(runner::compileToSPIRV(module, coroutineName, scheduler,
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

using Clock = std::chrono::steady_clock;
static double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// The host loops' options from the command line, for a run of `label` under
/// scheduler `kind` on `device`: progress on a terminal only, at most once a
/// second, the time of the last line shown in `lastProgress`.
static runner::RunOptions getRunOptions(rt::Device &device,
                                        coro::GPUScheduler kind,
                                        StringRef label, double &lastProgress) {
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
  // Each host loop keeps its own default round limit unless --max-rounds
  // is given (the mega-kernel, the state machine and the persistent
  // threads: 2^20 launches; the persistent kernel in bounded steps
  // relaunches as long as an instance is live).
  runner::RunOptions options;
  options.instanceKernel.limits.maxRounds = uint64_t(1) << 20;
  options.persistent.limits.maxRounds = uint64_t(1) << 20;
  for (rt::RunLimits *limits :
       {&options.wavefront.limits, &options.persistent.limits,
        &options.instanceKernel.limits}) {
    if (maxRounds != ~uint64_t(0))
      limits->maxRounds = maxRounds;
    limits->maxSeconds = timeLimit;
    limits->howToChange =
        "--time-limit=S sets the limit of seconds (default 300, 0: none), "
        "--max-rounds=N that of rounds or launches (default 2^20)";
  }

  options.wavefront.capacity = capacity;
  options.wavefront.refill = refill;
  options.wavefront.order = order;
  options.wavefront.compactBelowPercent = compactBelow;
  options.wavefront.roundsPerCheck = roundsPerCheck;
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
  if (kind == coro::GPUScheduler::StateMachine &&
      !compileFlags.stateMachineSteps && device.getLoopIterationLimit())
    options.instanceKernel.loopLimitAdvice =
        "; --state-machine-steps=N runs at most N passes of an "
        "instance's state machine per launch";
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
      getRunOptions(device, compiled.scheduler, label, lastProgress);
  rt::Status status = runner::runCoroutine(
      device, compiled, grid, argumentTypes, scalars, buffers, options, result);
  // A progress line, if one was shown, ends before what follows.
  if (lastProgress > 0)
    llvm::errs() << "\n";
  if (!status.ok())
    return static_cast<ExitCode>(
        fail(label + ": " + status.error, getExitCode(status)));
  const runner::RunTiming &timing = result.timing;
  if (::timing && !json)
    llvm::outs() << llvm::format(
        "%s: upload %.3f ms, run %.3f ms (GPU %.3f ms), download %.3f ms\n",
        label.str().c_str(), timing.upload, timing.run, timing.gpu,
        timing.download);
  return kExitSuccess;
}

//===----------------------------------------------------------------------===//
// --tune
//===----------------------------------------------------------------------===//

/// The options --tune picks itself, or that a run under it cannot take.
/// The options of the runtime's host loops (not of the kernels, and none that
/// --tune varies), which --tune passes to the configurations of the
/// schedulers they belong to: wavefront, persistent, or all host loops (the
/// limits, also of the state machine in bounded steps).
static const llvm::StringMap<llvm::StringRef> &getTuneRuntimeOptions() {
  static const llvm::StringMap<llvm::StringRef> options = {
      {"capacity", "wavefront"},
      {"refill", "wavefront"},
      {"order", "wavefront"},
      {"rounds-per-check", "wavefront"},
      {"persistent-threads", "persistent"},
      {"persistent-batches-per-launch", "persistent"},
      {"max-rounds", "limits"},
      {"time-limit", "limits"}};
  return options;
}

static std::string checkTuneOptions() {
  static const llvm::StringSet<> chosen = {
      "scheduler", "layout",  "scheduler-stats", "check", "repeat",
      "emit",      "emit-to", "output-dir",      "printf"};
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    if (!option->getNumOccurrences() || getTuneRuntimeOptions().contains(name))
      continue;
    bool schedulerOption =
        llvm::is_contained(option->Categories, &wavefrontCategory) ||
        llvm::is_contained(option->Categories, &persistentCategory) ||
        llvm::is_contained(option->Categories, &stateMachineCategory);
    if (schedulerOption || chosen.contains(name))
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

/// What --tune runs each configuration with: this binary, and the
/// command line less the options of --tune itself.
static corogpu::tune::TuneOptions getTuneOptions(int argc, char **argv,
                                                 coro::FuncOp coroutine) {
  corogpu::tune::TuneOptions options;
  options.executable = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&getTuneOptions));
  // Response files (@file) expanded: the configurations get the arguments
  // themselves, less those of --tune.
  SmallVector<const char *> arguments(argv + 1, argv + argc);
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::cl::ExpandResponseFiles(saver, llvm::cl::TokenizeGNUCommandLine,
                                arguments);
  for (size_t i = 0; i < arguments.size(); ++i) {
    StringRef argument = arguments[i];
    StringRef name = argument.ltrim('-').split('=').first;
    if (!argument.starts_with("-") ||
        (!name.starts_with("tune") && name != "json")) {
      options.runArguments.push_back(argument.str());
      continue;
    }
    // `--tune-json file`: its value is the next argument.
    if (!argument.contains('=') &&
        (name == "tune-json" || name == "tune-repeat" ||
         name == "tune-timeout"))
      ++i;
  }
  // The host loops' options go to the configurations they apply to.
  std::vector<std::string> userArguments = std::move(options.runArguments);
  options.runArguments.clear();
  for (size_t i = 0; i < userArguments.size(); ++i) {
    StringRef argument = userArguments[i];
    StringRef name = argument.ltrim('-').split('=').first;
    auto runtime = getTuneRuntimeOptions().find(name);
    if (!argument.starts_with("-") ||
        runtime == getTuneRuntimeOptions().end()) {
      options.runArguments.push_back(argument.str());
      continue;
    }
    std::string option = argument.str();
    if (!argument.contains('=') && i + 1 < userArguments.size())
      option += "=" + userArguments[++i];
    if (runtime->second == "wavefront")
      options.wavefrontArguments.push_back(option);
    else if (runtime->second == "persistent")
      options.persistentArguments.push_back(option);
    else
      options.limitArguments.push_back(option);
  }
  llvm::SetVector<StringRef> keys;
  coroutine.walk([&](coro::PromiseOp promise) {
    Type type = promise.getValue().getType();
    if (type.isIndex() || type.isSignlessInteger())
      keys.insert(promise.getName());
  });
  for (StringRef key : keys)
    options.sortKeys.push_back(key.str());
  options.repeat = tuneRepeat;
  options.timeoutSeconds = tuneTimeout;
  options.jsonPath = tuneJson;
  options.json = json;
  return options;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::SetVersionPrinter(coro::printCoroGPUVersion);
  compileFlags.addToCommandLine(categorizeCompileFlag);
  // libLLVM registers hundreds of options; --help shows coro-run's.
  llvm::cl::HideUnrelatedOptions({&coroRunCategory, &stateMachineCategory,
                                  &wavefrontCategory, &persistentCategory,
                                  &tuneCategory});
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "coro-run: run a coro.func from a .mlir file\n\n"
          "Exit codes: 0 success; 1 --check found a mismatch; 2 bad command "
          "line or input (options, files, arguments, buffers, IR that does "
          "not parse or verify); 3 the coroutine did not compile (its "
          "SPIR-V failed validation included); 4 the device or the runtime "
          "failed; 5 a limit (--max-rounds, --time-limit, the device's loop "
          "limit) stopped the run before every instance returned; 6 "
          "--check-bounds found an access out of bounds\n",
          &llvm::errs()))
    return kExitUsage;
  if (tune) {
    if (std::string error = checkTuneOptions(); !error.empty())
      return fail(error, kExitUsage);
  } else if (std::string error = checkOptionsApply(); !error.empty()) {
    return fail(error, kExitUsage);
  }
  if (std::string error = compileFlags.checkValues(); !error.empty())
    return fail("--" + error, kExitUsage);

  DialectRegistry registry;
  coro::registerCoroGPU(registry);
  MLIRContext context(registry);
  // An error names its source line; the op's generic form helps only
  // someone debugging the compiler.
  context.printOpOnDiagnostic(printOpOnDiagnostic);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file)
    return fail(errorMessage, kExitUsage);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  Clock::time_point start = Clock::now();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return kExitUsage; // The parser or verifier printed a located error.
  // --check=cpu: the module as written (--check-bounds instruments it).
  OwningOpRef<ModuleOp> source;
  if (check == CheckReference::CPU)
    source = module->clone();

  if (listCoroutines) {
    for (auto coroutine : module->getOps<coro::FuncOp>())
      describeCoroutine(coroutine, llvm::outs());
    return 0;
  }
  FailureOr<coro::FuncOp> chosen = findCoroutine(*module);
  if (failed(chosen))
    return kExitUsage;
  coro::FuncOp coroutine = *chosen;
  if (std::string error = checkSortKey(coroutine); !error.empty())
    return fail(error, kExitUsage);
  if (tune && compileFlags.profileLanes)
    return fail("--profile-lanes profiles one run; it does not go with --tune",
                kExitUsage);
  // The checks' own branches and frame state would be profiled as the
  // coroutine's, at its source lines.
  if (checkBounds && compileFlags.profileLanes)
    return fail("--profile-lanes does not go with --check-bounds, whose "
                "branches and frame state it would count as the coroutine's",
                kExitUsage);
  // A buffer coro-run cannot pass is the program's limit, reported at the
  // coroutine as host programs report it at the launch; --emit still
  // writes its kernels.
  if (emit == EmitKind::None)
    for (auto [index, type] : llvm::enumerate(coroutine.getArgumentTypes()))
      if (auto memref = dyn_cast<MemRefType>(type))
        if (std::string why = runner::checkBufferArgument(
                memref, backend == Backend::CUDA ? KernelTarget::getPTX(chip)
                                                 : KernelTarget::getSPIRV());
            !why.empty()) {
          coroutine.emitError() << "argument #" << index << ": " << why;
          return kExitCompile;
        }
  // The grid (--emit compiles for none).
  std::array<uint32_t, 3> grid = {1, 1, 1};
  if (emit == EmitKind::None) {
    FailureOr<std::array<uint32_t, 3>> parsedGrid = parseGrid();
    if (failed(parsedGrid))
      return kExitUsage;
    grid = *parsedGrid;
  }
  if (tune)
    return corogpu::tune::runTuner(getTuneOptions(argc, argv, coroutine));
  // --check-bounds: the coroutine gets its checks and one more argument, the
  // violation buffer, that coro-run passes after the user's.
  ArrayRef<Type> userArgumentTypes = coroutine.getArgumentTypes();
  FailureOr<coro::BoundsCheckAttr> prepared =
      runner::prepareToRun(*module, coroutine, checkBounds);
  if (failed(prepared))
    return fail("--check-bounds: instrumenting @" + coroutineName +
                    " failed (see above)",
                kExitCompile);
  coro::BoundsCheckAttr boundsCheck = *prepared;
  if (boundsCheck)
    userArgumentTypes = coroutine.getArgumentTypes().drop_back();
  if (emit != EmitKind::None)
    return emitCode(*module);
  if (deviceTraits.getNumOccurrences())
    return fail("--device-traits names the device --emit compiles for; a run "
                "compiles for the device it runs on",
                kExitUsage);
  // (Their code is still emitted: it compiles and validates.) Profiled
  // kernels that run several subroutines of an instance in one launch, with its
  // frame in registers or workgroup memory, hung on lavapipe for a random
  // program (coro-fuzz seed 3) even with no site instrumented, the profile
  // buffer an argument only: not understood yet, so refused rather than left to
  // hang.
  // (A fall-through pass may run several subroutines: profiled, the state
  // machine keeps the switch, see getSchedulerCompileOptions.)
  if (compileFlags.profileLanes &&
      (scheduler == coro::GPUScheduler::Persistent ||
       (scheduler == coro::GPUScheduler::StateMachine &&
        (compileFlags.stateMachineSteps != 1 || compileFlags.fallThrough))))
    return fail("--profile-lanes runs under the mega-kernel, the wavefront "
                "scheduler and the state machine with "
                "--state-machine-steps=1 (and without --fall-through): the "
                "persistent-threads scheduler and a state machine that runs "
                "several subroutines per launch hung when profiled (coro-fuzz "
                "seed 3, not understood yet)",
                kExitUsage);

  // Arguments, in order: scalars from --arg, memrefs from --buffer.
  std::vector<rt::KernelArg> scalars;
  std::vector<runner::HostBuffer> buffers;
  size_t numScalars = 0, numBuffers = 0;
  for (Type type : userArgumentTypes)
    isa<MemRefType>(type) ? ++numBuffers : ++numScalars;
  if (scalarArgs.size() != numScalars)
    return fail("@" + coroutineName + " takes " + llvm::Twine(numScalars) +
                    " scalar argument(s), " + llvm::Twine(scalarArgs.size()) +
                    " given with --arg",
                kExitUsage);
  if (bufferSpecs.size() != numBuffers)
    return fail("@" + coroutineName + " takes " + llvm::Twine(numBuffers) +
                    " buffer(s), " + llvm::Twine(bufferSpecs.size()) +
                    " given with --buffer",
                kExitUsage);
  for (auto [index, type] : llvm::enumerate(userArgumentTypes)) {
    if (auto memref = dyn_cast<MemRefType>(type)) {
      llvm::Expected<runner::HostBuffer> buffer =
          runner::parseBufferSpec(bufferSpecs[buffers.size()], memref, index);
      if (!buffer)
        return fail(llvm::toString(buffer.takeError()), kExitUsage);
      buffers.push_back(std::move(*buffer));
    } else {
      llvm::Expected<rt::KernelArg> arg =
          runner::parseScalarArgument(scalarArgs[scalars.size()], type, index,
                                      /*wideIndex=*/backend == Backend::CUDA);
      if (!arg)
        return fail(llvm::toString(arg.takeError()), kExitUsage);
      scalars.push_back(std::move(*arg));
    }
  }
  // A grid larger than a buffer indexed by the instance id (with
  // --check-bounds every access is checked at run time instead).
  if (!boundsCheck && failed(checkGridFitsBuffers(
                          coroutine, rt::countInstances(grid), buffers)))
    return kExitUsage;
  std::vector<runner::PngImage> images;
  for (const std::string &spec : pngSpecs) {
    llvm::Expected<runner::PngImage> image =
        runner::parsePngSpec(spec, buffers);
    if (!image)
      return fail("--png " + llvm::toString(image.takeError()), kExitUsage);
    images.push_back(std::move(*image));
  }
  // The violation buffer: the size of each user buffer, then the records.
  ArrayRef<Type> argumentTypes = coroutine.getArgumentTypes();
  if (boundsCheck) {
    llvm::Expected<runner::HostBuffer> violations =
        runner::createViolationBuffer(boundsCheck, userArgumentTypes, buffers);
    if (!violations)
      return fail("--check-bounds: " + llvm::toString(violations.takeError()),
                  kExitUsage);
    buffers.push_back(std::move(*violations));
  }

  bool kernelsPrint =
      module->walk([](gpu::PrintfOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (kernelsPrint && !printKernels && backend == Backend::Vulkan)
    llvm::errs() << "coro-run: warning: @" << coroutineName
                 << " prints (gpu.printf); add --printf to see it (through "
                    "the Khronos validation layer)\n";
  bool showPrints = true;
  rt::Status status;
  std::unique_ptr<rt::Device> device;
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
    options.printfOutput = [&showPrints, &prints](const std::string &text) {
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

  FailureOr<runner::CompiledCoroutine> compiled = runner::compileCoroutine(
      *module, coroutineName, scheduler, device->getTarget(),
      getSchedulerCompileOptions(runner::getDeviceTraits(*device)));
  if (failed(compiled))
    return fail("compiling @" + coroutineName + " failed (see above)",
                kExitCompile);
  // --profile-lanes: the kernels take the profile buffer last.
  coro::LaneProfileAttr laneProfile = compiled->laneProfile;
  // It goes after the user's buffers; the reference run takes those alone.
  SmallVector<Type> runArgumentTypes(argumentTypes);
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
  ArrayRef<runner::HostBuffer> referenceBuffers =
      ArrayRef<runner::HostBuffer>(buffers).drop_back(
          compileFlags.profileLanes ? 1 : 0);
  FailureOr<runner::CompiledCoroutine> reference;
  if (check == CheckReference::Megakernel) {
    coro::SchedulerCompileOptions referenceOptions =
        getSchedulerCompileOptions(runner::getDeviceTraits(*device));
    referenceOptions.profileLanes = false;
    reference = runner::compileCoroutine(*module, coroutineName,
                                         coro::GPUScheduler::Megakernel,
                                         device->getTarget(), referenceOptions);
    if (failed(reference))
      return fail("compiling the mega-kernel reference failed (see above)",
                  kExitCompile);
  }
  double compileMs = millisecondsSince(start);
  if (timing && !json)
    llvm::outs() << llvm::format("compile: %.3f ms\n", compileMs);

  StringRef label = coro::getGPUSchedulerName(scheduler);
  // --check-bounds: reports what a run's violation buffer recorded;
  // returns their number.
  auto reportViolations = [&](const runner::HostBuffer &violations) {
    runner::BoundsReport report =
        runner::decodeViolations(violations, boundsCheck);
    if (report.count) {
      llvm::errs() << "coro-run: error: ";
      runner::printBoundsReport(report, label, llvm::errs());
    }
    return report;
  };
  // Repeated runs: the kernels stay compiled, every run starts from the
  // same buffers; medians are reported (the first run pays for compiling
  // the kernels on drivers that do it lazily).
  if (repeat == 0)
    return fail("--repeat must be at least 1", kExitUsage);
  // Every run's times and statistics; the buffers of the last (memory for
  // one copy only).
  std::vector<runner::RunResult> runs(repeat);
  std::vector<runner::HostBuffer> results;
  // --profile-lanes: every run's profile buffer (the wavefront's counts
  // depend on how its queues filled), to report the median run's.
  std::vector<runner::HostBuffer> profiles;
  for (runner::RunResult &run : runs) {
    if (ExitCode code = runOnce(*device, *compiled, grid, runArgumentTypes,
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
  size_t reportedRun = order[(order.size() - 1) / 2];
  runner::RunResult &reported = runs[reportedRun];
  const runner::RunTiming &runTiming = reported.timing;
  if (repeat > 1 && timing && !json)
    llvm::outs() << llvm::format(
        "%s: median of %u runs: run %.3f ms (GPU %.3f ms)\n",
        label.str().c_str(), unsigned(repeat), runTiming.run, runTiming.gpu);
  if (printStats && !json)
    runner::printSchedulerStats(reported.scheduled, runTiming.gpu,
                                llvm::outs());
  runner::RunResult referenceRun;
  if (check == CheckReference::Megakernel) {
    showPrints = false;
    if (ExitCode code =
            runOnce(*device, *reference, grid, argumentTypes, scalars,
                    referenceBuffers, "reference", referenceRun))
      return code;
    showPrints = true;
    if (boundsCheck)
      referenceRun.buffers.pop_back();
  } else if (check == CheckReference::CPU) {
    Clock::time_point referenceStart = Clock::now();
    llvm::Expected<std::vector<runner::HostBuffer>> cpuBuffers =
        runner::runCPUReference(
            *source, coroutineName, grid, scalarArgs,
            referenceBuffers.drop_back(boundsCheck ? 1 : 0));
    if (!cpuBuffers)
      return fail(llvm::toString(cpuBuffers.takeError()), kExitCompile);
    referenceRun.buffers = std::move(*cpuBuffers);
    if (timing && !json)
      llvm::outs() << llvm::format("CPU reference: %.3f ms\n",
                                   millisecondsSince(referenceStart));
  }
  // --profile-lanes: the profile buffer is coro-run's, not the user's.
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

//===- coro-run.cpp - run a coroutine from a .mlir file -------------------===//
//
// Part of the CoroGPU project.
//
// Compiles one coro.func of a module with a scheduler, runs it on a device
// over a grid with the given arguments and buffers, and prints the buffers.
// With --check it also runs the mega-kernel reference and compares every
// buffer. Example:
//
//   coro-run shade.mlir --coro=shade --grid=64 --arg=4 --buffer=f32:64:zeros \
//       --scheduler=state-machine --check
//
// Longer than it should be (about 1500 lines: the options and their checks,
// compilation, buffers, the run and the comparison). Moving the compile and
// buffer steps into a library that embedders can call is part of the
// embedder work (issue 18); until then this is the one place they live.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/Passes.h"
#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Dialect/Plan/RuntimePlans.h"
#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Pipelines/Pipelines.h"
#include "CoroGPU/Target/Passes.h"
#include "CoroGPU/Transforms/Passes.h"
#include "corogpu/runtime/BoundsCheckABI.h"
#include "corogpu/runtime/Device.h"
#include "corogpu/runtime/InstanceABI.h"
#include "corogpu/runtime/InstanceKernel.h"
#include "corogpu/runtime/Persistent.h"
#include "corogpu/runtime/SPIRVValidation.h"
#include "corogpu/runtime/Wavefront.h"

#include "Tune.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <unistd.h>

using namespace mlir;
namespace rt = corogpu::runtime;

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
    coroutineName("coro", llvm::cl::desc("Name of the coroutine to run"),
                  llvm::cl::value_desc("symbol"),
                  llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    gridSpec("grid", llvm::cl::desc("Grid of instances: X[,Y[,Z]]"),
             llvm::cl::init("1"), llvm::cl::cat(coroRunCategory));
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
static llvm::cl::opt<coro::GPUScheduler>
    scheduler("scheduler", llvm::cl::desc("Scheduler to materialize"),
              llvm::cl::init(coro::GPUScheduler::StateMachine),
              llvm::cl::values(
                  clEnumValN(coro::GPUScheduler::Megakernel, "megakernel",
                             "suspensions erased: the reference"),
                  clEnumValN(coro::GPUScheduler::StateMachine, "state-machine",
                             "one instance per thread, loop over the token"),
                  clEnumValN(coro::GPUScheduler::Wavefront, "wavefront",
                             "one kernel per subroutine, queues built on the "
                             "GPU (see the wavefront options)"),
                  clEnumValN(coro::GPUScheduler::Persistent, "persistent",
                             "resident workgroups run block-wise state "
                             "machines (see the persistent options)")),
              llvm::cl::cat(coroRunCategory));

// State-machine scheduler options.
static llvm::cl::OptionCategory stateMachineCategory(
    "State-machine scheduler options (--scheduler=state-machine; with "
    "--state-machine-steps also --max-rounds, --time-limit)");
static llvm::cl::opt<unsigned> stateMachineSteps(
    "state-machine-steps",
    llvm::cl::desc("Run at most N subroutines of each instance per launch, "
                   "keeping the frames in global memory between launches, "
                   "and launch again until every instance returned (0: one "
                   "launch; use it where a driver's loop limit ends long "
                   "instances, as lavapipe's does)"),
    llvm::cl::init(0), llvm::cl::cat(stateMachineCategory));

// Wavefront scheduler options: compile time (layout, sort-by, hint-buckets)
// and run time (the rest).
static llvm::cl::OptionCategory
    wavefrontCategory("Wavefront scheduler options (--scheduler=wavefront)");
static llvm::cl::opt<coro::FrameArrayLayout>
    frameLayout("layout",
                llvm::cl::desc("Frame layout (the wavefront frame buffer, the "
                               "persistent slots)"),
                llvm::cl::init(coro::FrameArrayLayout::SoA),
                llvm::cl::values(clEnumValN(coro::FrameArrayLayout::SoA, "soa",
                                            "structure of arrays"),
                                 clEnumValN(coro::FrameArrayLayout::AoS, "aos",
                                            "array of structures")),
                llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<std::string>
    sortBy("sort-by",
           llvm::cl::desc("Integer promise field that orders each queue "
                          "(e.g. a material id)"),
           llvm::cl::value_desc("promise"), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<int64_t>
    hintBuckets("hint-buckets",
                llvm::cl::desc("With --sort-by: values are clamped to "
                               "[0, N)"),
                llvm::cl::init(16), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<int64_t> wavefrontWorkgroupSize(
    "wavefront-workgroup-size",
    llvm::cl::desc("Threads per workgroup of the wavefront kernels"),
    llvm::cl::init(64), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<uint64_t>
    capacity("capacity",
             llvm::cl::desc("Instance slots (0: from device memory, at most "
                            "2^24 and the grid)"),
             llvm::cl::init(0), llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<rt::RefillPolicy>
    refill("refill", llvm::cl::desc("When free slots take new instances"),
           llvm::cl::init(rt::RefillPolicy::EveryRound),
           llvm::cl::values(clEnumValN(rt::RefillPolicy::EveryRound, "always",
                                       "every round"),
                            clEnumValN(rt::RefillPolicy::BelowHalf, "half",
                                       "when fewer than half of the slots are "
                                       "alive (Cycles)")),
           llvm::cl::cat(wavefrontCategory));
static llvm::cl::opt<rt::LaunchOrder>
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
                              "instances per subroutine)"),
               llvm::cl::cat(wavefrontCategory));

// Persistent-threads scheduler options: compile time, then run time.
static llvm::cl::OptionCategory persistentCategory(
    "Persistent-threads scheduler options (--scheduler=persistent; also "
    "--layout, --scheduler-stats)");
static llvm::cl::opt<int64_t> persistentWorkgroupSize(
    "persistent-workgroup-size",
    llvm::cl::desc("Threads per workgroup of the persistent kernel"),
    llvm::cl::init(64), llvm::cl::cat(persistentCategory));
static llvm::cl::opt<int64_t>
    persistentBatch("persistent-batch",
                    llvm::cl::desc("Instance slots per workgroup"),
                    llvm::cl::init(256), llvm::cl::cat(persistentCategory));
static llvm::cl::opt<int64_t> persistentSharedMemory(
    "persistent-shared-memory",
    llvm::cl::desc("Bytes of workgroup memory for the slots and their frames; "
                   "the frames that do not fit go to a global memory "
                   "extension"),
    llvm::cl::init(16384), llvm::cl::cat(persistentCategory));
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
                   "default: 2^20 rounds or state-machine launches, no "
                   "persistent-threads launch limit)"),
    llvm::cl::init(~uint64_t(0)), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<double> timeLimit(
    "time-limit",
    llvm::cl::desc("Give up, with exit code 5, once the host loop of the "
                   "wavefront, persistent-threads or bounded-steps "
                   "state-machine scheduler has run this many seconds (0: no "
                   "limit; checked between submissions)"),
    llvm::cl::init(0), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool> terminationChecks(
    "termination-checks",
    llvm::cl::desc("Count the instances that return (mega-kernel, state "
                   "machine) and, on Vulkan, each thread's loop iterations, "
                   "and fail with exit code 5 on a shortfall or at the "
                   "device's loop limit (default on; off only to measure "
                   "their cost)"),
    llvm::cl::init(true), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool> checkBounds(
    "check-bounds",
    llvm::cl::desc("Check the index of every memref load, store and atomic "
                   "of the coroutine against its buffer's size "
                   "(coro-check-bounds): an access out of bounds is skipped "
                   "(a load gives 0) and counted; at each suspension an "
                   "instance reports the first it met, 16 reports are kept "
                   "and printed with their source line, and coro-run exits "
                   "with code 6; off by default, as it slows the kernels"),
    llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    backend("backend",
            llvm::cl::desc("Device backend: vulkan (any Vulkan 1.2 device, "
                           "lavapipe included) or cuda (NVIDIA driver)"),
            llvm::cl::init("vulkan"), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string>
    deviceName("device",
               llvm::cl::desc("Vulkan device whose name contains "
                              "this text (default: the first)"),
               llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool>
    validation("validate",
               llvm::cl::desc("Enable the Khronos Vulkan validation layer; "
                              "any message is an error"),
               llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<bool>
    check("check",
          llvm::cl::desc("Also run the mega-kernel reference and compare "
                         "every buffer (exit code 1 on mismatch)"),
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
static llvm::cl::opt<EmitKind> emit(
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
    llvm::cl::desc("Also write buffer I (f16, f32 or f64) as a PNG image: "
                   "I:WIDTHxHEIGHT:CHANNELS:PATH, CHANNELS 1 (gray) or 3 "
                   "(RGB), rows top first; each value times --png-exposure, "
                   "clamped to [0, 1], gamma 1/2.2, 8 bits (NaN is black)"),
    llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<double>
    pngExposure("png-exposure",
                llvm::cl::desc("Factor of every value --png writes"),
                llvm::cl::init(1.0), llvm::cl::cat(coroRunCategory));
static llvm::cl::opt<std::string> outputDir(
    "output-dir",
    llvm::cl::desc("Also write each buffer as buffer<i>.bin (raw "
                   "little-endian) and buffer<i>.npy into this directory"),
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

/// The name --scheduler gives `kind`.
static const char *getSchedulerName(coro::GPUScheduler kind) {
  switch (kind) {
  case coro::GPUScheduler::Megakernel:
    return "megakernel";
  case coro::GPUScheduler::StateMachine:
    return "state-machine";
  case coro::GPUScheduler::Wavefront:
    return "wavefront";
  case coro::GPUScheduler::Persistent:
    return "persistent";
  }
  return "unknown";
}

/// An error for an option that has no effect on this run: a scheduler's
/// option given to another scheduler, a negative tolerance.
/// The values of the options every scheduler takes.
static std::string checkGeneralOptions() {
  if (tolerance < 0)
    return "--tolerance must not be negative";
  if (!(pngExposure > 0) || !std::isfinite(pngExposure))
    return "--png-exposure must be a positive number";
  if (timeLimit < 0)
    return "--time-limit must not be negative";
  return {};
}

static std::string checkOptionsApply() {
  const char *chosen = getSchedulerName(scheduler);
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    if (!option->getNumOccurrences())
      continue;
    bool wavefront = llvm::is_contained(option->Categories, &wavefrontCategory);
    bool persistent =
        llvm::is_contained(option->Categories, &persistentCategory);
    bool stateMachine =
        llvm::is_contained(option->Categories, &stateMachineCategory);
    // These serve both (a single launch cannot be interrupted).
    bool both = name == "layout" || name == "scheduler-stats";
    // The limits of the host loops.
    bool limits = name == "max-rounds" || name == "time-limit";
    bool applies =
        both ? scheduler == coro::GPUScheduler::Wavefront ||
                   scheduler == coro::GPUScheduler::Persistent
        : limits ? scheduler == coro::GPUScheduler::Wavefront ||
                       scheduler == coro::GPUScheduler::Persistent ||
                       (scheduler == coro::GPUScheduler::StateMachine &&
                        stateMachineSteps > 0)
        : wavefront    ? scheduler == coro::GPUScheduler::Wavefront
        : persistent   ? scheduler == coro::GPUScheduler::Persistent
        : stateMachine ? scheduler == coro::GPUScheduler::StateMachine
                       : true;
    if (!applies)
      return ("--" + name + " is an option of the " +
              (both        ? "wavefront and persistent schedulers"
               : limits    ? "wavefront and persistent schedulers and of the "
                             "state machine with --state-machine-steps"
               : wavefront ? "wavefront scheduler"
               : stateMachine ? "state-machine scheduler"
                              : "persistent-threads scheduler") +
              "; --scheduler=" + chosen + " does not use it")
          .str();
  }
  if (stateMachineSteps > 0 && !terminationChecks)
    return "--state-machine-steps needs --termination-checks: the host "
           "relaunches until every instance returned";
  if (stateMachineSteps > uint64_t(INT32_MAX))
    return "--state-machine-steps must be below 2^31";
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
// Arguments and buffers
//===----------------------------------------------------------------------===//

namespace {

/// A host buffer for one memref argument.
struct HostBuffer {
  Type elementType;
  size_t count = 0;
  size_t elementSize = 0;
  std::vector<uint8_t> bytes;
};

} // namespace

/// `value` rounded to the nearest IEEE half, and back.
static uint16_t toHalf(double value) {
  llvm::APFloat half(value);
  bool losesInfo;
  half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
               &losesInfo);
  return half.bitcastToAPInt().getZExtValue();
}
static double fromHalf(uint16_t bits) {
  llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  bool losesInfo;
  half.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
               &losesInfo);
  return half.convertToDouble();
}

static size_t getElementSize(Type type) {
  return type.isIndex() ? 4 : type.getIntOrFloatBitWidth() / 8;
}

/// The NumPy dtype of a buffer's elements.
static StringRef getNumpyType(Type type) {
  if (type.isF16())
    return "<f2";
  if (type.isF32())
    return "<f4";
  if (type.isF64())
    return "<f8";
  return type.isInteger(32) ? "<i4" : "<i8";
}

/// The elements of the NPY file `contents` (format 1.0 to 3.0, as NumPy's
/// np.save writes it) as raw little-endian bytes, checked against the
/// buffer: its dtype must be `type`'s, its element count `count`; a
/// multi-dimensional array is read in C order. An error names `path`.
static bool readNumpyElements(StringRef contents, StringRef path, Type type,
                              size_t count, StringRef &elements,
                              std::string &error) {
  auto failWith = [&](const llvm::Twine &why) {
    error = ("'" + path + "' is not a usable .npy file: " + why).str();
    return false;
  };
  if (!contents.consume_front("\x93NUMPY"))
    return failWith("no NPY magic string");
  if (contents.size() < 4)
    return failWith("truncated header");
  unsigned major = static_cast<uint8_t>(contents[0]);
  contents = contents.drop_front(2);
  size_t headerLength;
  if (major == 1) {
    headerLength = uint8_t(contents[0]) | uint8_t(contents[1]) << 8;
    contents = contents.drop_front(2);
  } else if (major == 2 || major == 3) {
    if (contents.size() < 4)
      return failWith("truncated header");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength = headerLength << 8 | uint8_t(contents[i]);
    contents = contents.drop_front(4);
  } else {
    return failWith("format version " + llvm::Twine(major) + ", not 1, 2 or 3");
  }
  if (contents.size() < headerLength)
    return failWith("truncated header");
  StringRef header = contents.take_front(headerLength);
  elements = contents.drop_front(headerLength);
  // The value after `'key':` in the header's dict.
  auto value = [&](StringRef key) -> StringRef {
    size_t at = header.find(("'" + key + "'").str());
    if (at == StringRef::npos)
      return {};
    StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
    return rest.consume_front(":") ? rest.ltrim() : StringRef();
  };
  StringRef descr = value("descr");
  if (!descr.consume_front("'") || descr.find('\'') == StringRef::npos)
    return failWith("no 'descr' in its header");
  descr = descr.take_until([](char c) { return c == '\''; });
  // `=` is the native byte order, little-endian here as on every GPU host.
  std::string dtype = descr.str();
  if (!dtype.empty() && dtype[0] == '=')
    dtype[0] = '<';
  if (dtype != getNumpyType(type)) {
    std::string typeName;
    llvm::raw_string_ostream os(typeName);
    os << type;
    error =
        ("'" + path + "' holds elements of dtype " + descr +
         ", but the buffer is " + typeName + " (" + getNumpyType(type) + ")")
            .str();
    return false;
  }
  StringRef shapeText = value("shape");
  if (!shapeText.consume_front("("))
    return failWith("no 'shape' in its header");
  shapeText = shapeText.take_until([](char c) { return c == ')'; });
  SmallVector<StringRef> extents;
  shapeText.split(extents, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  uint64_t elementCount = 1;
  unsigned rank = 0, longExtents = 0;
  for (StringRef extent : extents) {
    extent = extent.trim();
    if (extent.empty())
      continue;
    uint64_t size;
    if (extent.getAsInteger(10, size))
      return failWith("bad shape (" + shapeText + ")");
    bool overflowed = false;
    elementCount = llvm::SaturatingMultiply(elementCount, size, &overflowed);
    if (overflowed)
      return failWith("bad shape (" + shapeText + ")");
    ++rank;
    longExtents += size > 1;
  }
  // Fortran order differs from C order only with two extents above 1.
  if (longExtents > 1 && value("fortran_order").starts_with("True"))
    return failWith("a " + llvm::Twine(rank) +
                    "-dimensional array in Fortran order (save it in C "
                    "order: np.ascontiguousarray)");
  if (elementCount != count) {
    error = ("'" + path + "' holds " + llvm::Twine(elementCount) +
             " elements (shape (" + shapeText + ")), but the buffer has " +
             llvm::Twine(count))
                .str();
    return false;
  }
  if (elements.size() != count * getElementSize(type))
    return failWith("its data has " + llvm::Twine(elements.size()) +
                    " bytes, its header says " +
                    llvm::Twine(count * getElementSize(type)));
  return true;
}

/// Parses TYPE:COUNT:INIT into `buffer`, checking it against `memref`.
static bool parseBuffer(StringRef spec, MemRefType memref, unsigned argument,
                        MLIRContext &context, HostBuffer &buffer,
                        std::string &error) {
  SmallVector<StringRef, 3> parts;
  spec.split(parts, ':', /*MaxSplit=*/2);
  if (parts.size() != 3) {
    error = ("buffer '" + spec + "' is not TYPE:COUNT:INIT").str();
    return false;
  }
  Type type = llvm::StringSwitch<Type>(parts[0])
                  .Case("f16", Float16Type::get(&context))
                  .Case("f32", Float32Type::get(&context))
                  .Case("f64", Float64Type::get(&context))
                  .Case("i32", IntegerType::get(&context, 32))
                  .Case("i64", IntegerType::get(&context, 64))
                  .Default(Type());
  if (!type) {
    error = ("buffer '" + spec + "': unknown element type '" + parts[0] +
             "' (f16, f32, f64, i32, i64)")
                .str();
    return false;
  }
  if (type != memref.getElementType()) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    os << memref.getElementType();
    error = ("buffer '" + spec + "' has elements of type " + parts[0] +
             ", but argument #" + llvm::Twine(argument) + " is a memref of " +
             expected)
                .str();
    return false;
  }
  if (parts[1].getAsInteger(10, buffer.count)) {
    error =
        ("buffer '" + spec + "': bad element count '" + parts[1] + "'").str();
    return false;
  }
  if (memref.hasStaticShape() &&
      buffer.count < static_cast<size_t>(memref.getNumElements())) {
    error = ("buffer '" + spec + "' has " + llvm::Twine(buffer.count) +
             " elements, but argument #" + llvm::Twine(argument) +
             " has a static shape of " + llvm::Twine(memref.getNumElements()))
                .str();
    return false;
  }
  buffer.elementType = type;
  buffer.elementSize = getElementSize(type);
  // Say so before trying to allocate what cannot fit.
  uint64_t bytes = uint64_t(buffer.count) * getElementSize(type);
  uint64_t hostBytes =
      uint64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  if (buffer.count > (uint64_t(1) << 62) / 8 || bytes > hostBytes) {
    error =
        ("out of memory: buffer '" + spec + "' needs " + llvm::Twine(bytes) +
         " bytes, this machine has " + llvm::Twine(hostBytes))
            .str();
    return false;
  }
  buffer.bytes.assign(buffer.count * buffer.elementSize, 0);

  auto setElement = [&](size_t index, double value) {
    uint8_t *at = buffer.bytes.data() + index * buffer.elementSize;
    if (type.isF16()) {
      uint16_t v = toHalf(value);
      std::memcpy(at, &v, 2);
    } else if (type.isF32()) {
      float v = value;
      std::memcpy(at, &v, 4);
    } else if (type.isF64()) {
      std::memcpy(at, &value, 8);
    } else if (type.isInteger(32)) {
      int32_t v = static_cast<int32_t>(value);
      std::memcpy(at, &v, 4);
    } else {
      int64_t v = static_cast<int64_t>(value);
      std::memcpy(at, &v, 8);
    }
  };
  StringRef init = parts[2];
  if (init == "zeros")
    return true;
  if (init == "iota") {
    for (size_t i = 0; i < buffer.count; ++i)
      setElement(i, static_cast<double>(i));
    return true;
  }
  if (init.consume_front("const=")) {
    double value;
    if (init.getAsDouble(value)) {
      error = ("buffer '" + spec + "': bad constant '" + init + "'").str();
      return false;
    }
    for (size_t i = 0; i < buffer.count; ++i)
      setElement(i, value);
    return true;
  }
  if (init.consume_front("random=")) {
    uint64_t seed;
    if (init.getAsInteger(10, seed)) {
      error = ("buffer '" + spec + "': bad seed '" + init + "'").str();
      return false;
    }
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (size_t i = 0; i < buffer.count; ++i)
      setElement(i, isa<FloatType>(type)
                        ? uniform(generator)
                        : std::floor(uniform(generator) * 1000));
    return true;
  }
  if (init.consume_front("file=")) {
    auto file = llvm::MemoryBuffer::getFile(init);
    if (!file) {
      error = ("buffer '" + spec + "': cannot read '" + init +
               "': " + file.getError().message())
                  .str();
      return false;
    }
    if ((*file)->getBufferSize() != buffer.bytes.size()) {
      error = ("buffer '" + spec + "': '" + init + "' has " +
               llvm::Twine((*file)->getBufferSize()) + " bytes, expected " +
               llvm::Twine(buffer.bytes.size()))
                  .str();
      return false;
    }
    std::memcpy(buffer.bytes.data(), (*file)->getBufferStart(),
                buffer.bytes.size());
    return true;
  }
  if (init.consume_front("npy=")) {
    auto file = llvm::MemoryBuffer::getFile(init, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file) {
      error = ("buffer '" + spec + "': cannot read '" + init +
               "': " + file.getError().message())
                  .str();
      return false;
    }
    StringRef elements;
    if (!readNumpyElements((*file)->getBuffer(), init, type, buffer.count,
                           elements, error)) {
      error = ("buffer '" + spec + "': " + error).str();
      return false;
    }
    std::memcpy(buffer.bytes.data(), elements.data(), buffer.bytes.size());
    return true;
  }
  error = ("buffer '" + spec + "': unknown initializer '" + init +
           "' (zeros, iota, const=V, random=SEED, file=PATH, npy=PATH)")
              .str();
  return false;
}

static bool parseScalar(StringRef text, Type type, unsigned argument,
                        bool wideIndex, rt::KernelArg &arg, std::string &error);

/// The bytes of a vector argument: its elements, comma-separated in `text`,
/// one after the other (SPIR-V kernels load it from a buffer, PTX kernels
/// take it by value).
static bool parseVector(StringRef text, VectorType type, unsigned argument,
                        bool wideIndex, rt::KernelArg &arg,
                        std::string &error) {
  SmallVector<StringRef> elements;
  text.split(elements, ',');
  std::string typeName;
  llvm::raw_string_ostream os(typeName);
  os << type;
  if (type.getRank() != 1 || type.isScalable()) {
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
             "; coro-run passes vectors of one fixed dimension")
                .str();
    return false;
  }
  if (static_cast<int64_t>(elements.size()) != type.getNumElements()) {
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
             ", but '" + text + "' has " + llvm::Twine(elements.size()) +
             (elements.size() == 1 ? " element" : " elements") +
             " (write them comma-separated)")
                .str();
    return false;
  }
  Type elementType = type.getElementType();
  if (!wideIndex && !coro::isSPIRVVectorArgumentType(type)) {
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName + ": " +
             coro::kSPIRVVectorArgumentTypes)
                .str();
    return false;
  }
  // Each element in its own width (a narrow integer's low bytes: the
  // values are little-endian).
  size_t width = elementType.isIndex()
                     ? (wideIndex ? 8 : 4)
                     : elementType.getIntOrFloatBitWidth() / 8;
  arg = rt::KernelArg();
  for (StringRef element : elements) {
    rt::KernelArg scalar;
    if (!parseScalar(element.trim(), elementType, argument, wideIndex, scalar,
                     error)) {
      // Say it of the vector, with the reason (a range) if there is one.
      StringRef reason = StringRef(error).ends_with(")")
                             ? StringRef(error).substr(error.rfind(" ("))
                             : StringRef();
      std::string elementName;
      llvm::raw_string_ostream elementOs(elementName);
      elementOs << elementType;
      error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
               ", but its element '" + element.trim() + "' is not a value of " +
               elementName + reason)
                  .str();
      return false;
    }
    if (width == 0 || scalar.scalar.size() < width) {
      error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
               ": coro-run cannot pass its elements")
                  .str();
      return false;
    }
    arg.scalar.insert(arg.scalar.end(), scalar.scalar.begin(),
                      scalar.scalar.begin() + width);
  }
  // A PTX kernel takes a vector parameter of a power-of-two size (a
  // vector<3xf32> in 16 bytes); SPIR-V kernels load the elements packed.
  if (wideIndex)
    arg.scalar.resize(llvm::PowerOf2Ceil(arg.scalar.size()));
  return true;
}

/// The bytes of a scalar kernel argument of `type`; index is 32-bit in
/// SPIR-V kernels and 64-bit in PTX ones (`wideIndex`).
static bool parseScalar(StringRef text, Type type, unsigned argument,
                        bool wideIndex, rt::KernelArg &arg,
                        std::string &error) {
  if (auto vector = dyn_cast<VectorType>(type))
    return parseVector(text, vector, argument, wideIndex, arg, error);
  auto bad = [&] {
    std::string typeName;
    llvm::raw_string_ostream os(typeName);
    os << type;
    error = ("argument #" + llvm::Twine(argument) + " is " + typeName +
             ", but '" + text + "' is not a value of that type")
                .str();
    return false;
  };
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // Parsed in the type's own format (rounded once) and passed in its
    // width: f16 and bf16 in 2 bytes, f32 in 4, f64 in 8.
    unsigned width = floatType.getWidth();
    if (width != 16 && width != 32 && width != 64) {
      error = ("argument #" + llvm::Twine(argument) + " has a type coro-run " +
               "cannot pass (floats of 16, 32 or 64 bits)")
                  .str();
      return false;
    }
    llvm::APFloat value(floatType.getFloatSemantics());
    llvm::Expected<llvm::APFloat::opStatus> status =
        value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return bad();
    }
    if ((*status & llvm::APFloat::opOverflow) && !value.isNaN()) {
      bad();
      error += " (out of range)";
      return false;
    }
    // SPIR-V has no bf16: its conversion keeps bf16 values in f32s.
    if (floatType.isBF16() && !wideIndex) {
      bool lost;
      value.convert(llvm::APFloat::IEEEsingle(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
      width = 32;
    }
    uint64_t bits = value.bitcastToAPInt().getZExtValue();
    arg = rt::KernelArg();
    arg.scalar.resize(width / 8);
    std::memcpy(arg.scalar.data(), &bits, width / 8);
    return true;
  }
  if (type.isIndex() || type.isInteger(32) || type.isInteger(64) ||
      type.isInteger(16) || type.isInteger(8)) {
    int64_t value;
    if (text.getAsInteger(0, value))
      return bad();
    bool wide = type.isInteger(64) || (type.isIndex() && wideIndex);
    // A narrower integer takes its signed or its unsigned range (an index
    // is 32-bit in SPIR-V kernels); nothing is truncated silently.
    unsigned width = wide             ? 64
                     : type.isIndex() ? 32
                                      : type.getIntOrFloatBitWidth();
    if (width < 64 && (value < -(int64_t(1) << (width - 1)) ||
                       value >= (int64_t(1) << width))) {
      bad();
      error += " (out of range for " + std::to_string(width) + " bits)";
      return false;
    }
    arg = wide ? rt::KernelArg::ofScalar<int64_t>(value)
               : rt::KernelArg::ofScalar<int32_t>(value);
    return true;
  }
  error = ("argument #" + llvm::Twine(argument) + " has a type coro-run " +
           "cannot pass (i1 is not supported yet)")
              .str();
  return false;
}

//===----------------------------------------------------------------------===//
// Compiling and running
//===----------------------------------------------------------------------===//

/// The passes' options of the schedulers from the command line.
static coro::SchedulerCompileOptions getSchedulerCompileOptions() {
  coro::SchedulerCompileOptions options;
  options.wavefront.workgroupSize = wavefrontWorkgroupSize;
  options.wavefront.layout = frameLayout;
  options.wavefront.sortBy = sortBy;
  options.wavefront.hintBuckets = hintBuckets;
  options.persistent.workgroupSize = persistentWorkgroupSize;
  options.persistent.layout = frameLayout;
  options.persistent.batch = persistentBatch;
  options.persistent.sharedMemory = persistentSharedMemory;
  options.stateMachine.stepsPerLaunch = stateMachineSteps;
  options.terminationChecks = terminationChecks;
  return options;
}

/// The plan (coro_plan dialect) that `scheduler`'s pass left for the
/// coroutine in the compiled `module`; a located error if there is none.
static FailureOr<Attribute> getSchedulerPlan(ModuleOp module,
                                             coro::GPUScheduler scheduler) {
  namespace plan = coro::plan;
  auto erase = [](auto found) -> FailureOr<Attribute> {
    if (failed(found))
      return failure();
    return Attribute(*found);
  };
  switch (scheduler) {
  case coro::GPUScheduler::Megakernel:
    return erase(
        plan::lookupPlan<plan::MegakernelPlanAttr>(module, coroutineName));
  case coro::GPUScheduler::StateMachine:
    return erase(
        plan::lookupPlan<plan::StateMachinePlanAttr>(module, coroutineName));
  case coro::GPUScheduler::Wavefront:
    return erase(
        plan::lookupPlan<plan::WavefrontPlanAttr>(module, coroutineName));
  case coro::GPUScheduler::Persistent:
    return erase(
        plan::lookupPlan<plan::PersistentPlanAttr>(module, coroutineName));
  }
  llvm_unreachable("unknown scheduler");
}

/// Compiles `module` (a copy) with `scheduler` to SPIR-V words; `lowered`,
/// if given, receives the compiled module, `plan` the coroutine's plan.
static bool compileToSPIRV(ModuleOp module, coro::GPUScheduler scheduler,
                           std::vector<uint32_t> &words,
                           OwningOpRef<ModuleOp> *lowered = nullptr,
                           Attribute *plan = nullptr) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  coro::buildToSPIRVPipeline(pm, scheduler, getSchedulerCompileOptions());
  if (failed(pm.run(*copy)))
    return false;
  if (plan) {
    FailureOr<Attribute> found = getSchedulerPlan(*copy, scheduler);
    if (failed(found))
      return false;
    *plan = *found;
  }
  llvm::scope_exit keep([&] {
    if (lowered)
      *lowered = std::move(copy);
  });
  auto spirvModules = copy->getOps<spirv::ModuleOp>();
  if (spirvModules.empty())
    return false;
  SmallVector<uint32_t> binary;
  if (failed(spirv::serialize(*spirvModules.begin(), binary)))
    return false;
  words.assign(binary.begin(), binary.end());
  // Never hand an invalid module to a driver; say which coroutine and
  // scheduler made it (the words are still returned, for --emit).
  if (rt::Status valid = rt::validateSPIRV(words.data(), words.size());
      !valid.ok()) {
    Operation *coroutine = module.lookupSymbol(coroutineName);
    emitError(coroutine ? coroutine->getLoc() : module.getLoc())
        << "the SPIR-V generated for this coroutine under the "
        << getSchedulerName(scheduler)
        << " scheduler is invalid, so it is not run (please report it: "
           "CoroGPU should have made valid code or rejected the program): "
        << valid.error;
    return false;
  }
  return true;
}

/// Compiles `module` (a copy) with `scheduler` to PTX text for `chipName`.
static bool compileToPTX(ModuleOp module, coro::GPUScheduler scheduler,
                         StringRef chipName, std::string &ptx,
                         Attribute *plan = nullptr) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  coro::buildToPTXPipeline(pm, scheduler, chipName,
                           getSchedulerCompileOptions());
  if (failed(pm.run(*copy)))
    return false;
  if (plan) {
    FailureOr<Attribute> found = getSchedulerPlan(*copy, scheduler);
    if (failed(found))
      return false;
    *plan = *found;
  }
  for (auto binary : copy->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      ptx += cast<gpu::ObjectAttr>(object).getObject().getValue().str();
  return !ptx.empty();
}

/// The kernel image for a device of `target` ("spirv" or "sm_XY").
static bool compileForTarget(ModuleOp module, coro::GPUScheduler scheduler,
                             StringRef target, std::string &image,
                             Attribute *plan = nullptr) {
  if (target != "spirv")
    return compileToPTX(module, scheduler, target, image, plan);
  std::vector<uint32_t> words;
  if (!compileToSPIRV(module, scheduler, words, nullptr, plan))
    return false;
  image.assign(reinterpret_cast<const char *>(words.data()),
               words.size() * sizeof(uint32_t));
  return true;
}

/// --emit: writes the generated code of `module` to --emit-to.
static int emitCode(ModuleOp module) {
  if (emit == EmitKind::PTX && !coro::isNVVMChip(chip))
    return fail("--chip: '" + chip +
                    "' is not an NVIDIA architecture coro-run targets; use "
                    "sm_<major><minor>, e.g. sm_90 (sm_20 to sm_90, sm_100, "
                    "sm_101, sm_103, sm_110, sm_120, sm_121)",
                kExitUsage);
  std::string error;
  auto output = openOutputFile(emitTo, &error);
  if (!output)
    return fail(error, kExitUsage);
  if (emit == EmitKind::PTX) {
    std::string ptx;
    if (!compileToPTX(module, scheduler, chip, ptx))
      return fail("compiling to PTX failed (see above)", kExitCompile);
    output->os() << ptx;
  } else {
    std::vector<uint32_t> words;
    OwningOpRef<ModuleOp> lowered;
    if (!compileToSPIRV(module, scheduler, words, &lowered)) {
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

namespace {
/// Milliseconds spent in each phase of one run.
struct RunTiming {
  double upload = 0, run = 0, gpu = 0, download = 0;
};
} // namespace

/// The kernel arguments of one run: the grid extents, then the coroutine's
/// in order. SPIR-V kernels bind each buffer; PTX kernels take the memref
/// descriptor of the NVVM lowering (allocated and aligned pointers, offset,
/// sizes, strides) and 64-bit indices.
/// Appends the kernel arguments that pass `buffer` as a memref of shape
/// `sizes`: the bound buffer for SPIR-V, the memref descriptor of the NVVM
/// lowering for PTX.
static void appendMemRefArg(std::vector<rt::KernelArg> &args, bool ptxABI,
                            rt::Buffer &buffer, ArrayRef<int64_t> sizes) {
  if (!ptxABI) {
    args.push_back(rt::KernelArg::ofBuffer(buffer));
    return;
  }
  args.push_back(rt::KernelArg::ofAddress(buffer));
  args.push_back(rt::KernelArg::ofAddress(buffer));
  args.push_back(rt::KernelArg::ofScalar<int64_t>(0));
  int64_t stride = 1;
  SmallVector<int64_t> strides(sizes.size());
  for (int64_t dim = sizes.size() - 1; dim >= 0; --dim) {
    strides[dim] = stride;
    stride *= sizes[dim];
  }
  for (int64_t size : sizes)
    args.push_back(rt::KernelArg::ofScalar<int64_t>(size));
  for (int64_t each : strides)
    args.push_back(rt::KernelArg::ofScalar<int64_t>(each));
}

static std::vector<rt::KernelArg>
buildKernelArgs(bool ptxABI, std::array<uint32_t, 3> grid,
                ArrayRef<Type> argumentTypes,
                const std::vector<rt::KernelArg> &scalars,
                ArrayRef<std::unique_ptr<rt::Buffer>> deviceBuffers,
                ArrayRef<HostBuffer> buffers) {
  std::vector<rt::KernelArg> args;
  args.reserve(grid.size() + argumentTypes.size());
  for (uint32_t extent : grid)
    args.push_back(ptxABI ? rt::KernelArg::ofScalar<int64_t>(extent)
                          : rt::KernelArg::ofScalar<int32_t>(extent));
  size_t nextScalar = 0, nextBuffer = 0;
  for (Type type : argumentTypes) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      args.push_back(scalars[nextScalar++]);
      continue;
    }
    rt::Buffer &buffer = *deviceBuffers[nextBuffer];
    size_t count = buffers[nextBuffer++].count;
    SmallVector<int64_t> sizes = memref.hasStaticShape()
                                     ? llvm::to_vector(memref.getShape())
                                     : SmallVector<int64_t>{int64_t(count)};
    appendMemRefArg(args, ptxABI, buffer, sizes);
  }
  return args;
}

/// The host side of the scheduler that runs: the plan the compiler left
/// for it (wavefront, persistent), and what a run did.
struct SchedulerRun {
  /// The kernel plan of the mega-kernel, or of the state machine.
  rt::InstanceKernelPlan instanceKernel;
  bool stateMachine = false;
  std::optional<rt::WavefrontPlan> wavefront;
  std::optional<rt::PersistentPlan> persistent;
  rt::WavefrontStats wavefrontStats;
  rt::PersistentStats persistentStats;
  rt::InstanceKernelStats instanceStats;
};

/// What the runtime needs to run the kernels `planAttr` describes.
static SchedulerRun getSchedulerRun(Attribute planAttr) {
  namespace plan = coro::plan;
  SchedulerRun run;
  if (auto mega = dyn_cast<plan::MegakernelPlanAttr>(planAttr)) {
    run.instanceKernel = plan::toRuntimePlan(mega, coroutineName);
  } else if (auto machine = dyn_cast<plan::StateMachinePlanAttr>(planAttr)) {
    run.instanceKernel = plan::toRuntimePlan(machine, coroutineName);
    run.stateMachine = true;
  } else if (auto wave = dyn_cast<plan::WavefrontPlanAttr>(planAttr)) {
    run.wavefront = plan::toRuntimePlan(wave, coroutineName);
  } else {
    run.persistent = plan::toRuntimePlan(
        cast<plan::PersistentPlanAttr>(planAttr), coroutineName);
  }
  return run;
}

/// Runs the scheduler once: loads `image`, uploads `buffers`, runs, and
/// downloads the results; on failure prints the error (prefixed with
/// `label`) and returns its exit code, with `results` downloaded all the
/// same when a limit stopped the run.
static ExitCode runOnce(rt::Device &device, const std::string &image,
                        std::array<uint32_t, 3> grid,
                        ArrayRef<Type> argumentTypes,
                        const std::vector<rt::KernelArg> &scalars,
                        std::vector<HostBuffer> buffers, const char *label,
                        std::vector<HostBuffer> &results, RunTiming &timings,
                        SchedulerRun &scheduled) {
  auto error = [&](const rt::Status &status) {
    return static_cast<ExitCode>(
        fail(llvm::Twine(label) + ": " + status.error, getExitCode(status)));
  };
  results.clear();
  Clock::time_point start = Clock::now();
  rt::Status status = device.loadModule(image.data(), image.size());
  if (!status.ok())
    return error(status);
  std::vector<std::unique_ptr<rt::Buffer>> deviceBuffers;
  for (HostBuffer &buffer : buffers) {
    // An empty buffer still gets room for one element: a bounds-checked
    // load out of bounds reads element 0 (BoundsCheckABI.h).
    deviceBuffers.push_back(device.createBuffer(
        std::max(buffer.bytes.size(), buffer.elementSize), status));
    if (!status.ok())
      return error(status);
    status = device.upload(*deviceBuffers.back(), buffer.bytes.data(),
                           buffer.bytes.size());
    if (!status.ok())
      return error(status);
  }
  double uploadMs = millisecondsSince(start);

  bool ptxABI = device.getTarget() != "spirv";
  std::vector<rt::KernelArg> args = buildKernelArgs(
      ptxABI, grid, argumentTypes, scalars, deviceBuffers, buffers);
  double gpuMs = 0;
  start = Clock::now();
  // Progress of long runs, on a terminal only, at most once a second.
  double lastProgress = 0;
  bool showProgress = !quiet && !json && llvm::errs().is_displayed();
  auto progress = [&](const rt::RunProgress &at) {
    if (!showProgress || at.seconds - lastProgress < 1)
      return;
    lastProgress = at.seconds;
    llvm::errs() << llvm::format(
        "\r%s: %llu %s, %llu of %llu instances started", label,
        static_cast<unsigned long long>(at.rounds),
        scheduled.wavefront ? "rounds" : "launches",
        static_cast<unsigned long long>(at.started),
        static_cast<unsigned long long>(at.instances));
    if (!scheduled.persistent)
      llvm::errs() << llvm::format(
          ", %llu alive, %.0f %s/s", static_cast<unsigned long long>(at.alive),
          at.rounds / at.seconds, scheduled.wavefront ? "rounds" : "launches");
    llvm::errs() << "  ";
  };
  auto endProgress = [&] {
    if (lastProgress > 0)
      llvm::errs() << "\n";
  };
  auto passBuffer = [&](std::vector<rt::KernelArg> &out, rt::Buffer &buffer,
                        uint64_t words) {
    appendMemRefArg(out, ptxABI, buffer, {int64_t(words)});
  };
  std::vector<rt::KernelArg> gridArgs(args.begin(), args.begin() + 3);
  std::vector<rt::KernelArg> coroutineArgs(args.begin() + 3, args.end());
  if (scheduled.wavefront) {
    rt::WavefrontOptions options;
    options.capacity = capacity;
    options.refill = refill;
    options.order = order;
    options.compactBelowPercent = compactBelow;
    options.roundsPerCheck = roundsPerCheck;
    options.timing = timing || printStats || json;
    if (maxRounds != ~uint64_t(0))
      options.limits.maxRounds = maxRounds;
    options.limits.maxSeconds = timeLimit;
    options.limits.howToChange = "--max-rounds and --time-limit set the limits";
    options.progress = progress;
    rt::WavefrontStats &stats = scheduled.wavefrontStats;
    status = rt::runWavefront(device, *scheduled.wavefront, options, grid,
                              gridArgs, coroutineArgs, passBuffer, stats);
    gpuMs = stats.schedulingMilliseconds + stats.subroutineMilliseconds;
  } else if (scheduled.persistent) {
    rt::PersistentOptions options;
    options.threads = persistentThreads;
    if (persistentBatchesPerLaunch >= 0)
      options.batchesPerLaunch = persistentBatchesPerLaunch;
    options.timing = true;
    if (maxRounds != ~uint64_t(0))
      options.limits.maxRounds = maxRounds;
    options.limits.maxSeconds = timeLimit;
    options.limits.howToChange = "--max-rounds and --time-limit set the limits";
    options.progress = progress;
    rt::PersistentStats &stats = scheduled.persistentStats;
    status = rt::runPersistent(device, *scheduled.persistent, options, grid,
                               gridArgs, coroutineArgs, passBuffer, stats);
    gpuMs = stats.gpuMilliseconds;
  } else {
    const rt::InstanceKernelPlan &plan = scheduled.instanceKernel;
    rt::InstanceKernelOptions options;
    options.statusBuffer = terminationChecks;
    if (maxRounds != ~uint64_t(0))
      options.limits.maxRounds = maxRounds;
    else
      options.limits.maxRounds = uint64_t(1) << 20;
    options.limits.maxSeconds = timeLimit;
    options.limits.howToChange = "--max-rounds and --time-limit set the limits";
    if (!plan.stepsPerLaunch && device.getLoopIterationLimit() &&
        scheduled.stateMachine)
      options.loopLimitAdvice =
          "; --state-machine-steps=N runs at most N subroutines of an "
          "instance per launch";
    options.progress = progress;
    rt::InstanceKernelStats &stats = scheduled.instanceStats;
    status = rt::runInstanceKernel(device, plan, options, grid, args,
                                   passBuffer, stats);
    gpuMs = stats.gpuMilliseconds;
  }
  endProgress();
  auto download = [&] {
    for (auto [buffer, deviceBuffer] : llvm::zip_equal(buffers, deviceBuffers))
      if (rt::Status status = device.download(
              *deviceBuffer, buffer.bytes.data(), buffer.bytes.size());
          !status.ok())
        return status;
    return rt::Status::success();
  };
  if (!status.ok()) {
    // A run that a limit cut short leaves its buffers as they were then
    // (--check-bounds: the violations reported so far, which may say why).
    if (status.code == rt::StatusCode::LimitExceeded && download().ok())
      results = std::move(buffers);
    return error(status);
  }
  double runMs = millisecondsSince(start);

  start = Clock::now();
  status = download();
  if (!status.ok())
    return error(status);
  double downloadMs = millisecondsSince(start);
  timings = {uploadMs, runMs, gpuMs, downloadMs};
  if (timing && !json)
    llvm::outs() << llvm::format(
        "%s: upload %.3f ms, run %.3f ms (GPU %.3f ms), download %.3f ms\n",
        label, uploadMs, runMs, gpuMs, downloadMs);
  results = std::move(buffers);
  return kExitSuccess;
}

/// An integer element, exactly.
static int64_t getInteger(const HostBuffer &buffer, size_t index) {
  const uint8_t *at = buffer.bytes.data() + index * buffer.elementSize;
  if (buffer.elementType.isInteger(32)) {
    int32_t v;
    std::memcpy(&v, at, 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, at, 8);
  return v;
}

static double getElement(const HostBuffer &buffer, size_t index) {
  const uint8_t *at = buffer.bytes.data() + index * buffer.elementSize;
  if (buffer.elementType.isF16()) {
    uint16_t v;
    std::memcpy(&v, at, 2);
    return fromHalf(v);
  }
  if (buffer.elementType.isF32()) {
    float v;
    std::memcpy(&v, at, 4);
    return v;
  }
  if (buffer.elementType.isF64()) {
    double v;
    std::memcpy(&v, at, 8);
    return v;
  }
  return static_cast<double>(getInteger(buffer, index));
}

static void printBuffer(unsigned index, const HostBuffer &buffer) {
  llvm::outs() << "buffer " << index << " (" << buffer.elementType << " x "
               << buffer.count << "): [";
  bool isFloat = isa<FloatType>(buffer.elementType);
  for (size_t i = 0; i < buffer.count; ++i) {
    llvm::outs() << (i ? ", " : "");
    // Integers exactly (an i64 does not fit %g's six digits).
    if (isFloat)
      llvm::outs() << llvm::format("%g", getElement(buffer, i));
    else
      llvm::outs() << getInteger(buffer, i);
  }
  llvm::outs() << "]\n";
}

/// Writes `buffer` as `<dir>/buffer<index>.bin` and `.npy`.
static bool writeBuffer(StringRef dir, unsigned index,
                        const HostBuffer &buffer) {
  std::string base = (dir + "/buffer" + llvm::Twine(index)).str();
  std::string error;
  auto raw = openOutputFile(base + ".bin", &error);
  auto npy = raw ? openOutputFile(base + ".npy", &error) : nullptr;
  if (!raw || !npy) {
    fail(error, kExitUsage);
    return false;
  }
  StringRef bytes(reinterpret_cast<const char *>(buffer.bytes.data()),
                  buffer.bytes.size());
  raw->os() << bytes;
  // NPY 1.0: magic, version, header length, a dict padded to 64 bytes.
  std::string header = ("{'descr': '" + getNumpyType(buffer.elementType) +
                        "', 'fortran_order': False, 'shape': (" +
                        llvm::Twine(buffer.count) + ",), }")
                           .str();
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  uint16_t length = header.size();
  npy->os() << "\x93NUMPY" << char(1) << char(0) << char(length & 0xff)
            << char(length >> 8) << header << bytes;
  raw->keep();
  npy->keep();
  return true;
}

namespace {
/// One --png: which buffer, its image size, where to write it.
struct PngImage {
  unsigned buffer = 0;
  unsigned width = 0, height = 0, channels = 0;
  std::string path;
};
} // namespace

/// Parses the --png spec `text` against the user's `buffers`.
static bool parsePng(StringRef text, ArrayRef<HostBuffer> buffers,
                     PngImage &image, std::string &error) {
  SmallVector<StringRef, 4> parts;
  text.split(parts, ':', /*MaxSplit=*/3);
  StringRef width, height;
  if (parts.size() == 4)
    std::tie(width, height) = parts[1].split('x');
  if (parts.size() != 4 || parts[0].getAsInteger(10, image.buffer) ||
      width.getAsInteger(10, image.width) ||
      height.getAsInteger(10, image.height) ||
      parts[2].getAsInteger(10, image.channels) || parts[3].empty()) {
    error =
        ("--png '" + text + "': expected I:WIDTHxHEIGHT:CHANNELS:PATH").str();
    return false;
  }
  image.path = parts[3].str();
  if (image.buffer >= buffers.size()) {
    error = ("--png '" + text + "': there is no buffer " +
             llvm::Twine(image.buffer) + " (" + llvm::Twine(buffers.size()) +
             " given with --buffer)")
                .str();
    return false;
  }
  if (image.width == 0 || image.height == 0 || image.width > (1u << 16) ||
      image.height > (1u << 16) ||
      (image.channels != 1 && image.channels != 3)) {
    error = ("--png '" + text +
             "': the size must be 1 to 65536 pixels a side and CHANNELS 1 "
             "or 3")
                .str();
    return false;
  }
  const HostBuffer &buffer = buffers[image.buffer];
  if (!isa<FloatType>(buffer.elementType)) {
    error = ("--png '" + text + "': buffer " + llvm::Twine(image.buffer) +
             " does not hold floats")
                .str();
    return false;
  }
  uint64_t values = uint64_t(image.width) * image.height * image.channels;
  if (values > buffer.count) {
    error = ("--png '" + text + "': " + llvm::Twine(image.width) + "x" +
             llvm::Twine(image.height) + " pixels of " +
             llvm::Twine(image.channels) + " channel(s) need " +
             llvm::Twine(values) + " values, buffer " +
             llvm::Twine(image.buffer) + " has " + llvm::Twine(buffer.count))
                .str();
    return false;
  }
  return true;
}

/// Writes `buffer` as the PNG `image` (RGB, 8 bits, tone-mapped as --png
/// says).
static bool writePng(const PngImage &image, const HostBuffer &buffer,
                     std::string &error) {
  if (!llvm::compression::zlib::isAvailable()) {
    error = "--png: this LLVM was built without zlib, which PNG needs";
    return false;
  }

  auto toByte = [](double v) -> uint8_t {
    v *= pngExposure;
    if (!(v > 0.0)) // Also NaN.
      return 0;
    if (v >= 1.0)
      return 255;
    return static_cast<uint8_t>(std::lround(255.0 * std::pow(v, 1 / 2.2)));
  };
  // Scanlines of filter type 0 (none), then RGB triples.
  std::vector<uint8_t> rows;
  rows.reserve(size_t(image.height) * (1 + 3 * size_t(image.width)));
  for (size_t y = 0; y < image.height; ++y) {
    rows.push_back(0);
    for (size_t x = 0; x < image.width; ++x) {
      size_t pixel = (y * image.width + x) * image.channels;
      for (unsigned c = 0; c < 3; ++c)
        rows.push_back(
            toByte(getElement(buffer, pixel + (image.channels == 3 ? c : 0))));
    }
  }
  SmallVector<uint8_t> compressed;
  llvm::compression::zlib::compress(
      rows, compressed, llvm::compression::zlib::BestSizeCompression);
  auto output = openOutputFile(image.path, &error);
  if (!output)
    return false;
  auto bigEndian = [](uint32_t word) {
    return std::array<uint8_t, 4>{uint8_t(word >> 24), uint8_t(word >> 16),
                                  uint8_t(word >> 8), uint8_t(word)};
  };
  auto chunk = [&](StringRef type, ArrayRef<uint8_t> data) {
    std::vector<uint8_t> typed(type.begin(), type.end());
    typed.insert(typed.end(), data.begin(), data.end());
    auto length = bigEndian(data.size());
    auto crc = bigEndian(llvm::crc32(typed));
    output->os().write(reinterpret_cast<const char *>(length.data()), 4);
    output->os().write(reinterpret_cast<const char *>(typed.data()),
                       typed.size());
    output->os().write(reinterpret_cast<const char *>(crc.data()), 4);
  };
  output->os() << "\x89PNG\r\n\x1a\n";
  std::vector<uint8_t> header;
  for (uint32_t word : {uint32_t(image.width), uint32_t(image.height)}) {
    auto bytes = bigEndian(word);
    header.insert(header.end(), bytes.begin(), bytes.end());
  }
  // 8 bits, RGB, deflate, no filter choice, no interlace.
  header.insert(header.end(), {8, 2, 0, 0, 0});
  chunk("IHDR", header);
  chunk("IDAT", compressed);
  chunk("IEND", {});
  output->keep();
  return true;
}

/// " entry:256 shade:8295": instances per subroutine, each named by its
/// tag (`names`, from the scheduler's plan) where there is one.
static void printPerSubroutine(ArrayRef<uint64_t> counts,
                               ArrayRef<std::string> names) {
  for (auto [token, count] : llvm::enumerate(counts)) {
    llvm::outs() << " ";
    if (token < names.size())
      llvm::outs() << names[token];
    else
      llvm::outs() << token;
    llvm::outs() << ":" << count;
  }
  llvm::outs() << "\n";
}

/// --stats: what the wavefront scheduler did and where the GPU time went.
static void printWavefrontStats(const rt::WavefrontStats &stats,
                                ArrayRef<std::string> names,
                                double gpuMilliseconds) {
  llvm::outs() << "wavefront: " << stats.capacity << " slots, " << stats.rounds
               << " rounds, " << stats.launches << " subroutine launches, "
               << stats.submissions << " submissions, " << stats.compactions
               << " compactions\n";
  llvm::outs() << "wavefront: instances per subroutine:";
  printPerSubroutine(stats.instancesPerSubroutine, names);
  double total = std::max(gpuMilliseconds, 1e-9);
  llvm::outs() << llvm::format(
      "wavefront: GPU time %.3f ms: scheduling %.3f ms (%.1f%%), "
      "subroutines %.3f ms (%.1f%%)\n",
      gpuMilliseconds, stats.schedulingMilliseconds,
      100 * stats.schedulingMilliseconds / total, stats.subroutineMilliseconds,
      100 * stats.subroutineMilliseconds / total);
  llvm::outs() << "wavefront: GPU time per kernel:";
  for (const auto &[kernel, milliseconds] : stats.kernelMilliseconds)
    llvm::outs() << llvm::format(" %s %.3f ms;", kernel.c_str(), milliseconds);
  llvm::outs() << "\n";
}

/// --stats: what the persistent-threads scheduler did.
static void printPersistentStats(const rt::PersistentStats &stats,
                                 ArrayRef<std::string> names) {
  auto count = [](uint64_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  llvm::outs() << "persistent: "
               << count(stats.workgroups, "workgroup", "workgroups") << ", "
               << count(stats.launches, "launch", "launches") << ", "
               << count(stats.steps, "step", "steps") << ", "
               << count(stats.acquisitions, "batch", "batches")
               << ", global memory extension " << stats.extensionBytes
               << " bytes\n";
  llvm::outs() << "persistent: instances per subroutine:";
  printPerSubroutine(stats.instancesPerSubroutine, names);
}

/// `location` as file:line:col where it is one.
static std::string formatLocation(LocationAttr location) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLine = dyn_cast<FileLineColLoc>(location))
    os << fileLine.getFilename().getValue() << ":" << fileLine.getLine() << ":"
       << fileLine.getColumn();
  else
    location.print(os);
  return text;
}

/// --check-bounds: reports the violations that `buffer`, the violation
/// buffer of BoundsCheckABI.h, holds after a run of `label`, on stderr and
/// into `json`; returns their number.
static uint32_t reportViolations(const HostBuffer &buffer,
                                 coro::BoundsCheckAttr boundsCheck,
                                 const char *label, llvm::json::Array &json) {
  namespace bounds = corogpu::runtime::bounds;
  auto word = [&](uint64_t index) {
    uint32_t value;
    std::memcpy(&value, buffer.bytes.data() + index * sizeof(value),
                sizeof(value));
    return value;
  };
  uint32_t count = word(bounds::kViolationCount);
  if (count == 0)
    return 0;
  uint32_t claimed = word(bounds::kRecordCount);
  uint32_t recorded = std::min(claimed, boundsCheck.getRecords());
  llvm::errs() << "coro-run: error: " << label << ": " << count
               << " memory access" << (count == 1 ? " was" : "es were")
               << " out of bounds and skipped (a load or an atomic gave 0)";
  if (recorded < count)
    llvm::errs() << "; " << recorded
                 << " recorded (an instance's first since it last suspended)";
  llvm::errs() << "\n";
  uint64_t first = bounds::kFirstArgumentSize + boundsCheck.getArgument();
  for (uint32_t i = 0; i < recorded; ++i) {
    uint64_t at = first + uint64_t(i) * bounds::kRecordWords;
    auto site =
        cast<coro::BoundsSiteAttr>(boundsCheck.getSites()[std::min<size_t>(
            word(at + bounds::kSite), boundsCheck.getSites().size() - 1)]);
    uint32_t resume =
        std::min<size_t>(word(at + bounds::kResumePoint),
                         boundsCheck.getResumePoints().size() - 1);
    StringRef resumedAt =
        cast<StringAttr>(boundsCheck.getResumePoints()[resume]).getValue();
    auto join = [&](bounds::RecordWord low, bounds::RecordWord high) {
      return (uint64_t(word(at + high)) << 32) | word(at + low);
    };
    uint64_t instance = join(bounds::kInstanceLow, bounds::kInstanceHigh);
    int64_t index = int64_t(join(bounds::kIndexLow, bounds::kIndexHigh));
    uint32_t size = word(at + bounds::kSize);
    uint32_t dimension = word(at + bounds::kDimension);
    std::string where = formatLocation(site.getLocation());
    llvm::errs()
        << "  " << where << ": " << site.getOp().getValue() << " of "
        << site.getMemref().getValue() << ": index " << index
        << " in dimension " << dimension << " of size " << size << "; instance "
        << instance << ", "
        << (resume == 0 ? "before its first suspension"
            : resumedAt.starts_with("#")
                ? ("resumed at suspension " + resumedAt).str()
                : ("resumed at suspension \"" + resumedAt + "\"").str())
        << "\n";
    json.push_back(llvm::json::Object{{"location", where},
                                      {"op", site.getOp().getValue()},
                                      {"memref", site.getMemref().getValue()},
                                      {"index", index},
                                      {"dimension", dimension},
                                      {"size", size},
                                      {"instance", instance},
                                      {"resumed_at", resumedAt}});
  }
  return count;
}

/// Compares every element; prints the first differing indices.
static bool compareBuffers(ArrayRef<HostBuffer> actual,
                           ArrayRef<HostBuffer> expected) {
  bool same = true;
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(actual, expected))) {
    const auto &[got, want] = pair;
    unsigned shown = 0;
    for (size_t i = 0; i < got.count; ++i) {
      double a = getElement(got, i), b = getElement(want, i);
      bool equal =
          isa<FloatType>(got.elementType)
              ? std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b))
              : getInteger(got, i) == getInteger(want, i);
      if (equal)
        continue;
      same = false;
      if (shown++ < 8)
        llvm::errs() << "coro-run: mismatch in buffer " << index << " at [" << i
                     << "]: " << llvm::format("%g", a) << ", reference "
                     << llvm::format("%g", b) << "\n";
    }
  }
  return same;
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
      "scheduler", "layout", "scheduler-stats", "check",
      "repeat",    "emit",   "emit-to",         "output-dir"};
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

/// Erases the coroutines and functions that `entry` does not reach through
/// symbol uses (awaits, handles, generator loops, calls): coro-run runs
/// `entry` only, and one of them that drives it would have it split before
/// --check-bounds instruments it.
static void eraseUnreachableCoroutines(ModuleOp module, coro::FuncOp entry) {
  SymbolTable symbols(module);
  llvm::SetVector<Operation *> reached;
  reached.insert(entry);
  for (size_t next = 0; next < reached.size(); ++next) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(reached[next]);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses)
      if (Operation *symbol =
              symbols.lookup(use.getSymbolRef().getRootReference()))
        reached.insert(symbol);
  }
  // One that something left still names (a coro.split, another unreachable
  // coroutine) goes once that is gone, or stays.
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation &op : llvm::make_early_inc_range(module.getOps()))
      if (isa<coro::FuncOp, func::FuncOp>(op) && !reached.contains(&op) &&
          SymbolTable::symbolKnownUseEmpty(&op, module)) {
        op.erase();
        erased = true;
      }
  }
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
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

  if (listCoroutines) {
    for (auto coroutine : module->getOps<coro::FuncOp>())
      describeCoroutine(coroutine, llvm::outs());
    return 0;
  }
  if (coroutineName.empty())
    return fail("name the coroutine to run with --coro=<symbol> (see --list)",
                kExitUsage);
  auto coroutine = module->lookupSymbol<coro::FuncOp>(coroutineName);
  if (!coroutine)
    return fail("no coro.func @" + coroutineName + " in " + inputFilename,
                kExitUsage);
  if (tune)
    return corogpu::tune::runTuner(getTuneOptions(argc, argv, coroutine));
  // coro-run launches the coroutine itself: host functions that launch
  // coroutines (the `main` of CPU tests) are not compiled; the wavefront
  // scheduler could not lower their launches anyway.
  for (Operation &op : llvm::make_early_inc_range(module->getOps()))
    if (isa<func::FuncOp>(op) && op.walk([](coro::LaunchOp) {
                                     return WalkResult::interrupt();
                                   }).wasInterrupted())
      op.erase();
  // --check-bounds: the coroutine gets its checks and one more argument, the
  // violation buffer, that coro-run passes after the user's. It is checked
  // after the front half, so that the code its handles and generator loops
  // run is inlined and checked too; coroutines it cannot reach go first, so
  // that one that drives it does not have it split before.
  ArrayRef<Type> userArgumentTypes = coroutine.getArgumentTypes();
  coro::BoundsCheckAttr boundsCheck;
  if (checkBounds) {
    eraseUnreachableCoroutines(*module, coroutine);
    PassManager pm(&context);
    coro::buildFrontHalfPipeline(pm);
    coro::CoroCheckBoundsOptions options;
    options.coroutines = {coroutineName};
    pm.addPass(coro::createCoroCheckBounds(options));
    if (failed(pm.run(*module)))
      return fail("--check-bounds: instrumenting @" + coroutineName +
                      " failed (see above)",
                  kExitCompile);
    boundsCheck = coroutine->getAttrOfType<coro::BoundsCheckAttr>(
        coro::BoundsCheckAttr::kAttrName);
    userArgumentTypes = coroutine.getArgumentTypes().drop_back();
  }
  if (emit != EmitKind::None)
    return emitCode(*module);
  if (backend != "vulkan" && backend != "cuda")
    return fail("unknown backend '" + backend + "'; use vulkan or cuda",
                kExitUsage);

  // The grid.
  std::array<uint32_t, 3> grid = {1, 1, 1};
  SmallVector<StringRef, 3> extents;
  StringRef(gridSpec).split(extents, ',');
  if (extents.size() > 3)
    return fail("--grid has more than 3 dimensions: '" + gridSpec + "'",
                kExitUsage);
  for (auto [i, text] : llvm::enumerate(extents))
    if (text.trim().getAsInteger(10, grid[i]) || grid[i] == 0)
      return fail("--grid: '" + text + "' is not a positive integer",
                  kExitUsage);
  // Instance ids (coro.id) are 32-bit on SPIR-V targets.
  if (rt::countInstances(grid) > uint64_t(INT32_MAX))
    return fail(
        "--grid: '" + gridSpec +
            "' has more than 2^31 - 1 instances (instance ids are 32-bit "
            "integers in the kernels)",
        kExitUsage);

  // Arguments, in order: scalars from --arg, memrefs from --buffer.
  std::vector<rt::KernelArg> scalars;
  std::vector<HostBuffer> buffers;
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
    std::string error;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      HostBuffer buffer;
      if (!parseBuffer(bufferSpecs[buffers.size()], memref, index, context,
                       buffer, error))
        return fail(error, kExitUsage);
      buffers.push_back(std::move(buffer));
    } else {
      rt::KernelArg arg;
      if (!parseScalar(scalarArgs[scalars.size()], type, index,
                       /*wideIndex=*/backend == "cuda", arg, error))
        return fail(error, kExitUsage);
      scalars.push_back(std::move(arg));
    }
  }
  std::vector<PngImage> images(pngSpecs.size());
  for (auto [spec, image] : llvm::zip_equal(pngSpecs, images)) {
    std::string error;
    if (!parsePng(spec, buffers, image, error))
      return fail(error, kExitUsage);
  }
  // The violation buffer: the size of each user buffer, then the records.
  ArrayRef<Type> argumentTypes = coroutine.getArgumentTypes();
  if (boundsCheck) {
    namespace bounds = corogpu::runtime::bounds;
    HostBuffer violations;
    violations.elementType = IntegerType::get(&context, 32);
    violations.elementSize = sizeof(uint32_t);
    violations.count = bounds::getViolationBufferWords(
        userArgumentTypes.size(), boundsCheck.getRecords());
    std::vector<uint32_t> words(violations.count);
    size_t nextBuffer = 0;
    for (auto [index, type] : llvm::enumerate(userArgumentTypes)) {
      if (!isa<MemRefType>(type))
        continue;
      size_t count = buffers[nextBuffer++].count;
      if (count > UINT32_MAX)
        return fail("--check-bounds: buffer " + llvm::Twine(nextBuffer - 1) +
                        " has more than 2^32 - 1 elements",
                    kExitUsage);
      words[bounds::kFirstArgumentSize + index] = count;
    }
    violations.bytes.resize(words.size() * sizeof(uint32_t));
    std::memcpy(violations.bytes.data(), words.data(), violations.bytes.size());
    buffers.push_back(std::move(violations));
  }

  rt::Status status;
  std::unique_ptr<rt::Device> device;
  if (backend == "cuda") {
    device = rt::createCUDADevice(0, status);
  } else {
    rt::VulkanOptions options;
    options.validation = validation;
    options.deviceName = deviceName;
    device = rt::createVulkanDevice(options, status);
  }
  if (!device)
    return fail(status.error, getExitCode(status));
  uint64_t bufferBytes = 0;
  for (const HostBuffer &buffer : buffers)
    bufferBytes += buffer.bytes.size();
  if (bufferBytes > device->getMemoryBytes())
    return fail("out of device memory: the buffers need " +
                    llvm::Twine(bufferBytes) + " bytes, " + device->getName() +
                    " has " + llvm::Twine(device->getMemoryBytes()),
                kExitDevice);

  std::string image, reference;
  Attribute plan, referencePlan;
  if (!compileForTarget(*module, scheduler, device->getTarget(), image, &plan))
    return fail("compiling @" + coroutineName + " failed (see above)",
                kExitCompile);
  SchedulerRun scheduled = getSchedulerRun(plan);
  std::vector<std::string> subroutineNames;
  if (auto names = coro::plan::getSubroutineNames(plan))
    for (auto name : names.getAsValueRange<StringAttr>())
      subroutineNames.push_back(name.str());
  SchedulerRun referenceRun;
  if (check) {
    if (!compileForTarget(*module, coro::GPUScheduler::Megakernel,
                          device->getTarget(), reference, &referencePlan))
      return fail("compiling the mega-kernel reference failed (see above)",
                  kExitCompile);
    referenceRun = getSchedulerRun(referencePlan);
  }
  double compileMs = millisecondsSince(start);
  if (timing && !json)
    llvm::outs() << llvm::format("compile: %.3f ms\n", compileMs);

  std::vector<HostBuffer> results, expected;
  RunTiming runTiming, referenceTiming;
  const char *label = getSchedulerName(scheduler);
  // Repeated runs: the kernels stay compiled, every run starts from the
  // same buffers; medians are reported (the first run pays for compiling
  // the kernels on drivers that do it lazily).
  if (repeat == 0)
    return fail("--repeat must be at least 1", kExitUsage);
  std::vector<RunTiming> runs;
  std::vector<SchedulerRun> runStats;
  for (unsigned i = 0; i < repeat; ++i) {
    if (ExitCode code =
            runOnce(*device, image, grid, argumentTypes, scalars, buffers,
                    label, results, runTiming, scheduled)) {
      // An access out of bounds can be why a run never ended.
      llvm::json::Array ignored;
      if (boundsCheck && !results.empty())
        reportViolations(results.back(), boundsCheck, label, ignored);
      return code;
    }
    runs.push_back(runTiming);
    runStats.push_back(scheduled);
  }
  if (repeat > 1) {
    // Report the run with the median GPU time (the lower one of the two
    // middle runs for an even count), whole, so that its times and
    // statistics agree with each other.
    std::vector<size_t> order(runs.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return runs[a].gpu < runs[b].gpu; });
    size_t median = order[(order.size() - 1) / 2];
    runTiming = runs[median];
    scheduled = runStats[median];
    if (timing && !json)
      llvm::outs() << llvm::format(
          "%s: median of %u runs: run %.3f ms (GPU %.3f ms)\n", label,
          unsigned(repeat), runTiming.run, runTiming.gpu);
  }
  const rt::WavefrontStats &stats = scheduled.wavefrontStats;
  if (printStats && !json) {
    if (scheduled.wavefront)
      printWavefrontStats(stats, subroutineNames, runTiming.gpu);
    if (scheduled.persistent)
      printPersistentStats(scheduled.persistentStats, subroutineNames);
  }
  std::optional<bool> matches;
  if (check) {
    if (ExitCode code =
            runOnce(*device, reference, grid, argumentTypes, scalars, buffers,
                    "reference", expected, referenceTiming, referenceRun))
      return code;
    if (boundsCheck)
      expected.pop_back();
  }
  // --check-bounds: the violation buffer is coro-run's, not the user's.
  llvm::json::Array violations;
  uint32_t numViolations = 0;
  if (boundsCheck) {
    numViolations =
        reportViolations(results.back(), boundsCheck, label, violations);
    results.pop_back();
  }
  if (check)
    matches = compareBuffers(results, expected);

  if (json) {
    llvm::json::Array jsonBuffers;
    // --quiet leaves the buffers out of the JSON too.
    for (const HostBuffer &buffer :
         quiet ? ArrayRef<HostBuffer>() : ArrayRef<HostBuffer>(results)) {
      llvm::json::Array values;
      for (size_t i = 0; i < buffer.count; ++i) {
        // JSON has no NaN or infinities: name them.
        double v = getElement(buffer, i);
        if (std::isfinite(v))
          values.push_back(v);
        else
          values.push_back(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
      }
      std::string type;
      llvm::raw_string_ostream os(type);
      os << buffer.elementType;
      jsonBuffers.push_back(
          llvm::json::Object{{"type", type}, {"values", std::move(values)}});
    }
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
    if (!quiet)
      result["buffers"] = std::move(jsonBuffers);
    if (matches)
      result["check"] = *matches;
    if (boundsCheck)
      result["bounds_violations"] = llvm::json::Object{
          {"count", numViolations}, {"recorded", std::move(violations)}};
    llvm::json::Array perRun;
    for (auto [i, run] : llvm::enumerate(runs)) {
      llvm::json::Object entry{{"run", run.run}, {"gpu", run.gpu}};
      if (scheduled.wavefront) {
        entry["scheduling_gpu_ms"] =
            runStats[i].wavefrontStats.schedulingMilliseconds;
        entry["subroutine_gpu_ms"] =
            runStats[i].wavefrontStats.subroutineMilliseconds;
      }
      perRun.push_back(std::move(entry));
    }
    result["runs_ms"] = std::move(perRun);
    if (scheduled.stateMachine)
      result["state_machine"] = llvm::json::Object{
          {"steps_per_launch", scheduled.instanceKernel.stepsPerLaunch},
          {"launches", scheduled.instanceStats.launches},
          {"frame_buffer_bytes", scheduled.instanceStats.frameBufferBytes},
          {"subroutines", subroutineNames}};
    if (scheduled.persistent) {
      const rt::PersistentStats &persistent = scheduled.persistentStats;
      llvm::json::Array perSubroutine;
      for (uint64_t count : persistent.instancesPerSubroutine)
        perSubroutine.push_back(count);
      result["persistent"] = llvm::json::Object{
          {"workgroups", persistent.workgroups},
          {"launches", persistent.launches},
          {"batch", scheduled.persistent->batch},
          {"shared_slots", scheduled.persistent->sharedSlots},
          {"extension_bytes", persistent.extensionBytes},
          {"steps", persistent.steps},
          {"batches", persistent.acquisitions},
          {"subroutines", subroutineNames},
          {"instances_per_subroutine", std::move(perSubroutine)}};
    }
    if (scheduled.wavefront) {
      llvm::json::Array perSubroutine;
      for (uint64_t count : stats.instancesPerSubroutine)
        perSubroutine.push_back(count);
      result["wavefront"] = llvm::json::Object{
          {"capacity", stats.capacity},
          {"rounds", stats.rounds},
          {"submissions", stats.submissions},
          {"launches", stats.launches},
          {"compactions", stats.compactions},
          {"subroutines", subroutineNames},
          {"instances_per_subroutine", std::move(perSubroutine)},
          {"scheduling_gpu_ms", stats.schedulingMilliseconds},
          {"kernel_gpu_ms",
           [&] {
             llvm::json::Object perKernel;
             for (const auto &[kernel, milliseconds] : stats.kernelMilliseconds)
               perKernel[kernel] = milliseconds;
             return perKernel;
           }()},
          {"subroutine_gpu_ms", stats.subroutineMilliseconds}};
    }
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(result)))
                 << "\n";
  } else if (!quiet) {
    for (auto [index, buffer] : llvm::enumerate(results))
      printBuffer(index, buffer);
  }
  if (!outputDir.empty()) {
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create " + outputDir + ": " + error.message(),
                  kExitUsage);
    for (auto [index, buffer] : llvm::enumerate(results))
      if (!writeBuffer(outputDir, index, buffer))
        return kExitUsage;
  }
  for (const PngImage &image : images) {
    std::string error;
    if (!writePng(image, results[image.buffer], error))
      return fail(error, kExitUsage);
  }
  // Out-of-bounds accesses explain a mismatch, not the other way round.
  ExitCode code = numViolations ? kExitOutOfBounds : kExitSuccess;
  if (!matches)
    return code;
  if (!*matches) {
    llvm::errs() << "coro-run: --check FAILED: " << label
                 << " differs from the mega-kernel reference\n";
    return numViolations ? code : kExitMismatch;
  }
  if (!json)
    llvm::outs() << "check: " << label
                 << " matches the mega-kernel reference on "
                 << device->getName() << "\n";
  return code;
}

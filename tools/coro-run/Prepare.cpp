//===- Prepare.cpp - coro-run: what to run, before any device -------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The first phase of a run: the module, the coroutine (--coro, or the only
// one no other uses), its sort key, the grid, the arguments and buffers,
// each checked against the coroutine before a device is opened, so that a
// mistake in the command line is reported at once. --list and --tune stop
// here.
//
//===----------------------------------------------------------------------===//

#include "CoroRun.h"
#include "Tune.h"

#include "CoroGPU/Runner/GridChecks.h"
#include "CoroGPU/Runner/KernelABI.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace corogpu::cororun;

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
  runner::SortKeys reached = runner::findSortKeys(coroutine, key);
  if (reached.contains(key))
    return {};
  std::optional<Type> keyType = reached.keyType, moduleKeyType;
  bool moduleHasKey = false;
  for (auto function :
       coroutine->getParentOfType<ModuleOp>().getOps<coro::FuncOp>()) {
    runner::SortKeys other = runner::findSortKeys(function, key);
    moduleHasKey |= other.contains(key);
    if (!moduleKeyType)
      moduleKeyType = other.keyType;
  }
  llvm::SmallVector<StringRef> keys(reached.keys.begin(), reached.keys.end());
  if (moduleHasKey) {
    llvm::errs() << "coro-run: warning: --sort-by: @" << coroutine.getSymName()
                 << (keyType
                         ? " has promise \"" + key.str() + "\" only as " +
                               llvm::formatv("{0}", *keyType).str()
                         : " and the coroutines it uses have no promise \"" +
                               key.str() + "\"")
                 << " (another coroutine of the module has it): its queues "
                    "stay unsorted\n";
    // The coroutines it does not reach are not compiled with it
    // (prepareToRun), so the key would name no promise there.
    compileFlags.sortBy = std::string();
    return {};
  }
  if (keyType || moduleKeyType)
    return ("--sort-by: promise \"" + key + "\" holds " +
            llvm::formatv("{0}", keyType ? *keyType : *moduleKeyType).str() +
            "; the queues sort by an integer or index promise")
        .str();
  return ("--sort-by: @" + coroutine.getSymName() +
          " has no integer promise named \"" + key + "\"" +
          suggestName(key, keys) +
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
  // Looked for in structured control flow (coroutines written with cf).
  OwningOpRef<ModuleOp> structured = runner::getStructuredCopy(coroutine);
  if (!structured)
    return failure();
  coroutine = structured->lookupSymbol<coro::FuncOp>(coroutine.getSymName());
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
// --tune
//===----------------------------------------------------------------------===//

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
    TunePassesTo passedTo = getTunePassedOption(name);
    if (!argument.starts_with("-") || passedTo == TunePassesTo::None) {
      options.runArguments.push_back(argument.str());
      continue;
    }
    // A value in the next argument, except for flags (--replay-rounds),
    // which take none.
    std::string option = argument.str();
    auto registered = llvm::cl::getRegisteredOptions().find(name);
    bool takesValue =
        registered == llvm::cl::getRegisteredOptions().end() ||
        registered->second->getValueExpectedFlag() != llvm::cl::ValueOptional;
    if (!argument.contains('=') && takesValue && i + 1 < userArguments.size())
      option += "=" + userArguments[++i];
    switch (passedTo) {
    case TunePassesTo::Wavefront:
      options.wavefrontArguments.push_back(option);
      break;
    case TunePassesTo::Persistent:
      options.persistentArguments.push_back(option);
      break;
    case TunePassesTo::HostLoops:
    case TunePassesTo::None:
      options.limitArguments.push_back(option);
      break;
    }
  }
  options.sortKeys = runner::findSortKeys(coroutine).keys;
  options.repeat = tuneRepeat;
  options.timeoutSeconds = tuneTimeout;
  options.jsonPath = tuneJson;
  options.json = json;
  return options;
}

//===----------------------------------------------------------------------===//
// The phase
//===----------------------------------------------------------------------===//

ExitCode CoroRun::load() {
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file)
    return fail(errorMessage, kExitUsage);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  start = Clock::now();
  module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return kExitUsage; // The parser or verifier printed a located error.
  if (check == CheckReference::CPU)
    source = module->clone();
  return kExitSuccess;
}

int CoroRun::list() {
  for (auto coroutine : module->getOps<coro::FuncOp>())
    describeCoroutine(coroutine, llvm::outs());
  return 0;
}

ExitCode CoroRun::choose() {
  FailureOr<coro::FuncOp> chosen = findCoroutine(*module);
  if (failed(chosen))
    return kExitUsage;
  coroutine = *chosen;
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
                memref, backend == Backend::CUDA
                            ? coro::KernelTarget::getPTX(chip)
                            : coro::KernelTarget::getSPIRV());
            !why.empty()) {
          coroutine.emitError() << "argument #" << index << ": " << why;
          return kExitCompile;
        }
  if (emit == EmitKind::None) {
    FailureOr<std::array<uint32_t, 3>> parsedGrid = parseGrid();
    if (failed(parsedGrid))
      return kExitUsage;
    grid = *parsedGrid;
  }
  return kExitSuccess;
}

int CoroRun::runTuner(int argc, char **argv) {
  return corogpu::tune::runTuner(getTuneOptions(argc, argv, coroutine));
}

ExitCode CoroRun::instrument() {
  userArgumentTypes = coroutine.getArgumentTypes();
  FailureOr<coro::BoundsCheckAttr> prepared =
      runner::prepareToRun(*module, coroutine, checkBounds);
  if (failed(prepared))
    return fail("--check-bounds: instrumenting @" + coroutineName +
                    " failed (see above)",
                kExitCompile);
  boundsCheck = *prepared;
  if (boundsCheck)
    userArgumentTypes = coroutine.getArgumentTypes().drop_back();
  return kExitSuccess;
}

ExitCode CoroRun::prepareArguments() {
  if (deviceTraits.getNumOccurrences())
    return fail("--device-traits names the device --emit compiles for; a run "
                "compiles for the device it runs on",
                kExitUsage);
  // (Their code is still emitted: it compiles and validates.) Profiled
  // kernels that run several subroutines of an instance in one launch, with its
  // frame in registers or workgroup memory, hung on lavapipe for a random
  // program of coro-fuzz even with no site instrumented, the profile
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
                "several subroutines per launch hung when profiled (a random "
                "program did; not understood yet)",
                kExitUsage);

  // Arguments, in order: scalars from --arg, memrefs from --buffer.
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
  for (const std::string &spec : pngSpecs) {
    llvm::Expected<runner::PngImage> image =
        runner::parsePngSpec(spec, buffers);
    if (!image)
      return fail("--png " + llvm::toString(image.takeError()), kExitUsage);
    images.push_back(std::move(*image));
  }
  // The violation buffer: the size of each user buffer, then the records.
  argumentTypes = coroutine.getArgumentTypes();
  if (boundsCheck) {
    llvm::Expected<runner::HostBuffer> violations =
        runner::createViolationBuffer(boundsCheck, userArgumentTypes, buffers);
    if (!violations)
      return fail("--check-bounds: " + llvm::toString(violations.takeError()),
                  kExitUsage);
    buffers.push_back(std::move(*violations));
  }
  return kExitSuccess;
}

//===- NativeRunner.cpp - The Runner library behind standard types --------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each Program owns an MLIR context with every CoroGPU dialect and a
// diagnostic handler that collects located diagnostics into the error of
// the call that raised them. Compiling works on a clone of the module, so
// that one Program compiles a coroutine under several schedulers.
//
//===----------------------------------------------------------------------===//

#include "NativeRunner.h"

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/InitAllCoroGPU.h"
#include "CoroGPU/Pipelines/Pipelines.h"
#include "CoroGPU/Runner/BufferIO.h"
#include "CoroGPU/Runner/Compile.h"
#include "CoroGPU/Runner/CompilePolicy.h"
#include "CoroGPU/Runner/GridChecks.h"
#include "CoroGPU/Runner/HostBuffer.h"
#include "CoroGPU/Runner/KernelABI.h"
#include "CoroGPU/Runner/Report.h"
#include "CoroGPU/Runner/Run.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

using namespace mlir;
namespace rt = corogpu::runtime;
namespace runner = mlir::coro::runner;
using corogpu::python::Error;
using corogpu::python::ErrorKind;

static Error makeError(ErrorKind kind, std::string message) {
  return Error{kind, std::move(message)};
}

static ErrorKind getErrorKind(const rt::Status &status) {
  switch (status.code) {
  case rt::StatusCode::Ok:
    return ErrorKind::None;
  case rt::StatusCode::InvalidInput:
    return ErrorKind::Argument;
  case rt::StatusCode::LimitExceeded:
    return ErrorKind::Limit;
  case rt::StatusCode::DeviceError:
    break;
  }
  return ErrorKind::Device;
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

namespace corogpu {
namespace python {

struct Device::Impl {
  std::unique_ptr<rt::Device> device;
};

struct Compiled::Impl {
  runner::CompiledCoroutine compiled;
  /// The options it was compiled with, for the mega-kernel reference.
  coro::SchedulerCompileOptions options;
  /// The coroutine's arguments, and the kernels' (with bounds checks, the
  /// violation buffer last).
  std::vector<Type> argumentTypes, runArgumentTypes;
  coro::BoundsCheckAttr boundsCheck;
  /// The grid check's accesses: (argument, elements per access, where).
  struct IndexedAccess {
    unsigned argument;
    int64_t width;
    Location location;
  };
  std::vector<IndexedAccess> instanceIndexed;
  /// The mega-kernel reference of `check`, compiled on first use.
  std::optional<runner::CompiledCoroutine> reference;
};

struct Program::Impl {
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  std::unique_ptr<llvm::raw_string_ostream> diagnosticStream;
  std::unique_ptr<SourceMgrDiagnosticHandler> handler;
  OwningOpRef<ModuleOp> module;

  /// The diagnostics since the last call, as one message.
  std::string takeDiagnostics() {
    std::string text = std::move(diagnostics);
    diagnostics.clear();
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    return text;
  }
  Error compileError(const std::string &what) {
    std::string located = takeDiagnostics();
    return makeError(ErrorKind::Compile,
                     located.empty() ? what : located + "\n" + what);
  }
  FailureOr<coro::FuncOp> lookup(ModuleOp in, const std::string &name,
                                 Error &error) const;
  Error checkGridFitsBuffers(const Compiled::Impl &what,
                             const std::array<uint32_t, 3> &grid,
                             ArrayRef<runner::HostBuffer> buffers);
};

} // namespace python
} // namespace corogpu

using namespace corogpu::python;

Device::Device() : impl(std::make_unique<Impl>()) {}
Device::~Device() = default;

std::unique_ptr<Device> Device::open(const std::string &backend,
                                     bool validation, Error &error) {
  rt::Status status;
  std::unique_ptr<Device> device(new Device());
  if (backend == "cuda") {
    device->impl->device = rt::createCUDADevice(0, status);
  } else if (backend == "vulkan") {
    rt::VulkanOptions options;
    options.validation = validation;
    device->impl->device = rt::createVulkanDevice(options, status);
  } else {
    error = makeError(ErrorKind::Argument,
                      "backend '" + backend + "' is not one of vulkan, cuda");
    return nullptr;
  }
  if (!device->impl->device) {
    error = makeError(ErrorKind::Device, status.error);
    return nullptr;
  }
  return device;
}

std::string Device::getName() const { return impl->device->getName(); }
std::string Device::getTarget() const {
  return impl->device->getTarget().str();
}
bool Device::isCPU() const { return impl->device->isCPU(); }

//===----------------------------------------------------------------------===//
// Compiled
//===----------------------------------------------------------------------===//

Compiled::Compiled() : impl(std::make_unique<Impl>()) {}
Compiled::~Compiled() = default;

std::string Compiled::getCoroutine() const { return impl->compiled.coroutine; }
std::string Compiled::getScheduler() const {
  return coro::getGPUSchedulerName(impl->compiled.scheduler).str();
}
std::string Compiled::getTarget() const { return impl->compiled.target.str(); }
std::string Compiled::getImage() const { return impl->compiled.image; }
std::string Compiled::getPlan() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  impl->compiled.plan.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

Program::Program() : impl(std::make_unique<Impl>()) {}

/// Every dialect CoroGPU's pipelines use; built, and the passes registered
/// (a process-wide registry), once.
static const DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *made = new DialectRegistry();
    coro::registerCoroGPU(*made);
    return made;
  }();
  return *registry;
}
Program::~Program() = default;

std::unique_ptr<Program> Program::parse(const std::string &text, Error &error) {
  std::unique_ptr<Program> program(new Program());
  Impl &impl = *program->impl;
  impl.context = std::make_unique<MLIRContext>(getRegistry());
  impl.context->printOpOnDiagnostic(false);
  impl.diagnosticStream =
      std::make_unique<llvm::raw_string_ostream>(impl.diagnostics);
  impl.handler = std::make_unique<SourceMgrDiagnosticHandler>(
      impl.sourceMgr, impl.context.get(), *impl.diagnosticStream);
  impl.sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "<corogpu module>"),
      llvm::SMLoc());
  impl.module = parseSourceFile<ModuleOp>(impl.sourceMgr, impl.context.get());
  if (!impl.module) {
    error = impl.compileError("the module did not parse or verify");
    return nullptr;
  }
  return program;
}

std::string Program::print() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  impl->module->print(os, OpPrintingFlags().enableDebugInfo());
  return text;
}

std::vector<std::string> Program::getCoroutines() const {
  std::vector<std::string> names;
  for (auto coroutine : impl->module->getOps<coro::FuncOp>())
    names.push_back(coroutine.getSymName().str());
  return names;
}

FailureOr<coro::FuncOp> Program::Impl::lookup(ModuleOp in,
                                              const std::string &name,
                                              Error &error) const {
  if (auto coroutine = in.lookupSymbol<coro::FuncOp>(name))
    return coroutine;
  std::vector<std::string> names;
  for (auto coroutine : in.getOps<coro::FuncOp>())
    names.push_back("@" + coroutine.getSymName().str());
  error = makeError(
      ErrorKind::Argument,
      "the module has no coroutine @" + name + " (it has " +
          (names.empty() ? std::string("none") : llvm::join(names, ", ")) +
          ")");
  return failure();
}

/// The NumPy dtype the host keeps a scalar of `type` in (KernelABI's
/// getKernelArgumentFromHost reads that many bytes), or empty.
static std::string getScalarDtype(Type type) {
  if (type.isIndex())
    return "<i8";
  if (type.isInteger(1) || type.isInteger(8) || type.isInteger(16) ||
      type.isInteger(32) || type.isInteger(64) || type.isF16() ||
      type.isF32() || type.isF64())
    return runner::getNumpyType(type).str();
  return "";
}

Error Program::getArguments(const std::string &coroutine,
                            std::vector<ArgumentInfo> &arguments) const {
  Error error;
  FailureOr<coro::FuncOp> function =
      impl->lookup(*impl->module, coroutine, error);
  if (failed(function))
    return error;
  arguments.clear();
  for (Type type : function->getArgumentTypes()) {
    ArgumentInfo info;
    info.type = printType(type);
    if (auto memref = dyn_cast<MemRefType>(type)) {
      info.isBuffer = true;
      // What runs on every target the package compiles for: SPIR-V's
      // rule is the stricter one.
      info.unsupported =
          runner::checkBufferArgument(memref, coro::KernelTarget::getSPIRV());
      if (info.unsupported.empty())
        info.dtype = runner::getNumpyType(memref.getElementType()).str();
    } else if (auto vector = dyn_cast<VectorType>(type)) {
      info.lanes = vector.getNumElements();
      info.dtype = vector.getRank() == 1 && !vector.isScalable()
                       ? getScalarDtype(vector.getElementType())
                       : "";
    } else {
      info.dtype = getScalarDtype(type);
    }
    if (info.dtype.empty() && info.unsupported.empty())
      info.unsupported = "the host cannot pass a " + info.type;
    arguments.push_back(std::move(info));
  }
  return {};
}

Error Program::getSortKeys(const std::string &coroutine,
                           std::vector<std::string> &keys) const {
  Error error;
  FailureOr<coro::FuncOp> function =
      impl->lookup(*impl->module, coroutine, error);
  if (failed(function))
    return error;
  keys = runner::findSortKeys(*function).keys;
  return {};
}

/// Runs `pipeline` on a clone of `program`'s module after the front half
/// and the split, for the reports; the diagnostics of a failure in `error`.
static Error runReportPipeline(Program::Impl &impl, StringRef pipeline) {
  OwningOpRef<ModuleOp> module = impl.module->clone();
  PassManager pm(impl.context.get());
  coro::buildFrontHalfPipeline(pm);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return makeError(ErrorKind::Compile, errors);
  if (failed(pm.run(*module)))
    return impl.compileError("the split failed");
  return {};
}

/// A temporary path named after `stem`, removed at scope exit.
namespace {
struct TemporaryPath {
  llvm::SmallString<128> path;
  bool directory = false;
  ~TemporaryPath() {
    if (path.empty())
      return;
    if (directory)
      llvm::sys::fs::remove_directories(path);
    else
      llvm::sys::fs::remove(path);
  }
};
} // namespace

static Error readFile(StringRef path, std::string &contents) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError(ErrorKind::Compile,
                     ("the report " + path + " was not written").str());
  contents = (*buffer)->getBuffer().str();
  return {};
}

Error Program::getFrameReport(const std::string &coroutine,
                              std::string &json) const {
  Error error;
  if (failed(impl->lookup(*impl->module, coroutine, error)))
    return error;
  TemporaryPath report;
  if (llvm::sys::fs::createTemporaryFile("corogpu-frame", "json", report.path))
    return makeError(ErrorKind::Device, "cannot create a temporary file");
  if (Error failure = runReportPipeline(
          *impl, ("coro-split,coro-materialize-frame,coro-frame-report{"
                  "format=json output=" +
                  report.path + "}")
                     .str()))
    return failure;
  std::string contents;
  if (Error failure = readFile(report.path, contents))
    return failure;
  // One object per split coroutine: keep @coroutine's.
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(contents);
  if (!parsed)
    return makeError(ErrorKind::Compile, llvm::toString(parsed.takeError()));
  if (auto *all = parsed->getAsArray())
    for (llvm::json::Value &each : *all)
      if (auto *object = each.getAsObject())
        if (object->getString("coroutine") == coroutine) {
          json = llvm::formatv("{0:2}", each).str();
          return {};
        }
  return makeError(ErrorKind::Argument,
                   "@" + coroutine +
                       " has no frame: it does not suspend, or it was "
                       "inlined into the coroutines that await it");
}

Error Program::getTransitionGraph(const std::string &coroutine,
                                  std::string &dot, std::string &json) const {
  Error error;
  if (failed(impl->lookup(*impl->module, coroutine, error)))
    return error;
  TemporaryPath directory;
  directory.directory = true;
  if (llvm::sys::fs::createUniqueDirectory("corogpu-graph", directory.path))
    return makeError(ErrorKind::Device, "cannot create a temporary directory");
  if (Error failure = runReportPipeline(
          *impl,
          ("coro-split,coro-dump-graph{output-dir=" + directory.path + "}")
              .str()))
    return failure;
  llvm::SmallString<128> dotPath(directory.path), jsonPath(directory.path);
  llvm::sys::path::append(dotPath, coroutine + ".dot");
  llvm::sys::path::append(jsonPath, coroutine + ".json");
  if (!llvm::sys::fs::exists(dotPath))
    return makeError(ErrorKind::Argument,
                     "@" + coroutine +
                         " has no transition graph: it does not suspend, or "
                         "it was inlined into the coroutines that await it");
  if (Error failure = readFile(dotPath, dot))
    return failure;
  return readFile(jsonPath, json);
}

/// The accesses of `name` that the grid check looks at, in a copy with
/// structured control flow (the front end writes a CFG).
static LogicalResult findInstanceIndexedAccesses(
    Program::Impl &impl, StringRef name,
    std::vector<Compiled::Impl::IndexedAccess> &accesses) {
  auto coroutine = impl.module->lookupSymbol<coro::FuncOp>(name);
  if (!coroutine)
    return success();
  OwningOpRef<ModuleOp> structured = runner::getStructuredCopy(coroutine);
  if (!structured)
    return failure();
  for (const runner::InstanceIndexedAccess &access :
       runner::findInstanceIndexedAccesses(
           structured->lookupSymbol<coro::FuncOp>(name)))
    accesses.push_back(
        {access.argument, access.width, access.access->getLoc()});
  return success();
}

namespace {
/// What the process writes to stderr while it lives (file descriptor 2
/// redirected into a temporary file), for messages that LLVM prints
/// instead of returning.
class StderrCapture {
public:
  StderrCapture() {
    llvm::errs().flush();
    std::fflush(stderr);
    if (llvm::sys::fs::createTemporaryFile("corogpu-stderr", "txt", file, path))
      return;
    saved = ::dup(2);
    if (saved < 0 || ::dup2(file, 2) < 0)
      restore();
  }
  ~StderrCapture() {
    restore();
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
  /// Ends the capture and returns what was written.
  std::string take() {
    restore();
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  }

private:
  void restore() {
    llvm::errs().flush();
    std::fflush(stderr);
    if (saved >= 0) {
      ::dup2(saved, 2);
      ::close(saved);
      saved = -1;
    }
    if (file >= 0) {
      ::close(file);
      file = -1;
    }
  }
  int file = -1, saved = -1;
  llvm::SmallString<128> path;
};
} // namespace

Error Program::compile(const CompileRequest &request,
                       std::unique_ptr<Compiled> &compiled) const {
  std::optional<coro::GPUScheduler> scheduler =
      coro::parseGPUScheduler(request.scheduler);
  if (!scheduler)
    return makeError(ErrorKind::Argument,
                     "scheduler '" + request.scheduler + "' is not one of " +
                         llvm::join(getSchedulerNames(), ", "));
  // The options as the pipelines take them: one declaration
  // (coro::SchedulerOptions), over the device's defaults.
  coro::SchedulerPipelineOptions given;
  std::string optionErrors;
  llvm::raw_string_ostream optionErrorStream(optionErrors);
  bool parsed;
  {
    // llvm::cl reports a bad value (an enum's) on stderr itself, not on
    // the stream it is given: the message belongs in the error.
    StderrCapture capture;
    parsed =
        succeeded(given.parseFromString(request.options, optionErrorStream));
    optionErrors += capture.take();
  }
  if (!parsed) {
    // llvm::cl's own lines start with the (here empty) program name.
    llvm::StringRef why = llvm::StringRef(optionErrors).trim();
    why.consume_front(": ");
    return makeError(ErrorKind::Argument, "scheduler options '" +
                                              request.options +
                                              "': " + why.str());
  }
  if (std::string why = given.checkValues(); !why.empty())
    return makeError(ErrorKind::Argument, why);
  runner::DeviceTraits traits;
  if (request.device) {
    traits = runner::getDeviceTraits(*request.device->impl->device);
  } else {
    std::optional<coro::KernelTarget> target =
        coro::KernelTarget::parse(request.target);
    if (!target || (target->isPTX() && !coro::isNVVMChip(target->getChip())))
      return makeError(ErrorKind::Argument,
                       "target '" + request.target +
                           "' is neither spirv nor an NVIDIA chip (sm_90)");
    llvm::Expected<runner::DeviceTraits> parsed =
        runner::parseDeviceTraits("gpu", *target);
    if (!parsed)
      return makeError(ErrorKind::Argument, llvm::toString(parsed.takeError()));
    traits = *parsed;
  }
  coro::SchedulerCompileOptions options =
      runner::getCompileOptions(traits, given);

  impl->takeDiagnostics();
  OwningOpRef<ModuleOp> module = impl->module->clone();
  Error error;
  FailureOr<coro::FuncOp> coroutine =
      impl->lookup(*module, request.coroutine, error);
  if (failed(coroutine))
    return error;
  std::unique_ptr<Compiled> result(new Compiled());
  result->impl->argumentTypes.assign(coroutine->getArgumentTypes().begin(),
                                     coroutine->getArgumentTypes().end());
  if (failed(findInstanceIndexedAccesses(*impl, request.coroutine,
                                         result->impl->instanceIndexed)))
    return impl->compileError("structuring @" + request.coroutine + " failed");
  FailureOr<coro::BoundsCheckAttr> boundsCheck =
      runner::prepareToRun(*module, *coroutine, request.checkBounds);
  if (failed(boundsCheck))
    return impl->compileError("preparing @" + request.coroutine + " failed");
  result->impl->boundsCheck = *boundsCheck;
  // A sort key the coroutine has no integer promise of: the option's error,
  // before the wavefront pass finds no such field.
  if (!options.wavefront.sortBy.empty()) {
    runner::SortKeys keys =
        runner::findSortKeys(*coroutine, options.wavefront.sortBy);
    if (!keys.contains(options.wavefront.sortBy))
      return makeError(
          ErrorKind::Argument,
          "sort_by: @" + request.coroutine +
              (keys.keyType
                   ? " has promise \"" + options.wavefront.sortBy +
                         "\" only as " + printType(*keys.keyType) +
                         "; the queues sort by an integer or index promise"
                   : " and the coroutines it reaches have no integer "
                     "promise \"" +
                         options.wavefront.sortBy + "\" (they have " +
                         (keys.keys.empty() ? std::string("none")
                                            : llvm::join(keys.keys, ", ")) +
                         ")"));
  }
  result->impl->runArgumentTypes.assign(coroutine->getArgumentTypes().begin(),
                                        coroutine->getArgumentTypes().end());
  FailureOr<runner::CompiledCoroutine> made = runner::compileCoroutine(
      *module, request.coroutine, *scheduler, traits.target, options);
  if (failed(made))
    return impl->compileError("compiling @" + request.coroutine + " for " +
                              traits.target.str() + " under " +
                              request.scheduler + " failed");
  result->impl->compiled = std::move(*made);
  result->impl->options = options;
  compiled = std::move(result);
  return {};
}

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

/// The host loops' options, as coro-run's, with the Python names of the
/// limits in the messages.
static runner::RunOptions getRunOptions(rt::Device &device,
                                        const runner::CompiledCoroutine &what,
                                        const RunRequest &request) {
  runner::RunLimitSettings limits;
  if (request.maxRounds)
    limits.maxRounds = request.maxRounds;
  limits.maxSeconds = request.timeLimit;
  limits.howToChange = "time_limit=S sets the limit of seconds (default 300, "
                       "0: none), max_rounds=N that of rounds or launches "
                       "(default 2^20)";
  limits.stateMachineStepsAdvice =
      "options state_machine_steps=N runs at most N passes of an instance's "
      "state machine per launch";
  runner::RunOptions options = runner::getRunOptions(device, what, limits);
  options.wavefront.capacity = request.capacity;
  options.wavefront.timing = true;
  options.persistent.timing = true;
  return options;
}

/// With bounds checks: drops the violation buffer from `run`'s buffers, and
/// reports the accesses out of bounds it recorded, if any.
static Error takeViolations(const Compiled::Impl &what,
                            runner::RunResult &run) {
  if (!what.boundsCheck || run.buffers.empty())
    return {};
  runner::HostBuffer violations = std::move(run.buffers.back());
  run.buffers.pop_back();
  runner::BoundsReport report =
      runner::decodeViolations(violations, what.boundsCheck);
  if (!report.count)
    return {};
  std::string message;
  llvm::raw_string_ostream os(message);
  runner::printBoundsReport(
      report, coro::getGPUSchedulerName(what.compiled.scheduler), os);
  return makeError(ErrorKind::Bounds, llvm::StringRef(message).rtrim().str());
}

Error Program::Impl::checkGridFitsBuffers(
    const Compiled::Impl &what, const std::array<uint32_t, 3> &grid,
    ArrayRef<runner::HostBuffer> buffers) {
  llvm::DenseMap<unsigned, const runner::HostBuffer *> bufferOf;
  unsigned next = 0;
  for (auto [index, type] : llvm::enumerate(what.argumentTypes))
    if (isa<MemRefType>(type) && next < buffers.size())
      bufferOf[index] = &buffers[next++];
  uint64_t instances = rt::countInstances(grid);
  takeDiagnostics();
  for (const Compiled::Impl::IndexedAccess &access : what.instanceIndexed) {
    const runner::HostBuffer *buffer = bufferOf.lookup(access.argument);
    if (!buffer || instances + access.width - 1 <= buffer->count)
      continue;
    emitError(access.location)
        << "the grid has " << instances
        << " instances, but this access indexes argument #" << access.argument
        << " by the instance id and its array holds " << buffer->count
        << " elements (pass at least " << instances + access.width - 1
        << ", or a smaller grid; check_bounds=True checks every access)";
    return makeError(ErrorKind::Shape, takeDiagnostics());
  }
  return {};
}

Error Program::run(Device &device, Compiled &compiled,
                   const RunRequest &request, RunOutput &output) const {
  rt::Device &on = *device.impl->device;
  Compiled::Impl &what = *compiled.impl;
  if (on.getTarget() != what.compiled.target)
    return makeError(ErrorKind::Argument, "the kernels were compiled for " +
                                              what.compiled.target.str() +
                                              ", the device runs " +
                                              on.getTarget().str());
  ArrayRef<Type> types = what.argumentTypes;
  if (request.arguments.size() != types.size())
    return makeError(ErrorKind::Argument,
                     "@" + what.compiled.coroutine + " takes " +
                         std::to_string(types.size()) + " arguments, " +
                         std::to_string(request.arguments.size()) +
                         " were given");
  std::vector<rt::KernelArg> scalars;
  std::vector<runner::HostBuffer> buffers;
  for (auto [index, type] : llvm::enumerate(types)) {
    const ArgumentValue &value = request.arguments[index];
    std::string at =
        "argument #" + std::to_string(index) + " (" + printType(type) + ")";
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (!value.isBuffer)
        return makeError(ErrorKind::Argument, at + " is a buffer");
      if (std::string why =
              runner::checkBufferArgument(memref, what.compiled.target);
          !why.empty())
        return makeError(ErrorKind::Argument, at + ": " + why);
      runner::HostBuffer buffer =
          runner::HostBuffer::getZeros(memref.getElementType(), value.count);
      if (value.bytes.size() != buffer.bytes.size())
        return makeError(ErrorKind::Argument,
                         at + ": " + std::to_string(value.bytes.size()) +
                             " bytes for " + std::to_string(value.count) +
                             " elements of " +
                             std::to_string(buffer.elementSize) + " bytes");
      std::copy(value.bytes.begin(), value.bytes.end(), buffer.bytes.begin());
      buffers.push_back(std::move(buffer));
      continue;
    }
    if (value.isBuffer)
      return makeError(ErrorKind::Argument, at + " is a scalar");
    llvm::Expected<rt::KernelArg> arg = runner::getKernelArgumentFromHost(
        type, value.bytes.data(), index, what.compiled.target.isPTX());
    if (!arg)
      return makeError(ErrorKind::Argument, llvm::toString(arg.takeError()));
    scalars.push_back(*arg);
  }

  // An array smaller than the grid where the instance id indexes it: a
  // located error before running (with bounds checks, every access is
  // checked at run time instead).
  if (!what.boundsCheck)
    if (Error error = impl->checkGridFitsBuffers(what, request.grid, buffers))
      return error;
  // With bounds checks the kernels take the violation buffer last.
  std::vector<runner::HostBuffer> runBuffers = buffers;
  if (what.boundsCheck) {
    llvm::Expected<runner::HostBuffer> violations =
        runner::createViolationBuffer(what.boundsCheck, types, buffers);
    if (!violations)
      return makeError(ErrorKind::Argument,
                       llvm::toString(violations.takeError()));
    runBuffers.push_back(std::move(*violations));
  }

  // Every run from the same buffers; the one with the median GPU time kept.
  unsigned repeat = std::max(1u, request.repeat);
  std::vector<runner::RunResult> runs(repeat);
  for (runner::RunResult &each : runs) {
    rt::Status status = runner::runCoroutine(
        on, what.compiled, request.grid, what.runArgumentTypes, scalars,
        runBuffers, getRunOptions(on, what.compiled, request), each);
    // An access out of bounds can be why a run never ended.
    if (Error error = takeViolations(what, each))
      return error;
    if (!status.ok())
      return makeError(
          getErrorKind(status),
          coro::getGPUSchedulerName(what.compiled.scheduler).str() + ": " +
              status.error);
  }
  std::vector<size_t> order(runs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return runs[a].timing.gpu < runs[b].timing.gpu;
  });
  runner::RunResult &reported = runs[order[(order.size() - 1) / 2]];
  output.buffers.clear();
  for (const runner::HostBuffer &buffer : reported.buffers)
    output.buffers.emplace_back(buffer.bytes.begin(), buffer.bytes.end());
  output.uploadMs = reported.timing.upload;
  output.runMs = reported.timing.run;
  output.gpuMs = reported.timing.gpu;
  output.downloadMs = reported.timing.download;
  output.gpuTimes.clear();
  for (const runner::RunResult &each : runs)
    output.gpuTimes.push_back(each.timing.gpu);
  llvm::json::Object stats;
  runner::addSchedulerStats(reported.scheduled, stats);
  output.statsJSON =
      llvm::formatv("{0}", llvm::json::Value(std::move(stats))).str();
  output.statsText.clear();
  llvm::raw_string_ostream statsStream(output.statsText);
  runner::printSchedulerStats(reported.scheduled, reported.timing.gpu,
                              statsStream);
  output.checked = false;
  if (request.check == CheckReference::None)
    return {};

  // The reference: every suspension erased, on the same device.
  if (!what.reference) {
    impl->takeDiagnostics();
    OwningOpRef<ModuleOp> module = impl->module->clone();
    Error error;
    FailureOr<coro::FuncOp> coroutine =
        impl->lookup(*module, what.compiled.coroutine, error);
    if (failed(coroutine))
      return error;
    coro::SchedulerCompileOptions options = what.options;
    options.profileLanes = false;
    FailureOr<runner::CompiledCoroutine> reference;
    if (succeeded(runner::prepareToRun(*module, *coroutine, false)))
      reference = runner::compileCoroutine(*module, what.compiled.coroutine,
                                           coro::GPUScheduler::Megakernel,
                                           what.compiled.target, options);
    if (failed(reference))
      return impl->compileError("compiling the mega-kernel reference failed");
    what.reference = std::move(*reference);
  }
  runner::RunResult referenceRun;
  rt::Status status = runner::runCoroutine(
      on, *what.reference, request.grid, types, scalars, buffers,
      getRunOptions(on, *what.reference, request), referenceRun);
  if (!status.ok())
    return makeError(getErrorKind(status), "reference: " + status.error);
  SmallVector<runner::BufferMismatch> mismatches;
  size_t count = runner::compareBuffers(reported.buffers, referenceRun.buffers,
                                        request.tolerance, mismatches);
  if (count == 0) {
    output.checked = true;
    return {};
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  os << coro::getGPUSchedulerName(what.compiled.scheduler) << ": " << count
     << " element" << (count == 1 ? "" : "s")
     << " differ from the mega-kernel reference";
  for (const runner::BufferMismatch &mismatch : mismatches)
    os << "\n  buffer " << mismatch.buffer << " [" << mismatch.index
       << "]: " << llvm::format("%g", mismatch.actual) << ", reference "
       << llvm::format("%g", mismatch.expected);
  return makeError(ErrorKind::Mismatch, message);
}

std::vector<std::string> corogpu::python::getSchedulerNames() {
  std::vector<std::string> names;
  for (coro::GPUScheduler scheduler :
       {coro::GPUScheduler::Megakernel, coro::GPUScheduler::StateMachine,
        coro::GPUScheduler::Wavefront, coro::GPUScheduler::Persistent})
    names.push_back(coro::getGPUSchedulerName(scheduler).str());
  return names;
}

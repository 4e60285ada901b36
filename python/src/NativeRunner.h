//===- NativeRunner.h - The Runner library behind standard types -*- C++-*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the `corogpu` Python package needs of the Runner library (parse a
// module, compile a coroutine for a device under a scheduler, run it, check
// it against the mega-kernel, report), behind an interface of standard C++
// types only. LLVM and MLIR are built without RTTI and exceptions and the
// Python binding needs both: the binding's translation unit includes this
// header and nothing of LLVM, and this library is compiled as the rest of
// CoroGPU. Errors come back as values, never as exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_PYTHON_NATIVERUNNER_H
#define COROGPU_PYTHON_NATIVERUNNER_H

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace corogpu {
namespace python {

/// What failed, so that the binding raises the matching Python exception.
enum class ErrorKind {
  None,
  /// The module did not parse or verify, or a pass failed: the message holds
  /// the located diagnostics.
  Compile,
  /// An argument, option or name the caller gave is wrong.
  Argument,
  /// No device, or the device failed.
  Device,
  /// A run went past a limit (rounds, seconds, the driver's loop limit).
  Limit,
  /// `check` found results that differ from the reference.
  Mismatch,
  /// An array does not fit the grid or the coroutine (a located error where
  /// the access is known).
  Shape,
  /// A run with bounds checks found accesses out of bounds.
  Bounds,
};

struct Error {
  ErrorKind kind = ErrorKind::None;
  std::string message;
  explicit operator bool() const { return kind != ErrorKind::None; }
};

/// A device to run on: Vulkan (lavapipe or a GPU) or CUDA.
class Device {
public:
  /// `backend` is "vulkan" or "cuda"; `validation` turns on the Khronos
  /// validation layer (Vulkan).
  static std::unique_ptr<Device> open(const std::string &backend,
                                      bool validation, Error &error);
  ~Device();
  std::string getName() const;
  /// "spirv" or the chip ("sm_90").
  std::string getTarget() const;
  bool isCPU() const;

  struct Impl;
  std::unique_ptr<Impl> impl;

private:
  Device();
};

/// One argument of a coroutine as the host passes it.
struct ArgumentInfo {
  /// The MLIR type ("i32", "vector<3xf32>", "memref<?xf32>").
  std::string type;
  bool isBuffer = false;
  /// The NumPy dtype of the scalar or of the buffer's elements ("<f4",
  /// "|b1", "<i8"); empty where the host cannot pass it (a reason is in
  /// `unsupported`).
  std::string dtype;
  /// Elements of a vector scalar (1 for a scalar).
  int64_t lanes = 1;
  /// Why the host cannot pass this argument, or empty.
  std::string unsupported;
};

/// A coroutine compiled for a device or target under a scheduler.
class Compiled {
public:
  ~Compiled();
  std::string getCoroutine() const;
  std::string getScheduler() const;
  std::string getTarget() const;
  /// SPIR-V words as bytes, or PTX text.
  std::string getImage() const;
  /// The scheduler's plan (a `#coro_plan` attribute) as text.
  std::string getPlan() const;

  struct Impl;
  std::unique_ptr<Impl> impl;

private:
  friend class Program;
  Compiled();
};

struct CompileRequest {
  std::string coroutine;
  /// megakernel, state-machine, wavefront or persistent.
  std::string scheduler = "megakernel";
  /// The schedulers' options as `coro-to-spirv` takes them
  /// ("layout=soa sort-by=band"), over the device's defaults.
  std::string options;
  /// Compile for this device (its target and policy), or, when null, for
  /// `target` ("spirv" or "sm_90") with a GPU's defaults.
  const Device *device = nullptr;
  std::string target = "spirv";
  /// Instrument every memory access (coro-check-bounds): a run reports the
  /// accesses out of bounds, located, instead of leaving them undefined.
  bool checkBounds = false;
};

enum class CheckReference { None, Megakernel };

/// A scalar's value as the host keeps it (the bytes of its NumPy dtype), or
/// a buffer's elements.
struct ArgumentValue {
  bool isBuffer = false;
  std::string bytes;
  /// A buffer's element count.
  size_t count = 0;
};

struct RunRequest {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::vector<ArgumentValue> arguments;
  CheckReference check = CheckReference::None;
  /// Largest relative difference accepted between floats (integers equal).
  double tolerance = 1e-5;
  /// Runs from the same buffers; the run with the median GPU time is kept.
  unsigned repeat = 1;
  /// Limits: rounds or launches (0: the host loop's default) and seconds
  /// (0: none).
  uint64_t maxRounds = 0;
  double timeLimit = 300;
  /// Wavefront: slots (0: one per instance, up to the device's fit).
  uint64_t capacity = 0;
};

struct RunOutput {
  /// Each buffer argument's elements after the run, in argument order.
  std::vector<std::string> buffers;
  double uploadMs = 0, runMs = 0, gpuMs = 0, downloadMs = 0;
  /// The GPU times of every run (`repeat` of them).
  std::vector<double> gpuTimes;
  /// What the scheduler did, as coro-run --json reports it.
  std::string statsJSON;
  /// The same as coro-run --scheduler-stats prints it.
  std::string statsText;
  /// Whether `check` compared the results (and found them equal).
  bool checked = false;
};

/// A module of coroutines, parsed and verified in its own MLIR context.
class Program {
public:
  /// Parses `text`; the diagnostics of a failure, located as the module's
  /// `loc`s say (the Python source lines of a translated kernel), are in
  /// `error`.
  static std::unique_ptr<Program> parse(const std::string &text, Error &error);
  ~Program();

  std::string print() const;
  std::vector<std::string> getCoroutines() const;
  Error getArguments(const std::string &coroutine,
                     std::vector<ArgumentInfo> &arguments) const;
  /// The names of @coroutine's integer promise fields (keys a wavefront
  /// can sort by), in the order they first appear.
  Error getSortKeys(const std::string &coroutine,
                    std::vector<std::string> &keys) const;
  /// coro-frame-report's JSON for `coroutine`, after the front half and the
  /// split.
  Error getFrameReport(const std::string &coroutine, std::string &json) const;
  /// coro-dump-graph's DOT and JSON for `coroutine`.
  Error getTransitionGraph(const std::string &coroutine, std::string &dot,
                           std::string &json) const;

  Error compile(const CompileRequest &request,
                std::unique_ptr<Compiled> &compiled) const;
  Error run(Device &device, Compiled &compiled, const RunRequest &request,
            RunOutput &output) const;

  struct Impl;
  std::unique_ptr<Impl> impl;

private:
  Program();
};

/// The scheduler names and the schedulers' option names, for the binding's
/// checks and help.
std::vector<std::string> getSchedulerNames();

} // namespace python
} // namespace corogpu

#endif // COROGPU_PYTHON_NATIVERUNNER_H

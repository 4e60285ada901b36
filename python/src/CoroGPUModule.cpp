//===- CoroGPUModule.cpp - corogpu._corogpu, the native module ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The Python binding of NativeRunner.h. This file is compiled with RTTI and
// exceptions (pybind11 needs both) and includes nothing of LLVM or MLIR,
// which are built without them. Errors of the native side come back as
// values; here they become the package's exceptions, which corogpu/errors.py
// defines and registers with `_set_exceptions`.
//
//===----------------------------------------------------------------------===//

#include "NativeRunner.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>

namespace py = pybind11;
using namespace corogpu::python;

namespace {

/// The Python exception classes for each ErrorKind, set by the package.
struct ExceptionClasses {
  py::object compile, argument, device, limit, mismatch, shape, bounds;
};

ExceptionClasses &getExceptionClasses() {
  static auto *classes = new ExceptionClasses();
  return *classes;
}

[[noreturn]] void raise(const Error &error) {
  ExceptionClasses &classes = getExceptionClasses();
  py::object type;
  switch (error.kind) {
  case ErrorKind::Compile:
    type = classes.compile;
    break;
  case ErrorKind::Argument:
    type = classes.argument;
    break;
  case ErrorKind::Device:
    type = classes.device;
    break;
  case ErrorKind::Limit:
    type = classes.limit;
    break;
  case ErrorKind::Mismatch:
    type = classes.mismatch;
    break;
  case ErrorKind::Shape:
    type = classes.shape;
    break;
  case ErrorKind::Bounds:
    type = classes.bounds;
    break;
  case ErrorKind::None:
    break;
  }
  if (!type || type.is_none())
    throw std::runtime_error(error.message);
  PyErr_SetObject(type.ptr(), py::str(error.message).ptr());
  throw py::error_already_set();
}

void check(const Error &error) {
  if (error)
    raise(error);
}

/// Runs `work` on the native side: without the GIL (a long run does not
/// stop the interpreter's other threads) and one call at a time. MLIR
/// contexts, the diagnostics they collect, devices and the modules loaded
/// on them are not safe to share between threads, and Python threads may
/// share a kernel; the lock is released before the GIL is taken back.
template <typename Work> auto callNative(Work &&work) {
  static std::mutex nativeCalls;
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(nativeCalls);
  return work();
}

/// The arguments of a run: NumPy arrays (buffers, C-contiguous, of the
/// coroutine's element type, checked by the package) and scalars as the
/// bytes of their dtype.
std::vector<ArgumentValue> getArgumentValues(const py::list &arguments) {
  std::vector<ArgumentValue> values;
  for (py::handle each : arguments) {
    py::tuple pair = py::reinterpret_borrow<py::tuple>(each);
    ArgumentValue value;
    value.isBuffer = pair[0].cast<bool>();
    py::array array = pair[1].cast<py::array>();
    py::buffer_info info = array.request();
    value.bytes.assign(static_cast<const char *>(info.ptr),
                       static_cast<size_t>(info.size * info.itemsize));
    value.count = static_cast<size_t>(info.size);
    values.push_back(std::move(value));
  }
  return values;
}

} // namespace

PYBIND11_MODULE(_corogpu, m) {
  m.doc() = "CoroGPU's Runner library (compile, run, check, report); use "
            "the corogpu package, not this module";

  m.def(
      "_set_exceptions",
      [](const py::object &compile, const py::object &argument,
         const py::object &device, const py::object &limit,
         const py::object &mismatch, const py::object &shape,
         const py::object &bounds) {
        getExceptionClasses() = {compile,  argument, device, limit,
                                 mismatch, shape,    bounds};
      },
      "Sets the exception classes each kind of error raises");
  m.def("scheduler_names", &getSchedulerNames);

  py::class_<Device>(m, "Device")
      .def_static(
          "open",
          [](const std::string &backend, bool validation) {
            Error error;
            std::unique_ptr<Device> device = callNative(
                [&] { return Device::open(backend, validation, error); });
            check(error);
            return device;
          },
          py::arg("backend") = "vulkan", py::arg("validation") = false)
      .def_property_readonly("name", &Device::getName)
      .def_property_readonly("target", &Device::getTarget)
      .def_property_readonly("is_cpu", &Device::isCPU);

  py::class_<ArgumentInfo>(m, "ArgumentInfo")
      .def_readonly("type", &ArgumentInfo::type)
      .def_readonly("is_buffer", &ArgumentInfo::isBuffer)
      .def_readonly("dtype", &ArgumentInfo::dtype)
      .def_readonly("lanes", &ArgumentInfo::lanes)
      .def_readonly("unsupported", &ArgumentInfo::unsupported);

  py::class_<Compiled>(m, "Compiled")
      .def_property_readonly("coroutine", &Compiled::getCoroutine)
      .def_property_readonly("scheduler", &Compiled::getScheduler)
      .def_property_readonly("target", &Compiled::getTarget)
      .def_property_readonly(
          "image", [](const Compiled &c) { return py::bytes(c.getImage()); })
      .def_property_readonly("plan", [](const Compiled &c) {
        return callNative([&] { return c.getPlan(); });
      });

  py::class_<RunOutput>(m, "RunOutput")
      .def_property_readonly("buffers",
                             [](const RunOutput &output) {
                               py::list buffers;
                               for (const std::string &each : output.buffers)
                                 buffers.append(py::bytes(each));
                               return buffers;
                             })
      .def_readonly("upload_ms", &RunOutput::uploadMs)
      .def_readonly("run_ms", &RunOutput::runMs)
      .def_readonly("gpu_ms", &RunOutput::gpuMs)
      .def_readonly("download_ms", &RunOutput::downloadMs)
      .def_readonly("gpu_times", &RunOutput::gpuTimes)
      .def_readonly("stats_json", &RunOutput::statsJSON)
      .def_readonly("stats_text", &RunOutput::statsText)
      .def_readonly("checked", &RunOutput::checked);

  py::class_<Program>(m, "Program")
      .def_static("parse",
                  [](const std::string &text) {
                    Error error;
                    std::unique_ptr<Program> program =
                        callNative([&] { return Program::parse(text, error); });
                    check(error);
                    return program;
                  })
      .def("print",
           [](const Program &program) {
             return callNative([&] { return program.print(); });
           })
      .def("coroutines",
           [](const Program &program) {
             return callNative([&] { return program.getCoroutines(); });
           })
      .def("arguments",
           [](const Program &program, const std::string &coroutine) {
             std::vector<ArgumentInfo> arguments;
             check(callNative(
                 [&] { return program.getArguments(coroutine, arguments); }));
             return arguments;
           })
      .def("sort_keys",
           [](const Program &program, const std::string &coroutine) {
             std::vector<std::string> keys;
             check(callNative(
                 [&] { return program.getSortKeys(coroutine, keys); }));
             return keys;
           })
      .def("frame_report",
           [](const Program &program, const std::string &coroutine) {
             std::string json;
             check(callNative(
                 [&] { return program.getFrameReport(coroutine, json); }));
             return json;
           })
      .def("transition_graph",
           [](const Program &program, const std::string &coroutine) {
             std::string dot, json;
             check(callNative([&] {
               return program.getTransitionGraph(coroutine, dot, json);
             }));
             return py::make_tuple(dot, json);
           })
      .def(
          "compile",
          [](const Program &program, const std::string &coroutine,
             const std::string &scheduler, const std::string &options,
             const Device *device, const std::string &target,
             bool checkBounds) {
            CompileRequest request;
            request.checkBounds = checkBounds;
            request.coroutine = coroutine;
            request.scheduler = scheduler;
            request.options = options;
            request.device = device;
            request.target = target;
            std::unique_ptr<Compiled> compiled;
            check(
                callNative([&] { return program.compile(request, compiled); }));
            return compiled;
          },
          py::arg("coroutine"), py::arg("scheduler"), py::arg("options"),
          py::arg("device"), py::arg("target") = "spirv",
          py::arg("check_bounds") = false,
          // The compiled kernels' types and plan live in the program's
          // context.
          py::keep_alive<0, 1>())
      .def(
          "run",
          [](const Program &program, Device &device, Compiled &compiled,
             std::array<uint32_t, 3> grid, const py::list &arguments,
             bool check, double tolerance, unsigned repeat, uint64_t maxRounds,
             double timeLimit, uint64_t capacity) {
            RunRequest request;
            request.grid = grid;
            request.arguments = getArgumentValues(arguments);
            request.check =
                check ? CheckReference::Megakernel : CheckReference::None;
            request.tolerance = tolerance;
            request.repeat = repeat;
            request.maxRounds = maxRounds;
            request.timeLimit = timeLimit;
            request.capacity = capacity;
            auto output = std::make_unique<RunOutput>();
            ::check(callNative([&] {
              return program.run(device, compiled, request, *output);
            }));
            return output;
          },
          py::arg("device"), py::arg("compiled"), py::arg("grid"),
          py::arg("arguments"), py::arg("check") = false,
          py::arg("tolerance") = 1e-5, py::arg("repeat") = 1,
          py::arg("max_rounds") = 0, py::arg("time_limit") = 300.0,
          py::arg("capacity") = 0);
}

# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kernels: a translated coroutine, compiled (cached) and run through the
Runner library.

A `Kernel` is the front end's definition of a `@corogpu.coroutine` (a
KernelDef: its function, parameters and translation) that also runs. Its
module is parsed once, in its own MLIR context; each (scheduler, options,
device or target) is compiled once. Calling it runs the coroutine over a grid
on the default device (`corogpu.device()`): NumPy arrays in, the same arrays
updated in place and returned.
"""

import json
import math
import os
import statistics

import numpy as np

from . import _corogpu
from .frontend.kernel import KernelDef
from .errors import (BoundsError, CheckMismatch, DeviceError, LimitExceeded,
                     PassError, RunError, ShapeError)

_corogpu._set_exceptions(PassError, ValueError, DeviceError, LimitExceeded,
                         CheckMismatch, ShapeError, BoundsError)

SCHEDULERS = tuple(_corogpu.scheduler_names())

_devices = {}


def get_device(backend=None, validation=None):
    """The device kernels run on, opened once per backend.

    backend: "vulkan" (the default, or $COROGPU_BACKEND) or "cuda".
    validation: the Khronos validation layer on Vulkan (default: on when
    $COROGPU_VULKAN_VALIDATION is 1, as in the tests).
    """
    backend = backend or os.environ.get("COROGPU_BACKEND", "vulkan")
    if validation is None:
        validation = os.environ.get("COROGPU_VULKAN_VALIDATION") == "1"
    key = (backend, bool(validation))
    if key not in _devices:
        _devices[key] = _corogpu.Device.open(backend, bool(validation))
    return _devices[key]


def _option_text(options):
    """Keyword options (sort_by="band", layout="soa") as the pipelines'
    option text ("sort-by=band layout=soa"); the names are checked there,
    against their one declaration."""
    words = []
    for name, value in sorted(options.items()):
        if isinstance(value, bool):
            value = "true" if value else "false"
        words.append(f"{name.replace('_', '-')}={value}")
    return " ".join(words)


def _grid(grid):
    if isinstance(grid, (int, np.integer)):
        grid = (int(grid),)
    grid = tuple(int(extent) for extent in grid)
    if not 1 <= len(grid) <= 3 or any(extent < 1 for extent in grid):
        raise TypeError(f"grid must be 1 to 3 positive extents, got {grid}")
    return grid + (1,) * (3 - len(grid))


class Run:
    """One run: the buffers after it, what the scheduler did, the times."""

    def __init__(self, kernel, scheduler, output, arrays):
        self.kernel = kernel
        self.scheduler = scheduler
        self.buffers = arrays
        self.checked = output.checked
        #: Milliseconds: upload, run (host loop, wall clock), gpu, download.
        self.timing = {
            "upload": output.upload_ms,
            "run": output.run_ms,
            "gpu": output.gpu_ms,
            "download": output.download_ms,
        }
        #: The GPU time of each repeated run.
        self.gpu_times = list(output.gpu_times)
        #: What the scheduler did, as `coro-run --json` reports it (rounds,
        #: launches, instances per subroutine, per-kernel times).
        self.stats = json.loads(output.stats_json)
        #: The same as `coro-run --scheduler-stats` prints it.
        self.stats_text = output.stats_text

    def __repr__(self):
        return (f"<corogpu.Run {self.kernel.name} under {self.scheduler}: "
                f"GPU {self.timing['gpu']:.3f} ms>")


class Compiled:
    """A kernel compiled for a device or a target under a scheduler."""

    def __init__(self, native):
        self._native = native
        self.scheduler = native.scheduler
        self.target = native.target

    @property
    def image(self):
        """SPIR-V (bytes) or PTX (text)."""
        image = self._native.image
        return image if self.target == "spirv" else image.decode()

    @property
    def plan(self):
        """The scheduler's plan, a `#coro_plan` attribute."""
        return self._native.plan


class Kernel(KernelDef):
    """A `@corogpu.coroutine` (or `@corogpu.func`): the front end's
    definition, plus compiling, running and reports."""

    def __init__(self, pyfunc, kind):
        super().__init__(pyfunc, kind)
        self._program = None
        self._compiled = {}
        self._arguments = None
        #: The last run of this kernel (a Run), or None.
        self.last_run = None

    # The module ---------------------------------------------------------

    def mlir(self):
        """The kernel's module as MLIR text (coro dialect, with the Python
        file:line:col of every op)."""
        return self.translate().text

    def _get_program(self):
        if self.kind != "coroutine":
            raise TypeError(f"'{self.name}' is a @corogpu.func: kernels call "
                            f"it; only coroutines compile and run")
        if self._program is None:
            translation = self.translate()
            self._program = _corogpu.Program.parse(translation.text)
            self._entry = translation.entry
        return self._program

    def _get_arguments(self):
        if self._arguments is None:
            self._arguments = self._get_program().arguments(self._entry)
        return self._arguments

    # Compiling -----------------------------------------------------------

    def compile(self, scheduler="megakernel", target=None, device=None,
                check_bounds=False, **options):
        """Compiles under `scheduler` with the schedulers' `options`
        (`sort_by="band"`, `layout="soa"`, ... as `coro-to-spirv` names
        them, `_` for `-`), for `target` ("spirv" or an NVIDIA chip such as
        "sm_90", with a GPU's defaults) or else for `device` (default: the
        default device, with its defaults). check_bounds: every memory
        access checked at run time (coro-check-bounds). Cached."""
        if scheduler not in SCHEDULERS:
            raise ValueError(f"scheduler '{scheduler}' is not one of "
                             f"{', '.join(SCHEDULERS)}")
        program = self._get_program()
        text = _option_text(options)
        on = None if target else (device or get_device())
        key = (scheduler, text, target, id(on), check_bounds)
        if key not in self._compiled:
            self._compiled[key] = Compiled(
                program.compile(self._entry, scheduler, text, on,
                                target or "spirv", check_bounds))
        return self._compiled[key]

    # Running ---------------------------------------------------------------

    def _convert(self, args):
        """The call's arguments as the native runner takes them, checked
        against the coroutine's signature: a TypeError before compiling."""
        infos = self._get_arguments()
        params = [name for name, _ in self.params]
        if len(args) != len(infos):
            raise TypeError(f"{self.name}() takes {len(infos)} arguments "
                            f"({', '.join(params)}), {len(args)} given")
        converted, buffers = [], []
        for name, info, value in zip(params, infos, args):
            where = f"{self.name}(): argument '{name}' ({info.type})"
            if info.unsupported:
                raise TypeError(f"{where}: {info.unsupported}")
            dtype = np.dtype(info.dtype)
            if info.is_buffer:
                if not isinstance(value, np.ndarray):
                    raise TypeError(f"{where} takes a NumPy array of "
                                    f"{dtype}, not {type(value).__name__}")
                if value.dtype != dtype:
                    raise TypeError(f"{where} takes a NumPy array of "
                                    f"{dtype}, not of {value.dtype}")
                if value.size == 0:
                    raise TypeError(f"{where}: the array is empty")
                static = _static_size(info.type)
                if static is not None and value.size != static:
                    raise TypeError(f"{where} takes {static} elements, the "
                                    f"array has {value.size}")
                contiguous = np.ascontiguousarray(value)
                converted.append((True, contiguous.reshape(-1)))
                buffers.append(value)
                continue
            converted.append((False, _scalar(value, dtype, info.lanes,
                                             where)))
        return converted, buffers

    def run(self, grid, *args, scheduler="megakernel", check=False,
            check_bounds=False, repeat=1, tolerance=1e-5, max_rounds=0,
            time_limit=300, capacity=0, device=None, **options):
        """Runs over `grid` (an int or up to 3 extents) under `scheduler`
        and returns a Run. Buffers (NumPy arrays) are updated in place.

        check: also run the mega-kernel (every suspension erased) and
        compare every buffer; a difference raises CheckMismatch.
        check_bounds: check every memory access; accesses out of bounds
        raise BoundsError naming their Python lines (without it, an array
        smaller than the grid where the instance id indexes it is a
        ShapeError before the run).
        repeat: runs from the same buffers, the median GPU time kept.
        max_rounds, time_limit, capacity: the host loops' limits and the
        wavefront's slot count (0: defaults). Other keywords are the
        schedulers' options (see `compile`)."""
        grid = _grid(grid)
        converted, arrays = self._convert(args)
        on = device or get_device()
        compiled = self.compile(scheduler, device=on,
                                check_bounds=check_bounds, **options)
        output = self._get_program().run(
            on, compiled._native, grid, converted, check=check,
            tolerance=tolerance, repeat=repeat, max_rounds=max_rounds,
            time_limit=time_limit, capacity=capacity)
        for array, data in zip(arrays, output.buffers):
            result = np.frombuffer(data, dtype=array.dtype)
            array[...] = result[:array.size].reshape(array.shape)
        self.last_run = Run(self, scheduler, output, arrays)
        return self.last_run

    def __call__(self, grid, *args, **keywords):
        """Runs the kernel (see `run`) and returns its buffers: the NumPy
        arrays passed, updated in place; one array, or a tuple of them."""
        run = self.run(grid, *args, **keywords)
        if len(run.buffers) == 1:
            return run.buffers[0]
        return tuple(run.buffers)

    @property
    def stats(self):
        """The last run's scheduler statistics (a dict), or None."""
        return self.last_run.stats if self.last_run else None

    def tune(self, grid, *args, repeat=3, configurations=None, device=None,
             verbose=False):
        """Runs the kernel under every scheduler (and the wavefront sorted by
        each integer promise), each checked against the mega-kernel, and
        returns them ranked by median GPU time: a list of dicts with
        `scheduler`, `options`, `gpu_ms`, `vs_megakernel` and `error` (a
        configuration that failed is ranked last with its message). The
        buffers passed are left as they were."""
        if configurations is None:
            configurations = [(scheduler, {}) for scheduler in SCHEDULERS]
            for key in self._get_program().sort_keys(self._entry):
                configurations.append(("wavefront", {"sort_by": key}))
        originals = [np.copy(a) if isinstance(a, np.ndarray) else a
                     for a in args]
        ranked = []
        for scheduler, options in configurations:
            fresh = [np.copy(a) if isinstance(a, np.ndarray) else a
                     for a in originals]
            entry = {"scheduler": scheduler, "options": dict(options),
                     "gpu_ms": math.inf, "error": None}
            try:
                run = self.run(grid, *fresh, scheduler=scheduler,
                               check=scheduler != "megakernel",
                               repeat=repeat, device=device, **options)
                entry["gpu_ms"] = statistics.median(run.gpu_times)
            except (RunError, PassError, ValueError) as error:
                entry["error"] = str(error)
            ranked.append(entry)
            if verbose:
                print(f"tune: {scheduler} {_option_text(options)}: "
                      f"{entry['gpu_ms']:.3f} ms"
                      + (f" ({entry['error']})" if entry["error"] else ""))
        mega = next((e["gpu_ms"] for e in ranked
                     if e["scheduler"] == "megakernel" and not e["options"]),
                    None)
        for entry in ranked:
            entry["vs_megakernel"] = (entry["gpu_ms"] / mega
                                      if mega and math.isfinite(mega)
                                      else None)
        ranked.sort(key=lambda e: e["gpu_ms"])
        return ranked

    # Reports ---------------------------------------------------------------

    def frame_report(self):
        """The frame layout after the split (coro-frame-report's JSON as a
        dict): size naive, after each reduction, final, the lower bound, and
        every field with its offset and the subroutines that use it."""
        return json.loads(self._get_program().frame_report(self._entry))

    def transition_graph(self):
        """The split's transition graph as Graphviz DOT (coro-dump-graph):
        one node per subroutine, one edge per transition."""
        dot, _ = self._get_program().transition_graph(self._entry)
        return dot

    def split_summary(self):
        """coro-dump-graph's JSON as a dict: ops before and after the split,
        frame fields and bytes, the subroutines and transitions."""
        _, summary = self._get_program().transition_graph(self._entry)
        return json.loads(summary)


def _static_size(memref_type):
    """The element count of a static memref type, or None for `?`."""
    inner = memref_type[len("memref<"):].split("x")[0]
    return int(inner) if inner.isdigit() else None


def _scalar(value, dtype, lanes, where):
    """A scalar (or a small vector of `lanes`) as the bytes of `dtype`."""
    if lanes > 1:
        values = np.asarray(value)
        if values.shape != (lanes,):
            raise TypeError(f"{where} takes {lanes} values, got "
                            f"{np.shape(value) or type(value).__name__}")
        return np.array([_scalar(v, dtype, 1, where)[0] for v in values],
                        dtype=dtype)
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if dtype.kind == "b":
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{where} takes a bool, not "
                            f"{type(value).__name__}")
    elif dtype.kind in "iu":
        if isinstance(value, (bool, np.bool_)) or not isinstance(
                value, (int, np.integer)):
            raise TypeError(f"{where} takes an integer, not "
                            f"{type(value).__name__}")
        # MLIR integers are signless: an i32 argument takes the values of
        # an int32 and of a uint32 (a u32 parameter).
        info = np.iinfo(dtype)
        if not -(1 << (info.bits - 1)) <= int(value) < (1 << info.bits):
            raise TypeError(f"{where}: {value} does not fit {info.bits} bits")
        value = int(value) - (1 << info.bits) if int(value) > info.max \
            else int(value)
    elif dtype.kind == "f":
        if not isinstance(value, (int, float, np.integer, np.floating)) or \
                isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{where} takes a number, not "
                            f"{type(value).__name__}")
    return np.array([value], dtype=dtype)

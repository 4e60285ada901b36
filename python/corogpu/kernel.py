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


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(
        value, (bool, np.bool_))


def _grid(grid):
    """(x, y, z) from an int or up to 3 extents, each in [1, 2^32)."""
    extents = (grid,) if _is_int(grid) else grid
    if not isinstance(extents, (tuple, list)) or not 1 <= len(extents) <= 3 \
            or not all(_is_int(e) and 1 <= e < (1 << 32) for e in extents):
        raise TypeError(f"grid must be an int or a tuple of 1 to 3 ints, "
                        f"each in [1, 2^32), not {grid!r}")
    extents = tuple(int(e) for e in extents)
    return extents + (1,) * (3 - len(extents))


def _check_run_options(**options):
    """The host loops' keywords: counts are ints, limits numbers, none
    negative (repeat at least 1)."""
    for name, value in options.items():
        number = name in ("tolerance", "time_limit")
        if number:
            valid = isinstance(value, (int, float, np.integer, np.floating)) \
                and not isinstance(value, (bool, np.bool_))
        else:
            valid = _is_int(value)
        if not valid:
            raise TypeError(f"{name} takes {'a number' if number else 'an int'}"
                            f", not {type(value).__name__}")
        least = 1 if name == "repeat" else 0
        if value < least or (not number and value >= 1 << 63):
            raise ValueError(f"{name}={value}: it must be at least {least}")


def _option_text(options):
    """Keyword options (sort_by="band", layout="soa") as the pipelines'
    option text ("sort-by=band layout=soa"); the names and values are
    checked there, against their one declaration."""
    words = []
    for name, value in sorted(options.items()):
        if isinstance(value, bool):
            value = "true" if value else "false"
        text = str(value)
        if not text or any(c.isspace() or c in "={}'\"" for c in text):
            raise ValueError(f"{name}={value!r}: an option's value is one "
                             f"word (no spaces, quotes, '=' or braces)")
        words.append(f"{name.replace('_', '-')}={text}")
    return " ".join(words)


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

    def _convert(self, args, device):
        """The call's arguments as the native runner takes them, checked
        against the coroutine's signature: a TypeError before compiling."""
        infos = self._get_arguments()
        params = self.params
        if len(args) != len(infos):
            names = ", ".join(name for name, _ in params)
            raise TypeError(f"{self.name}() takes {len(infos)} arguments "
                            f"({names}), {len(args)} given")
        converted, buffers = [], []
        for (name, declared), info, value in zip(params, infos, args):
            where = f"{self.name}(): argument '{name}' ({declared})"
            if info.unsupported:
                raise TypeError(f"{where}: {info.unsupported}")
            # The front end's type: a u32 is an MLIR i32 taken from a
            # uint32 array or a value in [0, 2^32).
            elem = getattr(declared, "elem", declared)
            dtype = getattr(elem, "dtype", None) or np.dtype(info.dtype)
            if info.is_buffer:
                if not isinstance(value, np.ndarray):
                    raise TypeError(f"{where} takes a NumPy array of "
                                    f"{dtype}, not {type(value).__name__}")
                if value.dtype != dtype:
                    raise TypeError(f"{where} takes a NumPy array of "
                                    f"{dtype}, not of {value.dtype}")
                if value.size == 0:
                    raise TypeError(f"{where}: the array is empty")
                if not value.flags.writeable:
                    raise TypeError(f"{where}: the array is read-only, and "
                                    f"the results are written back into it")
                static = _static_size(info.type)
                if static is not None and value.size != static:
                    raise TypeError(f"{where} takes {static} elements, the "
                                    f"array has {value.size}")
                contiguous = np.ascontiguousarray(value)
                converted.append((True, contiguous.reshape(-1).view(
                    np.dtype(info.dtype))))
                buffers.append(value)
                continue
            # An index is 32 bits in SPIR-V kernels, 64 in PTX ones.
            bits = 32 if info.type == "index" and device.target == "spirv" \
                else None
            converted.append((False, _scalar(value, np.dtype(info.dtype),
                                             info.lanes, where, elem, bits)))
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
        _check_run_options(repeat=repeat, tolerance=tolerance,
                           max_rounds=max_rounds, time_limit=time_limit,
                           capacity=capacity)
        on = device or get_device()
        converted, arrays = self._convert(args, on)
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


def _scalar(value, dtype, lanes, where, elem=None, bits=None):
    """A scalar (or a small vector of `lanes`) as the bytes of `dtype`,
    checked against the front end's type `elem` (a u32 takes [0, 2^32), an
    i32 [-2^31, 2^31)) and, for an index, the kernel's `bits`."""
    if lanes > 1:
        values = np.asarray(value)
        if values.shape != (lanes,):
            raise TypeError(f"{where} takes {lanes} values, got "
                            f"{np.shape(value) or type(value).__name__}")
        return np.concatenate([_scalar(v, dtype, 1, where, elem, bits)
                               for v in values.tolist()])
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    if dtype.kind == "b":
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{where} takes a bool, not "
                            f"{type(value).__name__}")
    elif dtype.kind in "iu":
        if not _is_int(value):
            raise TypeError(f"{where} takes an integer, not "
                            f"{type(value).__name__}")
        width = bits or dtype.itemsize * 8
        unsigned = getattr(elem, "kind", None) == "uint"
        low, high = (0, 1 << width) if unsigned else \
            (-(1 << (width - 1)), 1 << (width - 1))
        if not low <= int(value) < high:
            raise TypeError(f"{where}: {value} is outside [{low}, {high})")
        # The bits of a u32 as the MLIR i32 they are.
        value = int(value) - (1 << (dtype.itemsize * 8)) \
            if int(value) > np.iinfo(dtype).max else int(value)
    elif dtype.kind == "f":
        if not isinstance(value, (int, float, np.integer, np.floating)) or \
                isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{where} takes a number, not "
                            f"{type(value).__name__}")
    return np.array([value], dtype=dtype)

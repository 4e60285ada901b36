# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""GPU coroutines from Python.

    import numpy as np
    import corogpu
    from corogpu import Buffer, f32, i32

    @corogpu.coroutine
    def scale(k: f32, data: Buffer[f32]):
        i = corogpu.id()
        corogpu.suspend("halfway")
        data[i] = data[i] * k

    data = np.arange(64, dtype=np.float32)
    scale(64, 2.0, data, scheduler="wavefront", check=True)

A `@corogpu.coroutine` is translated from its Python AST into the `coro`
MLIR dialect (`scale.mlir()`), split at its suspension points and compiled
by CoroGPU's pipelines for the scheduler asked for, then run through the
Runner library on the default device (`corogpu.device()`: Vulkan, or CUDA
with COROGPU_BACKEND=cuda). docs/python.md has the language subset and the
API.
"""

from .frontend import kernel as _frontend_kernel
from .frontend.dsl import BUILTINS as _BUILTINS
from .frontend.types import (Buffer, Generator, LocalArray, boolean, f16, f32,
                             f64, float2, float3, float4, i32, i64, index,
                             int2, int3, int4, uint2, uint3, uint4, u32)
from .errors import (BoundsError, CheckMismatch, CompileError, DeviceError,
                     LimitExceeded, PassError, RunError, ShapeError)
from .kernel import SCHEDULERS, Compiled, Kernel, Run
from .kernel import get_device as device

# The functions kernels call (id, suspend, promise, math, vectors, atomics,
# handles, local arrays): corogpu.sqrt, corogpu.suspend, ...
globals().update(_BUILTINS)


def coroutine(fn):
    """Decorator: `fn` becomes a coroutine (a `coro.func`; a generator if
    it contains `yield`). Call it as `fn(grid, *args, scheduler=...,
    check=..., **options)` to run it; see Kernel."""
    if isinstance(fn, _frontend_kernel.KernelDef):
        raise TypeError(f"'{fn.name}' is already a corogpu {fn.kind}")
    return Kernel(fn, "coroutine")


def func(fn):
    """Decorator: `fn` becomes a helper function that kernels call (a
    `func.func`, inlined before the split; it may not suspend)."""
    if isinstance(fn, _frontend_kernel.KernelDef):
        raise TypeError(f"'{fn.name}' is already a corogpu {fn.kind}")
    return Kernel(fn, "func")


__all__ = [
    "BoundsError", "Buffer", "CheckMismatch", "CompileError", "Compiled", "DeviceError",
    "Generator", "Kernel", "LimitExceeded", "LocalArray", "PassError", "Run", "RunError",
    "SCHEDULERS", "ShapeError", "boolean", "coroutine", "device", "f16", "f32", "f64",
    "float2", "float3", "float4", "func", "i32", "i64", "index", "int2",
    "int3", "int4", "u32", "uint2", "uint3", "uint4",
] + sorted(name for name in _BUILTINS
           # `from corogpu import *` leaves Python's id, abs, min, max and
           # pow alone; corogpu.min and the others stay there.
           if name not in __builtins__)

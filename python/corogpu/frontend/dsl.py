# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The functions kernels call. They are translated to MLIR ops by
translate.py (which finds them by identity, so `corogpu.sqrt`, `from
corogpu import sqrt` and an alias all work); called from plain Python they
raise a RuntimeError.

Coroutines: id, suspend, promise; handles: create, resume, done, target,
handle_id, handle_promise, store_handle, load_handle, frame_words.
Memory: local_array, atomic_add/min/max/exchange/and/or.
Math (scalars and vectors of floats; min/max/abs/clamp/select on ints too):
sqrt rsqrt exp exp2 log log2 sin cos tan atan2 pow abs floor ceil fract
min max clamp select fma; vectors: dot cross normalize length.
"""

BUILTINS = {}


def _builtin(fn):
    name = fn.__name__

    def stub(*args, **kwargs):
        raise RuntimeError(
            f"corogpu.{name}() can only be called inside a @corogpu.coroutine "
            f"or @corogpu.func (it is translated to MLIR, not run by Python)")

    stub.__name__ = name
    stub.__qualname__ = name
    stub.__doc__ = fn.__doc__
    stub._corogpu_builtin = name
    BUILTINS[name] = stub
    return stub


# --- coroutines ------------------------------------------------------------

@_builtin
def id(dim=None):
    """The instance's index in the grid (index): linear without `dim`, else
    its x (0), y (1) or z (2) component. coro.id"""


@_builtin
def suspend(tag=None):
    """A suspension point, optionally tagged. coro.suspend"""


@_builtin
def promise(name, value):
    """Stores `value` in the named frame field. coro.promise"""


# --- handles (paper Sec. 4.1.3-4.1.4) --------------------------------------

@_builtin
def create(coroutine, instance):
    """A new frame of `coroutine` for instance `instance`. coro.handle.create"""


@_builtin
def resume(handle, *args, at=None, token=None):
    """Runs one subroutine of the handle's coroutine with its arguments:
    the one its target token names, the one after tag `at`, or that of
    `token`. coro.handle.resume"""


@_builtin
def done(handle):
    """Whether the handle's coroutine returned (boolean). coro.handle.done"""


@_builtin
def target(handle):
    """The handle's target token (i32). coro.handle.target"""


@_builtin
def handle_id(handle):
    """The instance index the handle was created for (index). coro.handle.id"""


@_builtin
def handle_promise(handle, name, type):
    """The handle's promise field `name`, of `type`. coro.handle.promise"""


@_builtin
def store_handle(handle, frames, index, count, aos=False):
    """Stores the frame into slot `index` of a Buffer[i32] of `count`
    frames. coro.handle.store"""


@_builtin
def load_handle(coroutine, frames, index, count, aos=False):
    """A frame of `coroutine` loaded from slot `index` of a Buffer[i32] of
    `count` frames. coro.handle.load"""


@_builtin
def frame_words(coroutine):
    """32-bit words per frame of `coroutine` (index).
    coro.handle.frame_words"""


# --- memory ------------------------------------------------------------------

@_builtin
def local_array(type, shape, fill=0):
    """A thread-private array of `shape` (an int or a tuple) elements of
    `type`, every element `fill` (None: left uninitialized, as
    memref.alloca leaves it). memref.alloca"""


@_builtin
def atomic_add(buffer, index, value):
    """buffer[index] += value, atomically; returns the old value."""


@_builtin
def atomic_min(buffer, index, value):
    """buffer[index] = min(buffer[index], value), atomically; the old value."""


@_builtin
def atomic_max(buffer, index, value):
    """buffer[index] = max(buffer[index], value), atomically; the old value."""


@_builtin
def atomic_exchange(buffer, index, value):
    """buffer[index] = value, atomically; returns the old value."""


@_builtin
def atomic_and(buffer, index, value):
    """buffer[index] &= value, atomically; returns the old value."""


@_builtin
def atomic_or(buffer, index, value):
    """buffer[index] |= value, atomically; returns the old value."""


# --- math --------------------------------------------------------------------

@_builtin
def sqrt(x):
    """Square root."""


@_builtin
def rsqrt(x):
    """1 / sqrt(x)."""


@_builtin
def exp(x):
    """e ** x."""


@_builtin
def exp2(x):
    """2 ** x."""


@_builtin
def log(x):
    """Natural logarithm."""


@_builtin
def log2(x):
    """Base-2 logarithm."""


@_builtin
def sin(x):
    """Sine."""


@_builtin
def cos(x):
    """Cosine."""


@_builtin
def tan(x):
    """Tangent."""


@_builtin
def atan2(y, x):
    """Angle of (x, y)."""


@_builtin
def pow(x, y):
    """x ** y (floats)."""


@_builtin
def abs(x):
    """Absolute value (ints and floats)."""


@_builtin
def floor(x):
    """Largest integer value not above x (floats)."""


@_builtin
def ceil(x):
    """Smallest integer value not below x (floats)."""


@_builtin
def fract(x):
    """x - floor(x)."""


@_builtin
def min(a, b):
    """The smaller of a and b."""


@_builtin
def max(a, b):
    """The larger of a and b."""


@_builtin
def clamp(x, lo, hi):
    """min(max(x, lo), hi)."""


@_builtin
def select(cond, a, b):
    """a if cond else b, both evaluated (arith.select)."""


@_builtin
def fma(a, b, c):
    """a * b + c, fused."""


@_builtin
def dot(a, b):
    """Dot product of two vectors."""


@_builtin
def cross(a, b):
    """Cross product of two 3-vectors."""


@_builtin
def normalize(v):
    """v / length(v)."""


@_builtin
def length(v):
    """Euclidean length of a vector."""

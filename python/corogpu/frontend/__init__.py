# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The corogpu Python front end: restricted Python functions to coro-dialect
MLIR text (pure Python; no MLIR bindings needed).

    from corogpu.frontend import coroutine, suspend, id, Buffer, f32, i32

    @coroutine
    def scale(k: f32, data: Buffer[f32]):
        i = id()
        x = data[i] * k
        suspend("write")
        data[i] = x

    print(scale.translate().text)     # coro.func @scale(...) { ... }

The subset: parameters annotated with the types; assignments (tuple swaps
included), augmented and annotated ones; if/elif/else, while, `for` over
range() (a constant step) or a generator call (coro.for_each), break,
continue, return anywhere; arithmetic with Python's semantics for `//` and
`%` (unsigned for u32), comparisons (chains), short-circuit and/or/not,
conditional expressions; vectors (constructors, swizzles, component
writes, arithmetic with scalars); buffers and local arrays (zero-filled by
default) indexed with integers; atomics; math; `@func` helpers
(func.call); awaits (a bare call of a coroutine), generators (`yield`),
promises, suspensions and handles; ints, floats, bools and NumPy scalars
of the enclosing scopes as constants (`if DEBUG:` is folded). Types never
change implicitly (a literal takes its neighbour's type, and must fit in
it: `u32(-1)`, `i32(0xFFFFFFFF)` convert explicitly, and wrap); a variable
must be assigned on every path before it is read. After a range loop, its
variable holds the last value it took, or the one before the loop when the
loop did not run, so it is defined only if it was assigned before the
loop; after a generator loop, its variable is not defined, even if it was
assigned before the loop. Anything else is a CompileError at its line.

Modules: types (the types), dsl (the functions kernels call), kernel (the
decorators, KernelDef, Translation), translate (the AST translator: the
module and a function's core; statements, expressions, values, calls and
math calls in their own modules over shared), ir (the IR builder and SSA
construction), errors (CompileError).
"""

from .errors import CompileError
from .kernel import KernelDef, Translation, coroutine, func
from .types import (Buffer, BufferType, Generator, GeneratorType, HandleType,
                    LocalArray, LocalArrayType, ScalarType, Type, VectorType,
                    boolean, f16, f32, f64, float2, float3, float4, i32, i64,
                    index, int2, int3, int4, u32, uint2, uint3, uint4)
from .dsl import (abs, atan2, atomic_add, atomic_and, atomic_exchange,
                  atomic_max, atomic_min, atomic_or, ceil, clamp, cos, create,
                  cross, done, dot, exp, exp2, floor, fma, fract, frame_words,
                  handle_id, handle_promise, id, length, load_handle,
                  local_array, log, log2, max, min, normalize, pow, promise,
                  resume, rsqrt, select, sin, sqrt, store_handle, suspend,
                  tan, target)

__all__ = [
    # kernels
    "coroutine", "func", "KernelDef", "Translation", "CompileError",
    # types
    "Type", "ScalarType", "VectorType", "BufferType", "LocalArrayType",
    "GeneratorType", "HandleType", "Buffer", "LocalArray", "Generator",
    "i32", "u32", "i64", "f16", "f32", "f64", "boolean", "index",
    "float2", "float3", "float4", "int2", "int3", "int4",
    "uint2", "uint3", "uint4",
    # coroutines and handles
    "id", "suspend", "promise", "create", "resume", "done", "target",
    "handle_id", "handle_promise", "store_handle", "load_handle",
    "frame_words",
    # memory
    "local_array", "atomic_add", "atomic_min", "atomic_max",
    "atomic_exchange", "atomic_and", "atomic_or",
    # math
    "sqrt", "rsqrt", "exp", "exp2", "log", "log2", "sin", "cos", "tan",
    "atan2", "pow", "abs", "floor", "ceil", "fract", "min", "max", "clamp",
    "select", "fma", "dot", "cross", "normalize", "length",
]

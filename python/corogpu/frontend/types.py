# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The types of corogpu kernels: what parameters are annotated with, what
values have, and their MLIR spellings.

    scalars   i32 u32 i64 f16 f32 f64 boolean index   (.mlir, .dtype)
    vectors   float2..4 int2..4 uint2..4               (vector<Nxf32>, vector<Nxi32>)
    buffers   Buffer[f32]                              (memref<?xf32>, a 1-D NumPy array)
    arrays    LocalArray[f32, 16]                      (memref<16xf32>, local_array())
    results   Generator[i32]                           (a generator's yield type)

`u32` is MLIR `i32` with unsigned semantics (divui, remui, unsigned
compares, shrui, uitofp, extui); `uint3` is `vector<3xi32>` likewise.
Calling a scalar or vector type inside a kernel converts or constructs
(`f32(n)`, `float3(x, y, z)`, `float3(s)`); outside a kernel it is an error.
"""

_DTYPES = {}


def _outside(name):
    raise RuntimeError(
        f"corogpu.{name}() can only be called inside a @corogpu.coroutine or "
        f"@corogpu.func (it is translated to MLIR, not run by Python)")


class Type:
    """Base of corogpu types: `.mlir` is the MLIR type text."""
    name = "?"
    mlir = "?"

    def __repr__(self):
        return self.name

    __str__ = __repr__


class ScalarType(Type):
    """A scalar: kind is 'sint', 'uint', 'float', 'bool' or 'index'."""

    def __init__(self, name, mlir, kind, bits, dtype):
        self.name = name
        self.mlir = mlir
        self.kind = kind
        self.bits = bits
        self._dtype = dtype

    @property
    def dtype(self):
        import numpy
        return numpy.dtype(self._dtype)

    @property
    def is_int(self):
        return self.kind in ("sint", "uint", "index")

    @property
    def is_signed(self):
        return self.kind in ("sint", "index")

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def is_bool(self):
        return self.kind == "bool"

    @property
    def elem(self):
        return self

    def __call__(self, *args):
        _outside(self.name)


i32 = ScalarType("i32", "i32", "sint", 32, "int32")
u32 = ScalarType("u32", "i32", "uint", 32, "uint32")
i64 = ScalarType("i64", "i64", "sint", 64, "int64")
f16 = ScalarType("f16", "f16", "float", 16, "float16")
f32 = ScalarType("f32", "f32", "float", 32, "float32")
f64 = ScalarType("f64", "f64", "float", 64, "float64")
boolean = ScalarType("boolean", "i1", "bool", 1, "bool")
# `index` is 64 bits on the host and in PTX kernels, 32 in SPIR-V ones.
index = ScalarType("index", "index", "index", 64, "int64")

SCALARS = [i32, u32, i64, f16, f32, f64, boolean, index]


class VectorType(Type):
    """A short vector of `count` scalars of `elem`."""

    def __init__(self, name, elem, count):
        self.name = name
        self.elem = elem
        self.count = count
        self.mlir = f"vector<{count}x{elem.mlir}>"

    @property
    def kind(self):
        return self.elem.kind

    @property
    def dtype(self):
        return self.elem.dtype

    def __call__(self, *args):
        _outside(self.name)


_VECTORS = {}


def vector_type(elem, count):
    """The vector type of `count` elements of `elem` (float3 for f32, 3)."""
    key = (elem.name, count)
    if key not in _VECTORS:
        prefix = {"f32": "float", "i32": "int", "u32": "uint"}.get(
            elem.name, f"vec_{elem.name}_")
        _VECTORS[key] = VectorType(f"{prefix}{count}", elem, count)
    return _VECTORS[key]


float2, float3, float4 = (vector_type(f32, n) for n in (2, 3, 4))
int2, int3, int4 = (vector_type(i32, n) for n in (2, 3, 4))
uint2, uint3, uint4 = (vector_type(u32, n) for n in (2, 3, 4))


class BufferType(Type):
    """A 1-D buffer (NumPy array) of `elem`: memref<?xT>."""

    def __init__(self, elem):
        self.elem = elem
        self.name = f"Buffer[{elem.name}]"
        self.mlir = f"memref<?x{elem.mlir}>"


_BUFFERS = {}


class Buffer:
    """`Buffer[f32]`: the annotation of a buffer parameter."""

    def __class_getitem__(cls, elem):
        if not isinstance(elem, ScalarType) or elem in (index,):
            raise TypeError(f"Buffer[{elem!r}]: a buffer holds i32, u32, "
                            f"i64, f16, f32, f64 or boolean elements")
        if elem.name not in _BUFFERS:
            _BUFFERS[elem.name] = BufferType(elem)
        return _BUFFERS[elem.name]


class LocalArrayType(Type):
    """A thread-private array with a static shape: memref<16xf32>."""

    def __init__(self, elem, shape):
        self.elem = elem
        self.shape = tuple(shape)
        dims = "x".join(str(d) for d in self.shape)
        self.name = f"LocalArray[{elem.name}, {self.shape if len(self.shape) > 1 else self.shape[0]}]"
        self.mlir = f"memref<{dims}x{elem.mlir}>"


_ARRAYS = {}


def local_array_type(elem, shape):
    if isinstance(shape, int):
        shape = (shape,)
    key = (elem.name, tuple(shape))
    if key not in _ARRAYS:
        _ARRAYS[key] = LocalArrayType(elem, shape)
    return _ARRAYS[key]


class LocalArray:
    """`LocalArray[f32, 16]` (or `[f32, (3, 4)]`): the annotation of a
    local-array parameter of an awaited coroutine or a @func helper."""

    def __class_getitem__(cls, key):
        if not isinstance(key, tuple) or len(key) != 2:
            raise TypeError("use LocalArray[ELEMENT_TYPE, SIZE]")
        elem, shape = key
        if not isinstance(elem, (ScalarType, VectorType)):
            raise TypeError(f"LocalArray[{elem!r}, ...]: not an element type")
        return local_array_type(elem, shape)


class GeneratorType(Type):
    """`-> Generator[i32]`: a generator's yield type, when it is not left to
    be inferred from its `yield`s."""

    def __init__(self, elem):
        self.elem = elem
        self.name = f"Generator[{elem.name}]"
        self.mlir = elem.mlir


class Generator:
    def __class_getitem__(cls, elem):
        if not isinstance(elem, (ScalarType, VectorType)):
            raise TypeError(f"Generator[{elem!r}]: not a scalar or vector type")
        return GeneratorType(elem)


class HandleType(Type):
    """A frame of a coroutine driven by user code: !coro.handle<@name>."""

    def __init__(self, kernel, symbol):
        self.kernel = kernel
        self.symbol = symbol
        self.name = f"handle of {kernel.name}"
        self.mlir = f"!coro.handle<@{symbol}>"

    def __eq__(self, other):
        return isinstance(other, HandleType) and other.symbol == self.symbol

    def __hash__(self):
        return hash(("handle", self.symbol))


def is_value_type(t):
    """Whether values of `t` are numbers (scalars or vectors)."""
    return isinstance(t, (ScalarType, VectorType))

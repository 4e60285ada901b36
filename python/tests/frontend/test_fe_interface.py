# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The front end's interface (KernelDef, Translation, types) and smaller
language features: annotated and augmented assignments, component writes,
compile-time constants, Python's math module, symbol names."""

import importlib
import math
import re

import numpy as np

from corogpu.frontend import (Buffer, Generator, LocalArray, coroutine, f32,
                              float3, func, i32, i64, id, suspend, u32,
                              uint2)

cg = importlib.import_module("corogpu.frontend")

DEBUG = False
LIMIT = 10


def test_types():
    assert (cg.i32.mlir, cg.u32.mlir, cg.f16.mlir, cg.boolean.mlir, cg.index.mlir) == \
        ("i32", "i32", "f16", "i1", "index")
    assert cg.u32.dtype == np.uint32 and cg.f32.dtype == np.float32
    assert cg.boolean.dtype == np.bool_ and cg.i64.dtype == np.int64
    assert cg.float3.mlir == "vector<3xf32>" and cg.uint4.mlir == "vector<4xi32>"
    assert cg.int2.mlir == "vector<2xi32>" and cg.float3.dtype == np.float32
    assert Buffer[f32].mlir == "memref<?xf32>" and Buffer[u32].elem is u32
    assert Buffer[f32] is Buffer[f32]
    assert LocalArray[f32, (3, 4)].mlir == "memref<3x4xf32>"
    assert Generator[i32].elem is i32


@coroutine
def gen(n: i32) -> Generator[i32]:
    for k in range(n):
        yield k


@func
def helper(x: f32) -> f32:
    return x * 2.0


@coroutine
def user(n: i32, out: Buffer[f32]):
    for v in gen(n):
        out[id()] = helper(f32(v))


def test_kernel_def():
    assert user.kind == "coroutine" and helper.kind == "func"
    assert gen.is_generator and not user.is_generator
    assert user.name == "user" and user.pyfunc.__name__ == "user"
    assert user.params == [("n", i32), ("out", Buffer[f32])]
    assert isinstance(user, cg.KernelDef)
    tr = user.translate()
    assert tr is user.translate()                      # cached
    assert tr.entry == "user" and tr.params == user.params
    assert tr.text.startswith("coro.func @user(")
    for sym in ("coro.func @gen(", "func.func @helper("):
        assert sym in tr.text
    assert "coro.func @gen(%n: i32" in tr.text and ") yields i32 {" in tr.text


def make_helper(scale):
    @func
    def helper(x: f32) -> f32:
        return x * scale
    return helper


def test_unique_symbols(tools):
    other = make_helper(3.0)

    @coroutine
    def both(out: Buffer[f32]):
        out[id()] = helper(1.0) + other(1.0)

    text = both.mlir()
    assert "func.func @helper(" in text and "func.func @helper_1(" in text
    (out,) = tools.run_kernel(both, 4, np.zeros(4, np.float32))
    assert out.tolist() == [5.0] * 4


@coroutine
def misc(n: u32, out: Buffer[f32], iout: Buffer[i32]):
    i = id()
    x: f32 = 1
    x += f32(i)
    v = float3(x)
    v.x += 1.0
    v[2] = 5.0
    v.yz = v.zy
    flag = i % 2 == 0
    if not flag and True:
        x = -x
    if DEBUG:
        x = undefined_name  # noqa: F821  (never translated: DEBUG is False)
    big = i64(i) << 33
    w = uint2(n, 3)
    acc = u32(0)
    for k in range(u32(0), n):
        acc += k
    suspend()
    base = i * 4
    out[base] = x + math.pi * 0.0
    out[base + 1] = v.x + v.y * 10.0 + v.z * 100.0
    out[base + 2] = math.sqrt(f32(LIMIT))
    out[base + 3] = 1 / 4 + f32(w.y)
    iout[i * 3] = i32(big >> 32)
    iout[i * 3 + 1] = i32(acc)
    iout[i * 3 + 2] = 7
    iout[i * 3 + 2] += LIMIT


def test_misc_features(tools):
    out, iout = tools.run_all(misc, 8, 5, np.zeros(32, np.float32),
                              np.zeros(24, np.int32),
                              schedulers=["megakernel", "wavefront"])
    for i in range(8):
        x = 1.0 + i
        v = [x + 1, 5.0, x]
        if i % 2 == 1:
            x = -x
        np.testing.assert_allclose(out[i * 4:i * 4 + 4],
                                   [x, v[0] + v[1] * 10 + v[2] * 100,
                                    math.sqrt(10), 3.25], rtol=1e-6)
        assert iout[i * 3:i * 3 + 3].tolist() == [i * 2, 10, 17]


def test_text_is_readable():
    @coroutine
    def scale(k: f32, data: Buffer[f32]):
        i = id()
        x = data[i] * k
        suspend("write")
        data[i] = x

    text = scale.mlir()
    loc = re.compile(r' loc\((?:"[^"]*"\()?"[^"]*":\d+:\d+\)\)?')
    body = [loc.sub("", line).strip() for line in text.splitlines()]
    assert body[:6] == [
        "coro.func @scale(%k: f32, %data: memref<?xf32>) {",
        "%i = coro.id : index",
        "%0 = memref.load %data[%i] : memref<?xf32>",
        "%x = arith.mulf %0, %k : f32",
        'coro.suspend "write"',
        "memref.store %x, %data[%i] : memref<?xf32>",
    ]


def test_loops_carry_only_live_values():
    # A variable assigned before a loop and not used in or after it gets
    # no block argument; nor does one only read in the loop.
    @coroutine
    def k(n: i32, out: Buffer[i32]):
        unused = n * 2
        step = n + 1
        s = 0
        j = 0
        while j < n:
            suspend()
            s += step
            j += 1
        out[id()] = s

    text = k.mlir()
    header = [ln for ln in text.splitlines() if ln.startswith("^bb1(")][0]
    assert "%j:" in header and "%s:" in header
    assert "unused" not in header and "step" not in header

# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One small kernel per construct of the subset: translated, verified by
coro-opt, run by coro-run (under every scheduler where it suspends, each
--check'ed against the mega-kernel) and compared with values NumPy or plain
Python computes."""

import builtins as py
import importlib
import math

import numpy as np

from corogpu.frontend import (Buffer, abs, atomic_add, atomic_exchange,
                              atomic_max, atomic_min, ceil,
                              clamp, coroutine, cos, cross, dot, exp, exp2,
                              f32, float2, float3, float4, floor, fma, fract,
                              func, i32, i64, id, index, int3, length,
                              local_array, log, log2, max, min, normalize,
                              pow, promise, rsqrt, select, sin, sqrt,
                              suspend, tan, atan2, u32)

cg = importlib.import_module("corogpu.frontend")

N = 64
SCALE = 3          # a global constant
THIRD = 1.0 / 3.0  # a float one
NP_HALF = np.float32(0.5)


def ids(n=N):
    return np.arange(n, dtype=np.int64)


# --- integers -------------------------------------------------------------------

@coroutine
def int_ops(out: Buffer[i32]):
    i = i32(id())
    a = i - 32
    b = i % 7 - 3
    if b == 0:
        b = 5
    base = i32(id()) * 12
    out[base + 0] = a + b * SCALE
    out[base + 1] = a // b
    out[base + 2] = a % b
    out[base + 3] = a // 4
    out[base + 4] = a % 4
    suspend("half")
    out[base + 5] = (a << 2) ^ (b & 3) | 8
    out[base + 6] = a >> 1
    out[base + 7] = -a
    out[base + 8] = ~a
    out[base + 9] = abs(a) + min(a, b) * 100 + max(a, b)
    out[base + 10] = clamp(a, -5, 5)
    out[base + 11] = a ** 3


def test_int_ops(tools):
    (out,) = tools.run_all(int_ops, N, np.zeros(N * 12, np.int32))
    got = out.reshape(N, 12)
    for i in range(N):
        a, b = i - 32, i % 7 - 3
        b = b or 5
        want = [a + b * SCALE, a // b, a % b, a // 4, a % 4,
                (a << 2) ^ (b & 3) | 8, a >> 1, -a, ~a,
                py.abs(a) + py.min(a, b) * 100 + py.max(a, b),
                py.min(py.max(a, -5), 5), a ** 3]
        assert list(got[i]) == want, i


@coroutine
def uint_ops(out: Buffer[u32]):
    i = u32(id())
    x = i * 2654435761 + 7
    suspend()
    o = u32(id()) * 5
    out[o] = x // 10
    out[o + 1] = x % 10
    out[o + 2] = x >> 20
    out[o + 3] = u32(1) if x > 2147483648 else u32(0)
    out[o + 4] = u32(f32(x >> 16) * 0.5)


def test_uint_ops(tools):
    (out,) = tools.run_all(uint_ops, N, np.zeros(N * 5, np.uint32))
    got = out.reshape(N, 5)
    for i in range(N):
        x = (i * 2654435761 + 7) & 0xFFFFFFFF
        assert list(got[i]) == [x // 10, x % 10, x >> 20, int(x > 2147483648),
                                int(float(np.float32(x >> 16)) * 0.5)], i


@coroutine
def conversions(out: Buffer[f32], iout: Buffer[i64]):
    i = id()
    n = i32(i) - 20
    big = i64(n) * 100000000
    suspend()
    out[i * 4] = f32(n) * THIRD
    out[i * 4 + 1] = f32(i)
    out[i * 4 + 2] = f32(i32(f32(n) * 0.75))
    out[i * 4 + 3] = f32(n > 0) + f32(index(n) == i)
    iout[i] = big + i64(u32(7))


def test_conversions(tools):
    out, iout = tools.run_all(conversions, N, np.zeros(N * 4, np.float32),
                              np.zeros(N, np.int64))
    n = np.arange(N) - 20
    want = np.stack([n.astype(np.float32) * np.float32(THIRD), np.arange(N),
                     np.trunc(n.astype(np.float32) * 0.75),
                     (n > 0).astype(np.float32)], axis=1).astype(np.float32)
    np.testing.assert_allclose(out.reshape(N, 4), want, rtol=1e-6)
    np.testing.assert_array_equal(iout, n.astype(np.int64) * 100000000 + 7)


# --- floats and math ------------------------------------------------------------

@coroutine
def float_math(out: Buffer[f32]):
    i = id()
    x = f32(i) * 0.25 + 0.5
    suspend("math")
    o = i * 20
    out[o + 0] = sqrt(x)
    out[o + 1] = rsqrt(x)
    out[o + 2] = exp(x)
    out[o + 3] = exp2(x)
    out[o + 4] = log(x)
    out[o + 5] = log2(x)
    out[o + 6] = sin(x)
    out[o + 7] = cos(x)
    out[o + 8] = tan(x * 0.1)
    out[o + 9] = atan2(x - 4.0, 1.5 - x)
    out[o + 10] = pow(x, 1.5)
    out[o + 11] = floor(x) + ceil(x) * 10.0
    out[o + 12] = fract(x)
    out[o + 13] = fma(x, 2.0, 1.0)
    out[o + 14] = abs(3.0 - x)
    out[o + 15] = min(x, 4.0) + max(x, 6.0) * 10.0
    out[o + 16] = (x - 8.0) // 0.75
    out[o + 17] = (x - 8.0) % 0.75
    out[o + 18] = x / 3.0 + x ** 2 + -x * NP_HALF
    out[o + 19] = select(x > 5.0, x, 0.0) + clamp(x, 1.0, 2.0)


def test_float_math(tools):
    (out,) = tools.run_all(float_math, N, np.zeros(N * 20, np.float32))
    x = np.arange(N, dtype=np.float64) * 0.25 + 0.5
    want = [np.sqrt(x), 1 / np.sqrt(x), np.exp(x), np.exp2(x), np.log(x),
            np.log2(x), np.sin(x), np.cos(x), np.tan(x * 0.1),
            np.arctan2(x - 4.0, 1.5 - x), x ** 1.5,
            np.floor(x) + np.ceil(x) * 10, x - np.floor(x), x * 2 + 1,
            np.abs(3 - x), np.minimum(x, 4) + np.maximum(x, 6) * 10,
            (x - 8) // 0.75, np.mod(x - 8, 0.75),
            x / 3 + x ** 2 - x * 0.5, np.where(x > 5, x, 0) + np.clip(x, 1, 2)]
    np.testing.assert_allclose(out.reshape(N, 20), np.stack(want, axis=1),
                               rtol=2e-5, atol=2e-5)


# --- vectors -----------------------------------------------------------------------

@coroutine
def vectors(out: Buffer[f32]):
    i = id()
    t = f32(i)
    a = float3(t, 1.0, 2.0)
    b = float3(0.5)
    c = a * b + 1.0
    c.y = t * 3.0
    d = float4(c.zyx, 7.0)
    suspend("later")
    n = normalize(float3(t + 1.0, 2.0, 2.0))
    x = cross(a, float3(0.0, 1.0, t))
    o = i * 12
    out[o] = dot(a, c)
    out[o + 1] = length(float2(3.0, t))
    out[o + 2] = d.x + d.w * 10.0
    out[o + 3] = n.x
    out[o + 4] = x.x
    out[o + 5] = x.y
    out[o + 6] = x.z
    out[o + 7] = (c - a / 2.0).z
    out[o + 8] = d[i % 4]
    e = int3(i32(i), 2, 3)
    out[o + 9] = f32(dot(e, e))
    out[o + 10] = float2(c.xy).y
    out[o + 11] = min(c, float3(2.0)).x


def test_vectors(tools):
    (out,) = tools.run_all(vectors, N, np.zeros(N * 12, np.float32))
    got = out.reshape(N, 12)
    for i in range(N):
        t = float(i)
        a = np.array([t, 1, 2])
        c = a * 0.5 + 1
        c[1] = t * 3
        d = np.array([c[2], c[1], c[0], 7.0])
        n = np.array([t + 1, 2, 2]) / np.linalg.norm([t + 1, 2, 2])
        x = np.cross(a, [0, 1, t])
        want = [a @ c, math.hypot(3, t), d[0] + 70, n[0], x[0], x[1], x[2],
                (c - a / 2)[2], d[i % 4], i * i + 13, c[1], py.min(c[0], 2)]
        np.testing.assert_allclose(got[i], want, rtol=1e-5, err_msg=str(i))


# --- control flow --------------------------------------------------------------------

@coroutine
def control(out: Buffer[i32]):
    i = i32(id())
    acc = 0
    k = 0
    while True:
        k += 1
        if k % 3 == 0:
            continue
        if k > i % 11 + 2:
            break
        suspend("spin")
        acc += k
    for j in range(10, 0, -3):
        if j == 4 and i % 2 == 0:
            continue
        acc += j * 100
    j = -1  # (a loop variable is defined after its loop only if assigned before)
    for j in range(i % 4, 6):
        acc += 10000
        if acc > 20000 + i * 10:
            suspend("deep")
            break
    if i < 10:
        grade = 1
    elif i < 30:
        grade = 2
    else:
        grade = 3
    out[i * 3] = acc
    out[i * 3 + 1] = grade * (k if k > 5 else -k)
    out[i * 3 + 2] = j


def control_ref(i):
    acc = 0
    k = 0
    while True:
        k += 1
        if k % 3 == 0:
            continue
        if k > i % 11 + 2:
            break
        acc += k
    for j in range(10, 0, -3):
        if j == 4 and i % 2 == 0:
            continue
        acc += j * 100
    for j in range(i % 4, 6):
        acc += 10000
        if acc > 20000 + i * 10:
            break
    grade = 1 if i < 10 else 2 if i < 30 else 3
    return [acc, grade * (k if k > 5 else -k), j]


def test_control_flow(tools):
    (out,) = tools.run_all(control, N, np.zeros(N * 3, np.int32))
    assert out.reshape(N, 3).tolist() == [control_ref(i) for i in range(N)]


@coroutine
def early_exit(n: index, data: Buffer[i32], out: Buffer[i32]):
    i = id()
    # a short-circuit: data[i + 1] is read only when i + 1 < n
    if i + 1 < n and data[i + 1] > 100:
        out[i] = -1
        return
    for r in range(4):
        suspend("row")
        for c in range(4):
            v = data[(i + index(r * 4 + c)) % n]
            if v == 50:
                out[i] = r * 10 + c
                return
            if v > 90 or v < 0:
                suspend("odd")
                out[i] = 1000 + v
                return
    out[i] = 999 if i % 2 == 0 else 998


def early_exit_ref(data, i):
    n = len(data)
    if i + 1 < n and data[i + 1] > 100:
        return -1
    for r in range(4):
        for c in range(4):
            v = data[(i + r * 4 + c) % n]
            if v == 50:
                return r * 10 + c
            if v > 90 or v < 0:
                return 1000 + v
    return 999 if i % 2 == 0 else 998


def test_early_returns(tools):
    rng = np.random.default_rng(7)
    data = rng.integers(0, 95, N).astype(np.int32)
    data[5] = 150
    data[17] = -3
    _, out = tools.run_all(early_exit, N, N, data, np.zeros(N, np.int32))
    assert out.tolist() == [early_exit_ref(data.tolist(), i) for i in range(N)]


@coroutine
def conditional_values(out: Buffer[f32]):
    i = id()
    x = f32(i)
    a = x * 2.0 if i % 3 == 0 else -x
    b = sqrt(x) if x > 4.0 and x < 40.0 else 0.5
    c = 1.0 if not (i > 10 or i == 3) else 2.0
    d, e = a, b
    d, e = e, d
    suspend()
    out[i * 3] = a + b
    out[i * 3 + 1] = c
    out[i * 3 + 2] = d - e


def test_conditional_values(tools):
    (out,) = tools.run_all(conditional_values, N, np.zeros(N * 3, np.float32))
    want = []
    for i in range(N):
        x = float(i)
        a = x * 2 if i % 3 == 0 else -x
        b = math.sqrt(x) if 4 < x < 40 else 0.5
        c = 1.0 if not (i > 10 or i == 3) else 2.0
        want.append([a + b, c, b - a])
    np.testing.assert_allclose(out.reshape(N, 3), want, rtol=1e-6)


# --- memory ------------------------------------------------------------------------------

@coroutine
def arrays(out: Buffer[i32]):
    i = i32(id())
    a = local_array(i32, 8)
    m = local_array(f32, (3, 4))
    for k in range(8):
        a[k] = k * k + i
    for r in range(3):
        for c in range(4):
            m[r, c] = 0.0
    suspend("fill")
    for k in range(i % 4 + 3):
        suspend("update")
        at = (i + k) % 8
        a[at] += a[3] + k
        m[k % 3, i % 4] += f32(a[at])
    total = 0
    for k in range(8):
        total += a[k] * (k + 1)
    ftotal = 0.0
    for r in range(3):
        for c in range(4):
            ftotal += m[r, c] * f32(r * 4 + c + 1)
    out[i * 2] = total
    out[i * 2 + 1] = i32(ftotal)


def arrays_ref(i):
    a = [k * k + i for k in range(8)]
    m = [[0.0] * 4 for _ in range(3)]
    for k in range(i % 4 + 3):
        at = (i + k) % 8
        a[at] += a[3] + k
        m[k % 3][i % 4] += a[at]
    total = sum(a[k] * (k + 1) for k in range(8))
    ftotal = sum(m[r][c] * (r * 4 + c + 1) for r in range(3) for c in range(4))
    return [total, int(ftotal)]


def test_local_arrays(tools):
    (out,) = tools.run_all(arrays, N, np.zeros(N * 2, np.int32))
    assert out.reshape(N, 2).tolist() == [arrays_ref(i) for i in range(N)]


@coroutine
def atomics(hist: Buffer[i32], shared: Buffer[i32]):
    i = i32(id())
    h = i * 2654435 + 11
    suspend("hash")
    atomic_add(hist, h & 7, 1)
    atomic_max(shared, 0, h)
    atomic_min(shared, 1, h)
    atomic_add(shared, 2, i)
    suspend("count")
    atomic_add(shared, 3, 2)


def test_atomics(tools):
    # (float atomics have no SPIR-V lowering: the upstream MemRef-to-SPIR-V
    # conversion rejects them; atomic_exchange is test_atomic_exchange.)
    hist, shared = tools.run_all(atomics, N, np.zeros(8, np.int32),
                                 np.array([-2**31, 2**31 - 1, 0, 0], np.int32))
    h = (np.arange(N, dtype=np.int64) * 2654435 + 11).astype(np.int32)
    np.testing.assert_array_equal(hist, np.bincount(h & 7, minlength=8))
    assert shared.tolist() == [h.max(), h.min(), N * (N - 1) // 2, 2 * N]
    text = atomics.mlir()
    assert "memref.atomic_rmw maxs" in text and "memref.atomic_rmw mins" in text


@coroutine
def exchanges(slots: Buffer[i32], out: Buffer[i32]):
    i = i32(id())
    first = atomic_exchange(slots, id(), i * 10 + 1)
    suspend()
    second = atomic_exchange(slots, id(), first + 100)
    out[id()] = second


def test_atomic_exchange(tools):
    # memref.atomic_rmw assign: OpAtomicExchange on SPIR-V
    # (coro-spirv-convert-gpu); the old values cross a suspension.
    slots, out = tools.run_all(exchanges, N, np.arange(N, dtype=np.int32),
                               np.zeros(N, np.int32))
    assert slots.tolist() == [k + 100 for k in range(N)]
    assert out.tolist() == [k * 10 + 1 for k in range(N)]


# --- coroutine features ------------------------------------------------------------------

@coroutine
def promises(out: Buffer[f32]):
    i = id()
    e = 100.0 + f32(i)
    promise("energy", e)
    promise("pos", float2(e, 1.0))
    for k in range(i % 5 + 1):
        suspend("move")
        e = e * 0.5
        promise("energy", e)
        promise("steps", i32(k))
    promise("done", True)
    suspend("report")
    out[i] = e


def test_promises(tools):
    (out,) = tools.run_all(promises, N, np.zeros(N, np.float32))
    want = [(100.0 + i) * 0.5 ** (i % 5 + 1) for i in range(N)]
    np.testing.assert_allclose(out, want, rtol=1e-6)
    text = promises.mlir()
    assert 'coro.promise "pos", %' in text and ": vector<2xf32>" in text


@func
def shade(x: f32) -> f32:
    if x < 0.0:
        return 0.0
    y = x
    for _ in range(3):
        y = y * 0.5 + 1.0
    return y


@func
def twice(x: f32):
    return shade(shade(x))


@func
def store_sum(out: Buffer[f32], i: index, a: f32, b: f32):
    out[i] = a + b


@coroutine
def helpers(out: Buffer[f32]):
    i = id()
    x = f32(i) - 10.0
    a = shade(x)
    suspend("bounce")
    b = twice(x)
    store_sum(out, i, a, b)


def test_func_helpers(tools):
    (out,) = tools.run_all(helpers, N, np.zeros(N, np.float32))

    def shade_ref(x):
        if x < 0:
            return 0.0
        for _ in range(3):
            x = x * 0.5 + 1
        return x

    want = [shade_ref(i - 10.0) + shade_ref(shade_ref(i - 10.0)) for i in range(N)]
    np.testing.assert_allclose(out, want, rtol=1e-6)
    text = helpers.mlir()
    for name in ("shade", "twice", "store_sum"):
        assert f"func.func @{name}(" in text
    assert "func.func @twice(%x: f32 loc(" in text and ") -> f32 {" in text


def make_closure_kernel(offset, factor):
    @coroutine
    def closure(out: Buffer[f32]):
        i = id()
        out[i] = f32(i) * factor + offset
    return closure


def test_closure_constants(tools):
    k = make_closure_kernel(7, 2.5)
    (out,) = tools.run_all(k, N, np.zeros(N, np.float32), schedulers=["megakernel"])
    np.testing.assert_allclose(out, np.arange(N) * 2.5 + 7)


@coroutine
def wide_types(out: Buffer[cg.f64], hout: Buffer[cg.f16]):
    i = id()
    x = cg.f64(i) / 3.0
    h = cg.f16(i) * 0.5
    suspend()
    out[i] = x * x
    hout[i] = h + 1.0


def test_f64_f16(tools):
    out, hout = tools.run_all(wide_types, N, np.zeros(N, np.float64),
                              np.zeros(N, np.float16))
    np.testing.assert_allclose(out, (np.arange(N) / 3.0) ** 2, rtol=1e-12)
    np.testing.assert_allclose(hout, np.arange(N, dtype=np.float16) * np.float16(0.5) + 1)


@coroutine
def grid2d(width: i32, out: Buffer[f32]):
    x = id(0)
    y = id(1)
    suspend("shade")
    out[id()] = f32(x) + f32(y) * 100.0 + f32(width) * 0.0


def test_2d_grid(tools):
    (out,) = tools.run_all(grid2d, (8, 4), 8, np.zeros(32, np.float32))
    want = [x + 100 * y for y in range(4) for x in range(8)]
    np.testing.assert_array_equal(out, want)


# --- evaluation order and the ends of the types -------------------------------------

@func
def bump(buf: Buffer[i32], k: i32) -> i32:
    buf[k] = buf[k] + 1
    return 100


@coroutine
def comparison_chains(out: Buffer[i32]):
    i = i32(id())
    if i < 2 < bump(out, i):        # bump only where i < 2, as in Python
        out[i] += 10
    if 0 <= i < 3 and i < 1 < i32(id()) + 1:
        out[i] += 1000              # a pure chain: compared all at once


def test_comparison_chain_short_circuits(tools):
    (out,) = tools.run_kernel(comparison_chains, 4, np.zeros(4, np.int32))
    assert out.tolist() == [11, 11, 0, 0]
    text = comparison_chains.mlir()
    # The call is in the block the first comparison branches to.
    assert text.index("cf.cond_br") < text.index("func.call @bump")


@coroutine
def ranges_near_the_ends(stop: i32, out: Buffer[i32]):
    i = i32(id())
    o = i * 6
    n = 0
    for k in range(2147483600 + i, 2147483647, 10):
        n += 1
        if n > 100:
            break           # a wrapping counter would go on (for ever)
    out[o] = n
    n = 0
    for k in range(2147483600 + i, stop, 7):
        suspend("up")
        n += 1
        if n > 100:
            break
    out[o + 1] = n
    n = 0
    for k in range(-2147483600 - i, -2147483648, -10):
        n += 1
        if n > 100:
            break
    out[o + 2] = n
    n = 0
    for ku in range(u32(4294967200) + u32(i), u32(4294967295), 16):
        n += 1
        if n > 100:
            break
    out[o + 3] = n
    n = 0
    for kx in range(index(2147483600) + index(i), index(stop), 9):
        n += 1
        if n > 100:
            break
    out[o + 4] = n
    n = 0
    for k in range(i, 10):      # step 1 (never wraps) and a safe stop: no check
        n += 1
    for k in range(i, 1000, 3):
        n += 1
    out[o + 5] = n


def test_range_does_not_wrap(tools):
    (out,) = tools.run_all(ranges_near_the_ends, 3, 2147483647, np.zeros(18, np.int32),
                           schedulers=["megakernel", "wavefront"])
    for i in range(3):
        want = [len(range(2147483600 + i, 2147483647, 10)),
                len(range(2147483600 + i, 2147483647, 7)),
                len(range(-2147483600 - i, -2147483648, -10)),
                len(range(4294967200 + i, 4294967295, 16)),
                len(range(2147483600 + i, 2147483647, 9)),
                len(range(i, 10)) + len(range(i, 1000, 3))]
        assert out[i * 6:i * 6 + 6].tolist() == want, i

    @coroutine
    def cheap(n: i32, out: Buffer[i32]):
        s = 0
        for k in range(n):
            s += k
        for k in range(0, 100, 4):
            s += k
        for k in range(n, 0, -1):
            s += k
        out[id()] = s
    assert "arith.select" not in cheap.mlir()


@coroutine
def guarded_division(xs: Buffer[i32], out: Buffer[i32]):
    i = i32(id())
    x = xs[i]
    r = 0
    if x != 0 and 100 // x > 1:
        r += 1
    q = 100 // x if x != 0 else -1
    m = 0 if x == 0 or 7 % x == 0 else 1
    s = 0 <= x < 32 and (1 << x) > 4
    out[i * 4] = r
    out[i * 4 + 1] = q
    out[i * 4 + 2] = m
    out[i * 4 + 3] = i32(s)


def test_division_is_not_speculated(tools):
    xs = np.array([0, 5, 0, 200, 40, 2, -3, 3, 7], np.int32)
    (_, out) = tools.run_kernel(guarded_division, xs.size, xs,
                                np.zeros(xs.size * 4, np.int32))
    want = []
    for x in xs.tolist():
        want += [int(x != 0 and 100 // x > 1), 100 // x if x != 0 else -1,
                 0 if x == 0 or 7 % x == 0 else 1, int(0 <= x < 32 and (1 << x) > 4)]
    assert out.tolist() == want
    # Each division is in a block of its own, after the test of its divisor.
    text = guarded_division.mlir()
    assert text.count("cf.cond_br") >= 4, text
    for op in ("arith.floordivsi", "arith.remsi", "arith.shli"):
        at = text.index(op)
        assert text.rfind("^bb", 0, at) > text.index("cf.cond_br"), op

    @coroutine
    def speculated(x: i32, y: f32, out: Buffer[f32]):
        a = x // 4 if x > 0 else 0
        b = y // 2.0 if y != 0.0 else 0.0
        c = x > 0 and x % 3 == 1
        d = (1 << x) if x < 31 else 0
        out[id()] = f32(a + d) + b + f32(i32(c))
    text = speculated.mlir()
    assert "cf.cond_br" not in text and "arith.select" in text, text

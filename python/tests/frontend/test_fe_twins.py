# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Python twins of programs of test/e2e/programs: each gives the same
buffers as its MLIR original under every scheduler (the original through
coro-run, the twin through the package's API, both checked against their
mega-kernels), a frame of the same size (the frame report after the split
and frame materialization) and the same kernels (subroutines of the split,
kernels of the wavefront and entry points of its SPIR-V)."""

import json
import re

import numpy as np
import pytest

from corogpu import (Buffer, atomic_add, atomic_max, coroutine, f32, float2,
                     i32, i64, id, index, local_array, promise, suspend, u32)
from corogpu.frontend import LocalArray
from corogpu import _corogpu


# test/e2e/programs/early-returns.mlir
@coroutine
def early_returns(out: Buffer[i32]):
    i = id()
    total = index(0)
    r = index(0)
    while r < 6:
        suspend("row")
        rowsum = index(0)
        c = index(0)
        while c < 5:
            suspend("cell")
            t = (r * 7 + c * 3 + i) % 17
            if t == 16:
                out[i] = i32(r * 100 + c + 10000)
                return
            c += 1
            rowsum += t
        if rowsum > 40:
            suspend("heavy")
            out[i] = i32(r * 100 + rowsum + 20000)
            return
        r += 1
        total += rowsum
    out[i] = i32(total + 30000)


# test/e2e/programs/generator.mlir: a generator run as a kernel (the
# scheduler reads what it yields).
@coroutine
def digit_generator(seed: i32, out: Buffer[i32]):
    i = id()
    digits = local_array(i32, 8)
    v = u32(i32(i) * 7919 + seed)
    count = 0
    rev = 0
    while v != 0 or count == 0:
        d = i32(v % 10)
        digits[count] = d
        yield d
        v = v // 10
        count += 1
        rev = rev * 10 + d
    weighted = 0
    for k in range(index(0), 8):
        weighted += digits[k] * i32(k + 1)
    out[i * 3] = rev
    out[i * 3 + 1] = count
    out[i * 3 + 2] = weighted


# test/e2e/programs/promises.mlir
@coroutine
def promise_fields(out: Buffer[f32]):
    i = id()
    idf = f32(i32(i))
    energy = 100.0 + idf
    pos = float2(idf, 100.0)
    promise("steps", 0)
    promise("energy", energy)
    promise("position", pos)
    promise("done", False)
    n = i % 6 + 1
    steps = 0
    vel = float2(1.5, -2.0)
    for k in range(index(0), n):
        suspend("move")
        steps += 1
        promise("steps", steps)
        if i32(k) & 1 == 1:
            suspend("bounce")
            energy = energy * 0.5
            pos = -pos
        else:
            suspend("glide")
            energy = energy - f32(i32(k))
            pos = pos + vel
        promise("energy", energy)
        promise("position", pos)
    promise("done", True)
    suspend("report")
    at = i * 4
    out[at] = f32(steps)
    out[at + 1] = energy
    out[at + 2] = pos.x
    out[at + 3] = pos.y


# test/e2e/programs/local-arrays.mlir
@coroutine
def local_arrays(out: Buffer[i32], fout: Buffer[f32]):
    i = id()
    id32 = i32(i)
    a = local_array(i32, 8, fill=None)
    m = local_array(f32, (3, 4))
    for k in range(index(0), 8):
        k32 = i32(k)
        a[k] = k32 * k32 + id32
    suspend("fill")
    n = i % 4 + 3
    col = i % 4
    for k in range(index(0), n):
        suspend("update")
        s = a[3]
        at = (i + k) % 8
        new = a[at] + (s + i32(k))
        a[at] = new
        row = k % 3
        m[row, col] = m[row, col] + f32(new)
    suspend("read")
    total = id32
    for k in range(index(0), 8):
        total += a[k] * i32(k + 1)
    out[i] = total
    ftotal = 0.0
    for r in range(index(0), 3):
        for c in range(index(0), 4):
            ftotal += m[r, c] * f32(r * 4 + c + 1)
    fout[i] = ftotal


# test/e2e/programs/await-chain.mlir: awaits two levels deep, a local
# array shared with the callees, an early return in a callee.
@coroutine
def tick(cell: LocalArray[f32, 2]):
    suspend("tick")
    cell[1] = cell[1] + 1.0


@coroutine
def accumulate(start: f32, step: f32, limit: f32, cell: LocalArray[f32, 2]):
    i = index(0)
    acc = start
    while i < 8 and acc <= limit:
        tick(cell)
        acc = acc + step
        i += 1
    cell[0] = cell[0] + acc
    if acc > limit:
        cell[1] = cell[1] + 1000.0
        return


@coroutine
def await_chain(limit: f32, out: Buffer[f32]):
    i = id()
    cell = local_array(f32, 2)
    step = f32(i64(i % 7))
    start = f32(i64(i))
    suspend("begin")
    accumulate(start, step, limit, cell)
    accumulate(start * 0.5, step + 2.0, limit, cell)
    suspend("end")
    out[i * 2] = cell[0]
    out[i * 2 + 1] = cell[1]


# test/e2e/programs/generator-consumer.mlir: a generator consumed with a
# range-for whose body suspends, left early once the sum passes a limit
# (the MLIR selects the old values and ends the loop with the for_each's
# condition; a `break` says the same).
@coroutine
def squares(n: i32, out: Buffer[i32]):
    i = id()
    count = 0
    for k in range(0, i32(i % 7) + n):
        yield k * k
        count += 1
    out[i] = count


@coroutine
def sum_for_each_suspending(n: i32, limit: i32, out: Buffer[i32],
                            sums: Buffer[i32]):
    i = id()
    total = 0
    taken = 0
    for v in squares(n, out):
        suspend("taken")
        if total > limit:
            break
        total += v
        taken += 1
    sums[i * 2] = total
    sums[i * 2 + 1] = taken


# test/e2e/programs/atomics-histogram.mlir: atomics into shared buffers
# between suspensions.
@coroutine
def atomic_histogram(hist: Buffer[i32], sums: Buffer[i32],
                     shared: Buffer[i32]):
    i = id()
    n = i % 7 + 1
    h = i32(i)
    for k in range(index(0), n):
        suspend("hash")
        a = h * 2654435 + i32(k)
        h = a ^ i32(u32(a) >> u32(13))
    suspend("bin")
    b = h & 7
    atomic_add(hist, b, 1)
    atomic_add(shared, 0, i32(n))
    suspend("count")
    atomic_add(sums, b, h & 65535)
    atomic_max(shared, 1, h)


TWINS = [
    # kernel, original file, grid, scalar arguments, buffers
    (early_returns, "early-returns.mlir", 100, [], [np.zeros(100, np.int32)]),
    (digit_generator, "generator.mlir", 100, [13], [np.zeros(300, np.int32)]),
    (promise_fields, "promises.mlir", 100, [], [np.zeros(400, np.float32)]),
    (local_arrays, "local-arrays.mlir", 37, [],
     [np.zeros(37, np.int32), np.zeros(37, np.float32)]),
    (await_chain, "await-chain.mlir", 37, [40.0], [np.zeros(74, np.float32)]),
    (sum_for_each_suspending, "generator-consumer.mlir", 37, [3, 50],
     [np.zeros(37, np.int32), np.zeros(74, np.int32)]),
    (atomic_histogram, "atomics-histogram.mlir", 128, [],
     [np.zeros(8, np.int32), np.zeros(8, np.int32), np.zeros(2, np.int32)]),
]


@pytest.mark.parametrize("kernel, original, grid, args, buffers", TWINS,
                         ids=[t[1] for t in TWINS])
def test_twin_matches_original(tools, kernel, original, grid, args, buffers):
    path = tools.PROGRAMS / original
    for scheduler in tools.SCHEDULERS:
        want = tools.run_mlir(path, kernel.name, grid, args,
                              [b.copy() for b in buffers], scheduler)
        got = kernel(grid, *args, *[b.copy() for b in buffers],
                     scheduler=scheduler, check=scheduler != "megakernel")
        got = got if isinstance(got, tuple) else (got,)
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g, w, err_msg=f"{original} {scheduler}")
        assert any(np.any(w != 0) for w in want)


@pytest.mark.parametrize("kernel, original, grid, args, buffers", TWINS,
                         ids=[t[1] for t in TWINS])
def test_twin_frame_size(tools, kernel, original, grid, args, buffers):
    mlir = (tools.PROGRAMS / original).read_text()
    assert tools.frame_bytes(kernel.mlir(), kernel.name) == \
        tools.frame_bytes(mlir, kernel.name)


@pytest.mark.parametrize("kernel, original, grid, args, buffers", TWINS,
                         ids=[t[1] for t in TWINS])
def test_twin_kernel_count(tools, kernel, original, grid, args, buffers):
    program = _corogpu.Program.parse((tools.PROGRAMS / original).read_text())
    _, summary = program.transition_graph(kernel.name)
    want = [s["name"] for s in json.loads(summary)["subroutines"]]
    assert [s["name"] for s in kernel.split_summary()["subroutines"]] == want
    # The wavefront: the same kernels (SPIR-V entry points) and tokens.
    compiled = program.compile(kernel.name, "wavefront", "", None, "spirv")
    twin = kernel.compile("wavefront", target="spirv")
    assert entry_points(twin.image) == entry_points(compiled.image)
    assert len(entry_points(twin.image)) > len(want)
    tokens = re.compile(r"tokens = (\d+)")
    assert tokens.search(twin.plan).group(1) == \
        tokens.search(compiled.plan).group(1) == str(len(want))


def entry_points(spirv):
    """The names of a SPIR-V module's entry points (OpEntryPoint, opcode
    15: execution model, function id, then the name)."""
    words = np.frombuffer(spirv, dtype="<u4")
    names, at = [], 5
    while at < len(words):
        count, opcode = int(words[at]) >> 16, int(words[at]) & 0xFFFF
        if opcode == 15:
            text = words[at + 3:at + count].tobytes()
            names.append(text.split(b"\0")[0].decode())
        at += count
    return sorted(names)

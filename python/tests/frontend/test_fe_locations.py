# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Python source locations on every op: the diagnostics of the MLIR
verifier and of the passes name the Python file, line and column."""

import inspect
import os
import re

import numpy as np
import pytest

from corogpu.frontend import (Buffer, CompileError, coroutine, f32, func, i32, id, promise,
                              atomic_add, suspend)

THIS = inspect.getsourcefile(lambda: None)


def line_of(marker):
    with open(THIS) as f:
        lines = [n for n, text in enumerate(f, 1) if text.rstrip().endswith(f"# {marker}")]
    assert len(lines) == 1, marker
    return lines[0]


@coroutine
def two_promises(out: Buffer[f32]):
    i = id()
    promise("value", i32(i))
    suspend()
    promise("value", f32(i))  # L1
    out[i] = 1.0


def test_verifier_diagnostic_names_python_line(tools):
    text = two_promises.mlir()
    r = tools.opt(text, "-o", os.devnull)
    assert r.returncode != 0
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{THIS}:{line_of('L1')}:5: error: "), r.stderr
    assert "frame field \"value\"" in first


@func
def uses_id(x: f32) -> f32:
    return x + f32(id())  # L2


@coroutine
def calls_uses_id(out: Buffer[f32]):
    out[id()] = uses_id(1.0)


def test_op_outside_coroutine():
    # coro.id outside a coro.func: the front end's error, not the verifier's.
    with pytest.raises(CompileError) as info:
        calls_uses_id.mlir()
    assert (info.value.filename, info.value.line) == (THIS, line_of("L2"))
    assert "id() is available in coroutines only" in info.value.message


@func
def scaled(x: f32, k: i32) -> f32:
    if k > 2:
        return x * f32(k)
    return x


@coroutine
def calls_scaled(out: Buffer[f32]):
    out[id()] = scaled(1.0, i32(id()))


@coroutine
def ping(n: i32):
    suspend()
    pong(n)  # L3


@coroutine
def pong(n: i32):
    ping(n)


def test_recursive_await(tools):
    r = tools.opt(ping.mlir(), "-o", os.devnull)
    assert r.returncode != 0
    assert f"{THIS}:{line_of('L3')}:5: error:" in r.stderr, r.stderr


@coroutine
def float_adds(out: Buffer[f32]):
    i = id()
    suspend()
    atomic_add(out, i, 3.0)  # L4


def test_pass_diagnostic_names_python_line(tools):
    # The MemRef-to-SPIR-V conversion has no lowering of a float
    # atomic_rmw addf: coro-run's compile error points at the Python line.
    try:
        tools.run_kernel(float_adds, 4, np.zeros(4, np.float32))
    except tools.ToolError as e:
        assert f"{THIS}:{line_of('L4')}:5: error: failed to legalize operation " \
               f"'memref.atomic_rmw'" in str(e)
        assert "atomic_add(out, i, 3.0)" in str(e)   # the source line
    else:
        raise AssertionError("a float atomic_add compiled for SPIR-V")


def test_every_op_is_located():
    text = two_promises.mlir() + calls_scaled.mlir()
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("^") or s.endswith("{"):
            continue        # labels; ops with regions end at their "}" line
        assert re.search(rf'loc\((?:"[^"]*"\()?"{re.escape(THIS)}":\d+:\d+\)+$', s), line


def test_frame_fields_are_named_after_variables(tools):
    @coroutine
    def named(out: Buffer[f32]):
        i = id()
        energy = f32(i) * 2.0
        k = 0
        while k < 3:
            suspend("step")
            energy = energy * 0.5
            k += 1
        out[i] = energy

    report = tools.frame_report(named.mlir())
    assert re.search(r"\bf32\s+energy\s+load: step", report), report
    assert re.search(r"\bi32\s+k\s+load: step", report), report

# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Helpers of the front end's tests: verify MLIR text with coro-opt, run a
kernel with coro-run (every buffer written as .npy and read back), and read
frame sizes from coro-frame-report."""

import os
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[3]
BUILD = Path(os.environ.get("CORO_BUILD_DIR", REPO / "build"))
CORO_OPT = BUILD / "bin" / "coro-opt"
CORO_RUN = BUILD / "bin" / "coro-run"
PROGRAMS = REPO / "test" / "e2e" / "programs"

SCHEDULERS = ["megakernel", "state-machine", "wavefront", "persistent"]

# The front half of the pipelines, the split and the frame report.
FRAME_PIPELINE = ("builtin.module(coro-inline-callables,coro-inline-awaits,"
                  "coro.func(coro-expand-yield,coro-normalize-control-flow),"
                  "coro-resolve-handles,coro-split,coro-materialize-frame,"
                  "coro-frame-report)")

DTYPES = {"float32": "f32", "float16": "f16", "float64": "f64",
          "int32": "i32", "uint32": "i32", "int64": "i64"}


class ToolError(AssertionError):
    pass


def _write(text, suffix=".mlir"):
    fd, path = tempfile.mkstemp(suffix=suffix, prefix="corogpu-fe-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def opt(text, *flags):
    """Runs coro-opt on `text`; returns the CompletedProcess."""
    path = _write(text)
    try:
        return subprocess.run([str(CORO_OPT), path, *flags], capture_output=True,
                              text=True, timeout=120)
    finally:
        os.unlink(path)


def verify(text):
    """Asserts that coro-opt parses and verifies `text`."""
    r = opt(text, "-o", os.devnull)
    if r.returncode != 0:
        raise ToolError(f"coro-opt rejected the module:\n{r.stderr}\n{text}")


def frame_report(text):
    r = opt(text, f"--pass-pipeline={FRAME_PIPELINE}", "-o", os.devnull)
    if r.returncode != 0:
        raise ToolError(f"frame report failed:\n{r.stderr}\n{text}")
    return r.stdout


def frame_bytes(text, coroutine):
    """The final frame size coro-frame-report gives `coroutine`."""
    m = re.search(rf"^@{re.escape(coroutine)}: frame of (\d+) bytes", frame_report(text), re.M)
    if not m:
        raise ToolError(f"no frame report for @{coroutine}")
    return int(m.group(1))


def _arg_text(v):
    if isinstance(v, (tuple, list)):
        return ",".join(_arg_text(x) for x in v)
    if isinstance(v, bool):
        return "1" if v else "0"
    return repr(v) if isinstance(v, float) else str(v)


def run_mlir(path, coroutine, grid, args, buffers, scheduler, check=True,
             extra=()):
    """Runs `coroutine` of the MLIR file `path` with coro-run: `args` the
    scalar arguments, `buffers` NumPy arrays (their initial contents), in
    order. Returns the buffers after the run, with their dtypes."""
    with tempfile.TemporaryDirectory(prefix="corogpu-fe-") as tmp:
        cmd = [str(CORO_RUN), str(path), f"--coro={coroutine}",
               f"--grid={grid if isinstance(grid, int) else 'x'.join(map(str, grid))}",
               f"--scheduler={scheduler}", "--quiet", f"--output-dir={tmp}/out"]
        if check:
            cmd.append("--check")
        for a in args:
            cmd.append(f"--arg={_arg_text(a)}")
        for i, b in enumerate(buffers):
            b = np.ascontiguousarray(b)
            kind = DTYPES[b.dtype.name]
            if b.dtype == np.uint32:
                b = b.view(np.int32)
            src = f"{tmp}/in{i}.npy"
            np.save(src, b)
            cmd.append(f"--buffer={kind}:{b.size}:npy={src}")
        cmd += list(extra)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise ToolError(f"coro-run failed ({r.returncode}): {' '.join(cmd)}\n"
                            f"{r.stdout}\n{r.stderr}")
        out = []
        for i, b in enumerate(buffers):
            got = np.load(f"{tmp}/out/buffer{i}.npy").reshape(-1)
            out.append(got.view(np.uint32) if b.dtype == np.uint32 else got)
        return out


def run_kernel(kernel, grid, *values, scheduler="megakernel", check=True,
               extra=()):
    """Translates `kernel`, then runs it with `values` in the order of its
    parameters (numbers and tuples for scalars and vectors, NumPy arrays for
    buffers); returns the buffers after the run."""
    tr = kernel.translate()
    verify(tr.text)
    args, buffers = [], []
    for (name, t), v in zip(tr.params, values):
        (buffers if isinstance(v, np.ndarray) else args).append(v)
    path = _write(tr.text)
    try:
        return run_mlir(path, tr.entry, grid, args, buffers, scheduler, check, extra)
    finally:
        os.unlink(path)


def run_all(kernel, grid, *values, schedulers=SCHEDULERS, extra=()):
    """Runs under every scheduler (each --check'ed against the mega-kernel);
    asserts that all give the same buffers and returns them."""
    results = None
    for s in schedulers:
        got = run_kernel(kernel, grid, *[v.copy() if isinstance(v, np.ndarray) else v
                                         for v in values], scheduler=s, extra=extra)
        if results is None:
            results = got
        else:
            for a, b in zip(results, got):
                np.testing.assert_array_equal(a, b, err_msg=f"scheduler {s}")
    return results

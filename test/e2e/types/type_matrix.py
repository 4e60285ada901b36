#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The type matrix: every position where the coro dialect accepts a type,
with every type, run under every scheduler. (One file over 700 lines: each
cell's MLIR template and the value it must produce are read together.)

For each type T (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64 and
vector<2xT>, vector<3xT>, vector<4xT> of each) the script writes one MLIR
program whose launched coroutine @tm_top exercises every position (cell)
with T:

  arg             an argument of the launched coroutine (coro-run --arg),
                  read before and after a suspension
  await-arg       an argument of an awaited coroutine (coro.await), read
                  before and after the callee's suspension
  handle-arg      an argument of a driven coroutine (coro.handle.create /
                  coro.handle.resume), read before and after its suspension
  handle-promise  a coro.promise of the driven coroutine read with
                  coro.handle.promise before the first resume (0), after
                  the first and after the second
  gen-arg         an argument of a generator (coro.for_each and
                  coro.handle.resume args), read before its first yield and
                  after its last
  foreach-yield   coro.yield values (yielded from both cases of an
                  scf.index_switch in an scf.for) consumed by coro.for_each
                  (and how many)
  foreach-iter    iter_args and results of that coro.for_each (the last two
                  values yielded, shifted through two carried values)
  foreach-suspend the same loop with a coro.suspend in its body
  handle-yield    coro.yield values read through a handle with
                  coro.handle.promise "__yielded_value"
  frame           values live across suspensions: two swapped in a loop
                  whose body suspends, one across that loop and one more
  local-array     a memref.alloca of 4 elements of T across a suspension,
                  read at dynamic indices
  buffer          a memref<?xT> buffer (coro-run --buffer=T:...:file=...),
                  loaded before and after a suspension and stored to

Each cell has a section of the launched coroutine (or a coroutine of its
own) with its own suspension points, so that its values live across those
only, and the cells are packed into programs of a bounded size (--budget):
lavapipe's compile time grows much faster than the kernels.

Every observed value goes to an i32 output buffer (ints zero-extended or
split into two words, floats as the bits of their f32 extension or of the
f64, index cast to i32, vectors lane by lane); the values derive from
coro.id (or the instance index of a handle), a scalar argument and a
constant per cell, so a wrong lane, field or instance shows, and the
expected words are computed here in Python. With --run-host the programs
also run as host programs (HOST_CONFIGS): a @main makes the same
arguments and buffers and launches @tm_top, the words are printed (its
buffers' stores are not read back); with --ptxas each program is also
compiled to PTX for sm_90 under PTX_CONFIGS and validated by ptxas (not
run: a PASS there says the kernels are valid). Cells the dialect does not
support are in UNSUPPORTED: for those a small program must fail with the
diagnostic given there.

Prints one line per (type, configuration): PASS, FAIL (the cells whose
words differ, with the first values) or ERROR (coro-run failed; each cell
of that program is then run alone under that configuration, unless
--no-isolate, to say which cells fail), then one line per unsupported cell
and `type-matrix: N passed, M failed`. Exit code 1 on any failure. With
--keep=DIR the programs, their outputs and stderr stay in DIR and each
failure is followed by its coro-run command line.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

ELEMENTS = ["i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32",
            "f64"]
TYPES = [e for e in ELEMENTS] + ["vector<%dx%s>" % (n, e) for e in ELEMENTS
                                 for n in (2, 3, 4)]

CELLS = ["arg", "await-arg", "handle-arg", "handle-promise", "gen-arg",
         "foreach-yield", "foreach-iter", "foreach-suspend", "handle-yield",
         "frame", "local-array", "buffer"]

# The scheduler configurations (name, coro-run flags).
CONFIGS = [
    ("megakernel", ["--scheduler=megakernel"]),
    ("state-machine", ["--scheduler=state-machine"]),
    ("state-machine-1-step", ["--scheduler=state-machine",
                              "--state-machine-steps=1"]),
    ("wavefront", ["--scheduler=wavefront"]),
    ("wavefront-aos-3-slots", ["--scheduler=wavefront", "--layout=aos",
                               "--capacity=3"]),
    ("persistent", ["--scheduler=persistent"]),
    ("persistent-8-slots", ["--scheduler=persistent", "--persistent-batch=8",
                            "--persistent-shared-memory=1024"]),
]

# Host programs (coro-opt --coro-host-to-llvm=OPTIONS, run by --run-host):
# the same words, from a @main that makes the arguments as constants and
# buffers, through the host-launch ABI instead of coro-run's.
HOST_CONFIGS = [
    ("host-program-wavefront", "scheduler=wavefront"),
]

# PTX (coro-run --emit=ptx with these flags, then --ptxas): compiled and
# validated, not run (no values checked).
PTX_CONFIGS = [
    ("ptx-state-machine", ["--scheduler=state-machine"]),
    ("ptx-wavefront", ["--scheduler=wavefront"]),
    ("ptx-persistent", ["--scheduler=persistent"]),
]

# Cells the dialect does not support, by (cell, type pattern): a program
# with only that cell must fail (coro-opt's pipeline up to the split, or
# coro-run) with a diagnostic that contains the substring. A type pattern is
# a regular expression matched against the whole type.
UNSUPPORTED = [
    # (cell, type regex, tool "coro-run" | "coro-opt", diagnostic substring,
    #  whether the diagnostic must be at a line of the program, whether host
    #  programs are refused it too)
    # Buffers of i1, i8, i16, i32, i64, f16, f32 and f64 elements: index,
    # bf16 (on SPIR-V) and vectors are laid out differently by host and
    # kernels; coro-run says so at the coroutine, host programs at the
    # launch.
    ("buffer", r"index|bf16|vector<.*>", "coro-run",
     "which host and kernels lay out differently", True, True),
    # SPIR-V kernels take vector arguments of i1, i8, i16, i32, i64, index,
    # f16, f32 and f64 elements, not bf16 (a scalar bf16 travels in an f32):
    # coro-run says so of the launched coroutine's argument, the SPIR-V
    # pipeline at the coroutine of the arguments of the others (every
    # coroutine of the module is compiled).
    ("arg", r"vector<\dxbf16>", "coro-run",
     "a vector argument of a SPIR-V kernel has 1 dimension", False, True),
    ("await-arg", r"vector<\dxbf16>", "coro-run",
     "a vector argument of a SPIR-V kernel has 1 dimension", True, True),
    ("handle-arg", r"vector<\dxbf16>", "coro-run",
     "a vector argument of a SPIR-V kernel has 1 dimension", True, True),
    ("gen-arg", r"vector<\dxbf16>", "coro-run",
     "a vector argument of a SPIR-V kernel has 1 dimension", True, True),
]

GRID = 7          # instances
SEED = 5          # the --arg the values derive from
M64 = 0x9E3779B97F4A7C15
C64 = 0x0123456789ABCDEF


# --- types --------------------------------------------------------------

def split_type(t):
    """'vector<3xf16>' -> ('f16', 3); 'f16' -> ('f16', 0)."""
    m = re.fullmatch(r"vector<(\d+)x(\w+)>", t)
    if m:
        return m.group(2), int(m.group(1))
    return t, 0


def lanes(t):
    return max(1, split_type(t)[1])


def elem_words(e):
    return 2 if e in ("i64", "f64") else 1


def type_words(t):
    e, _ = split_type(t)
    return lanes(t) * elem_words(e)


def int_width(e):
    if e == "index":
        return None
    if e.startswith("i"):
        return int(e[1:])
    return None


def tag(t):
    e, n = split_type(t)
    return ("v%d%s" % (n, e)) if n else e


# --- the values, in Python ----------------------------------------------

def seed(inst, c, k=0, lane=0):
    return inst * 1009 + c * 17 + k * 7 + lane * 53 + SEED


def elem_val(e, s):
    w = int_width(e)
    if w:
        return ((s * M64 + C64) % (1 << 64)) % (1 << w)
    if e == "index":
        return s * 3 + 1
    q = ((s % 512) - 256) * 0.25
    if e == "f64":
        return q + s * 2.0 ** -30
    return q


def value(t, s):
    """The lanes of the value of type t for seed s."""
    e, n = split_type(t)
    return [elem_val(e, s + 53 * j) for j in range(max(1, n))]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def words_of(t, vals):
    e, _ = split_type(t)
    out = []
    for v in vals:
        w = int_width(e)
        if w and w <= 32 or e == "index":
            out.append(v & 0xFFFFFFFF)
        elif w == 64:
            out += [v & 0xFFFFFFFF, v >> 32]
        elif e == "f64":
            b = struct.unpack("<Q", struct.pack("<d", v))[0]
            out += [b & 0xFFFFFFFF, b >> 32]
        else:
            out.append(f32_bits(v))
    return out


def zero(t):
    e, _ = split_type(t)
    return [0.0 if e.startswith("f") or e == "bf16" else 0] * lanes(t)


# The launched coroutine's argument: per element type, the lanes' values
# (exact in the type) as coro-run spells them.
ARG_TEXT = {
    "i1": ["1", "0", "1", "1"],
    "i8": ["-100", "27", "127", "-128"],
    "i16": ["-1234", "32767", "7", "-32768"],
    "i32": ["-123456789", "2147483647", "42", "-2147483648"],
    "i64": ["-1099511627779", "4294967297", "81985529216486895", "-2"],
    "index": ["7", "123456", "0", "65535"],
    "f16": ["-2.5", "1.25", "1000.0", "0.0078125"],
    "bf16": ["-2.5", "1.25", "96.0", "0.0078125"],
    "f32": ["-2.5", "1.25", "16777215.0", "3.0517578125e-05"],
    "f64": ["-2.5", "1.25", "1.0000000000000002", "0.1"],
}


def arg_text(t):
    e, _ = split_type(t)
    return ",".join(ARG_TEXT[e][:lanes(t)])


def arg_value(t):
    e, _ = split_type(t)
    out = []
    for text in ARG_TEXT[e][:lanes(t)]:
        w = int_width(e)
        if w:
            out.append(int(text) % (1 << w))
        elif e == "index":
            out.append(int(text))
        elif e == "f16":
            out.append(struct.unpack("<e", struct.pack("<e", float(text)))[0])
        elif e == "f32":
            out.append(struct.unpack("<f", struct.pack("<f", float(text)))[0])
        else:
            out.append(float(text))
    return out


# Buffers: coro-run's TYPE spelling and the little-endian bytes of a value.
def buffer_bytes(t, vals):
    e, _ = split_type(t)
    out = b""
    for v in vals:
        w = int_width(e)
        if w == 1:
            out += struct.pack("<B", v)
        elif w:
            out += v.to_bytes(w // 8, "little")
        elif e == "index":
            out += struct.pack("<q", v)
        elif e == "f16":
            out += struct.pack("<e", v)
        elif e == "bf16":
            out += struct.pack("<I", f32_bits(v))[2:]
        elif e == "f32":
            out += struct.pack("<f", v)
        else:
            out += struct.pack("<d", v)
    return out


# --- MLIR emission --------------------------------------------------------

class Fn:
    """One function's body: fresh SSA names and helpers."""

    def __init__(self):
        self.lines = []
        self.n = 0

    def fresh(self):
        self.n += 1
        return "%%v%d" % self.n

    def op(self, text):
        r = self.fresh()
        self.lines.append("  %s = %s" % (r, text))
        return r

    def stmt(self, text):
        self.lines.append("  " + text)

    def const(self, v, ty):
        if ty == "i1":
            return self.op("arith.constant %s" % v)
        return self.op("arith.constant %s : %s" % (v, ty))

    def idx(self, v):
        return self.const(v, "index")

    def i32(self, v):
        return self.const(v, "i32")

    def seed(self, inst, c, seed_arg, extra=None):
        """inst * 1009 + c * 17 + SEED (the argument) [+ extra (i32)]."""
        i = self.op("arith.index_cast %s : index to i32" % inst)
        m = self.op("arith.muli %s, %s : i32" % (i, self.i32(1009)))
        s = self.op("arith.addi %s, %s : i32" % (m, self.i32(c * 17)))
        s = self.op("arith.addi %s, %s : i32" % (s, seed_arg))
        if extra is not None:
            s = self.op("arith.addi %s, %s : i32" % (s, extra))
        return s

    def elem_val(self, e, s):
        w = int_width(e)
        if w:
            x = self.op("arith.extsi %s : i32 to i64" % s)
            m = self.op("arith.muli %s, %s : i64" % (
                x, self.const(M64 - (1 << 64), "i64")))
            v = self.op("arith.addi %s, %s : i64" % (m, self.const(C64, "i64")))
            if w == 64:
                return v
            return self.op("arith.trunci %s : i64 to i%d" % (v, w))
        if e == "index":
            t = self.op("arith.muli %s, %s : i32" % (s, self.i32(3)))
            t = self.op("arith.addi %s, %s : i32" % (t, self.i32(1)))
            return self.op("arith.index_cast %s : i32 to index" % t)
        r = self.op("arith.remui %s, %s : i32" % (s, self.i32(512)))
        r = self.op("arith.subi %s, %s : i32" % (r, self.i32(256)))
        if e == "f64":
            d = self.op("arith.sitofp %s : i32 to f64" % r)
            q = self.op("arith.mulf %s, %s : f64" % (d, self.const("0.25", "f64")))
            sd = self.op("arith.sitofp %s : i32 to f64" % s)
            eps = self.const("0x3E10000000000000", "f64")  # 2^-30
            se = self.op("arith.mulf %s, %s : f64" % (sd, eps))
            return self.op("arith.addf %s, %s : f64" % (q, se))
        f = self.op("arith.sitofp %s : i32 to f32" % r)
        q = self.op("arith.mulf %s, %s : f32" % (f, self.const("0.25", "f32")))
        if e == "f32":
            return q
        return self.op("arith.truncf %s : f32 to %s" % (q, e))

    def value(self, t, s):
        """A value of type t for the i32 seed s (lanes s + 53 j)."""
        e, n = split_type(t)
        if not n:
            return self.elem_val(e, s)
        elems = []
        for j in range(n):
            sj = self.op("arith.addi %s, %s : i32" % (s, self.i32(53 * j))) \
                if j else s
            elems.append(self.elem_val(e, sj))
        return self.op("vector.from_elements %s : %s" % (", ".join(elems), t))

    def elem_words(self, e, v):
        w = int_width(e)
        if w and w < 32:
            return [self.op("arith.extui %s : i%d to i32" % (v, w))]
        if w == 32:
            return [v]
        if e == "index":
            return [self.op("arith.index_cast %s : index to i32" % v)]
        if e in ("f16", "bf16"):
            v = self.op("arith.extf %s : %s to f32" % (v, e))
            e = "f32"
        if e == "f32":
            return [self.op("arith.bitcast %s : f32 to i32" % v)]
        if e == "f64":
            v = self.op("arith.bitcast %s : f64 to i64" % v)
        lo = self.op("arith.trunci %s : i64 to i32" % v)
        hi = self.op("arith.shrui %s, %s : i64" % (v, self.const(32, "i64")))
        hi = self.op("arith.trunci %s : i64 to i32" % hi)
        return [lo, hi]

    def words(self, t, v):
        e, n = split_type(t)
        if not n:
            return self.elem_words(e, v)
        out = []
        for j in range(n):
            x = self.op("vector.extract %s[%d] : %s from %s" % (v, j, e, t))
            out += self.elem_words(e, x)
        return out

    def store_words(self, t, v, out, base, offset, dyn=None):
        """out[base + offset (+ dyn) + i] = word i of v."""
        at = self.op("arith.addi %s, %s : index" % (base, self.idx(offset)))
        if dyn is not None:
            at = self.op("arith.addi %s, %s : index" % (at, dyn))
        for i, w in enumerate(self.words(t, v)):
            a = self.op("arith.addi %s, %s : index" % (at, self.idx(i))) if i else at
            self.stmt("memref.store %s, %s[%s] : memref<?xi32>" % (w, out, a))

    def store_i32(self, w, out, base, offset):
        at = self.op("arith.addi %s, %s : index" % (base, self.idx(offset)))
        self.stmt("memref.store %s, %s[%s] : memref<?xi32>" % (w, out, at))


# Cell constants (the c of seed(inst, c)).
C_FRAME, C_SWAP_A, C_SWAP_B, C_AWAIT, C_HARG, C_PROM1, C_PROM2 = 1, 2, 3, 4, 5, 6, 7
C_GX, C_GEN, C_ITER0, C_ITER1, C_LA, C_BIN, C_BOUT = 8, 11, 12, 13, 14, 18, 19


class Layout:
    """Word offsets of each (type, cell) in one instance's row of out."""

    def __init__(self, plan):
        self.off = {}
        self.size = {}
        at = 0
        for t, cells in plan:
            wt = type_words(t)
            for c in cells:
                n = {"arg": 2 * wt, "await-arg": 2 * wt, "handle-arg": 2 * wt,
                     "handle-promise": 3 * wt, "gen-arg": 6 * wt,
                     "foreach-yield": 3 * wt + 1, "foreach-iter": 2 * wt,
                     "foreach-suspend": 5 * wt + 1, "handle-yield": 3 * wt + 1,
                     "frame": 3 * wt, "local-array": 2 * wt,
                     "buffer": 2 * wt}[c]
                self.off[(t, c)] = at
                self.size[(t, c)] = n
                at += n
        self.words = max(at, 1)


def emit_program(plan, host=False):
    """plan: [(type, [cells])]. Returns (mlir text, layout, coro-run args
    (--arg and --buffer specs, buffer files to write: [(name, bytes)])).
    With host, the text is a host program instead: a module whose @main
    makes the same arguments, launches @tm_top and prints the words."""
    lay = Layout(plan)
    W = lay.words
    funcs = []
    scalar_args = []   # (ssa, type, --arg text)
    memref_args = []   # (ssa, type, --buffer spec, file name, bytes)
    top = Fn()
    # Arguments of the launched coroutine.
    for t, cells in plan:
        if "arg" in cells:
            scalar_args.append(("%%a_%s" % tag(t), t, arg_text(t)))
    scalar_args.append(("%seed", "i32", str(SEED)))
    memref_args.append(("%out", "memref<?xi32>", "i32:%d:zeros" % (W * GRID),
                        None, None, None))
    for t, cells in plan:
        if "buffer" in cells:
            e, _ = split_type(t)
            name = "in_%s.bin" % tag(t)
            data = b"".join(buffer_bytes(t, value(t, seed(i, C_BIN)))
                            for i in range(GRID))
            data += bytes(len(data))
            memref_args.append(("%%b_%s" % tag(t), "memref<?x%s>" % t,
                                "%s:%d:file=%s" % (t, 2 * GRID, name), name, data,
                                [value(t, seed(i, C_BIN)) for i in range(GRID)]))
    top_sig = ", ".join("%s: %s" % (a[0], a[1]) for a in scalar_args + memref_args)

    id_ = top.op("coro.id : index")
    base = top.op("arith.muli %s, %s : index" % (id_, top.idx(W)))
    true = top.const("true", "i1")
    c0, c1 = top.idx(0), top.idx(1)
    n_idx = top.op("arith.addi %s, %s : index" % (
        top.op("arith.remui %s, %s : index" % (id_, top.idx(3))), c1))
    n32 = top.op("arith.index_cast %s : index to i32" % n_idx)
    out = "%out"

    # Each cell in a section of its own: its values live across its own
    # suspensions (and a frame value across a whole loop of them), so that
    # the kernels grow with the cells, not with their product.
    for t, cells in plan:
        tg = tag(t)
        wt = type_words(t)
        if "arg" in cells:
            a = "%%a_%s" % tg
            top.store_words(t, a, out, base, lay.off[(t, "arg")])
            top.stmt('coro.suspend "arg_%s"' % tg)
            top.store_words(t, a, out, base, lay.off[(t, "arg")] + wt)
        if "buffer" in cells:
            b = "%%b_%s" % tg
            v = top.op("memref.load %s[%s] : memref<?x%s>" % (b, id_, t))
            top.store_words(t, v, out, base, lay.off[(t, "buffer")])
            top.stmt('coro.suspend "buffer_%s"' % tg)
            v = top.op("memref.load %s[%s] : memref<?x%s>" % (b, id_, t))
            top.store_words(t, v, out, base, lay.off[(t, "buffer")] + wt)
            at = top.op("arith.addi %s, %s : index" % (id_, top.idx(GRID)))
            v = top.value(t, top.seed(id_, C_BOUT, "%seed"))
            top.stmt("memref.store %s, %s[%s] : memref<?x%s>" % (v, b, at, t))
        if "local-array" in cells:
            arr = top.op("memref.alloca() : memref<4x%s>" % t)
            for j in range(4):
                v = top.value(t, top.seed(id_, C_LA + j, "%seed"))
                top.stmt("memref.store %s, %s[%s] : memref<4x%s>" % (
                    v, arr, top.idx(j), t))
            top.stmt('coro.suspend "array_%s"' % tg)
            for j, d in enumerate((1, 3)):
                i = top.op("arith.remui %s, %s : index" % (
                    top.op("arith.addi %s, %s : index" % (id_, top.idx(d))), top.idx(4)))
                v = top.op("memref.load %s[%s] : memref<4x%s>" % (arr, i, t))
                top.store_words(t, v, out, base, lay.off[(t, "local-array")] + j * wt)
        if "frame" in cells:
            fv = top.value(t, top.seed(id_, C_FRAME, "%seed"))
            a = top.value(t, top.seed(id_, C_SWAP_A, "%seed"))
            b = top.value(t, top.seed(id_, C_SWAP_B, "%seed"))
            k, x, y = top.fresh(), top.fresh(), top.fresh()
            r = top.fresh()
            top.stmt("%s:2 = scf.for %s = %s to %s step %s iter_args(%s = %s, %s = %s) "
                     "-> (%s, %s) {" % (r, k, c0, n_idx, c1, x, a, y, b, t, t))
            top.stmt('  coro.suspend "swap_%s"' % tg)
            top.stmt("  scf.yield %s, %s : %s, %s" % (y, x, t, t))
            top.stmt("}")
            top.stmt('coro.suspend "frame_%s"' % tg)
            top.store_words(t, fv, out, base, lay.off[(t, "frame")])
            top.store_words(t, r + "#0", out, base, lay.off[(t, "frame")] + wt)
            top.store_words(t, r + "#1", out, base, lay.off[(t, "frame")] + 2 * wt)
        if "await-arg" in cells:
            v = top.value(t, top.seed(id_, C_AWAIT, "%seed"))
            top.stmt("coro.await @tm_callee_%s(%s, %s) : (%s, memref<?xi32>) -> ()" % (
                tg, v, out, t))
            f = Fn()
            fid = f.op("coro.id : index")
            fb = f.op("arith.muli %s, %s : index" % (fid, f.idx(W)))
            f.store_words(t, "%x", "%out", fb, lay.off[(t, "await-arg")])
            f.stmt('coro.suspend "callee"')
            f.store_words(t, "%x", "%out", fb, lay.off[(t, "await-arg")] + wt)
            f.stmt("coro.return")
            funcs.append("coro.func @tm_callee_%s(%%x: %s, %%out: memref<?xi32>) {\n%s\n}"
                         % (tg, t, "\n".join(f.lines)))
        if "handle-arg" in cells or "handle-promise" in cells:
            harg = "handle-arg" in cells
            prom = "handle-promise" in cells
            f = Fn()
            inst = f.op("coro.id : index")
            fid = f.op("arith.divui %s, %s : index" % (inst, f.idx(4)))
            fb = f.op("arith.muli %s, %s : index" % (fid, f.idx(W)))
            if harg:
                f.store_words(t, "%x", "%out", fb, lay.off[(t, "handle-arg")])
            if prom:
                p = f.value(t, f.seed(inst, C_PROM1, "%seed"))
                f.stmt('coro.promise "p", %s : %s' % (p, t))
            f.stmt('coro.suspend "driven"')
            if harg:
                f.store_words(t, "%x", "%out", fb, lay.off[(t, "handle-arg")] + wt)
            if prom:
                p = f.value(t, f.seed(inst, C_PROM2, "%seed"))
                f.stmt('coro.promise "p", %s : %s' % (p, t))
            f.stmt("coro.return")
            sig = (["%%x: %s" % t] if harg else []) + ["%seed: i32", "%out: memref<?xi32>"]
            funcs.append("coro.func @tm_driven_%s(%s) {\n%s\n}" % (
                tg, ", ".join(sig), "\n".join(f.lines)))
            htype = "!coro.handle<@tm_driven_%s>" % tg
            dinst = top.op("arith.addi %s, %s : index" % (
                top.op("arith.muli %s, %s : index" % (id_, top.idx(4))), top.idx(3)))
            h = top.op("coro.handle.create @tm_driven_%s[%s] : %s" % (tg, dinst, htype))
            args = ([top.value(t, top.seed(id_, C_HARG, "%seed"))] if harg else []) \
                + ["%seed", out]
            types = ([t] if harg else []) + ["i32", "memref<?xi32>"]
            resume = "coro.handle.resume %s(%s) : %s, (%s) -> ()" % (
                h, ", ".join(args), htype, ", ".join(types))
            if prom:
                p = top.op('coro.handle.promise %s["p"] : %s -> %s' % (h, htype, t))
                top.store_words(t, p, out, base, lay.off[(t, "handle-promise")])
            top.stmt(resume)
            if prom:
                p = top.op('coro.handle.promise %s["p"] : %s -> %s' % (h, htype, t))
                top.store_words(t, p, out, base, lay.off[(t, "handle-promise")] + wt)
            top.stmt('coro.suspend "drive_%s"' % tg)
            top.stmt(resume)
            if prom:
                p = top.op('coro.handle.promise %s["p"] : %s -> %s' % (h, htype, t))
                top.store_words(t, p, out, base, lay.off[(t, "handle-promise")] + 2 * wt)
        gen_cells = {"gen-arg", "foreach-yield", "foreach-iter", "foreach-suspend",
                     "handle-yield"} & set(cells)
        if gen_cells:
            garg = "gen-arg" in cells
            f = Fn()
            inst = f.op("coro.id : index")
            slot = f.op("arith.remui %s, %s : index" % (inst, f.idx(4)))
            fid = f.op("arith.divui %s, %s : index" % (inst, f.idx(4)))
            fb = f.op("arith.muli %s, %s : index" % (fid, f.idx(W)))
            if garg:
                so = f.op("arith.muli %s, %s : index" % (slot, f.idx(2 * wt)))
                f.store_words(t, "%x", "%out", fb, lay.off[(t, "gen-arg")], so)
            i0, i1 = f.i32(0), f.i32(1)
            k = f.fresh()
            f.stmt("scf.for %s = %s to %%n step %s : i32 {" % (k, i0, i1))
            body = Fn()
            body.n = f.n
            k7 = body.op("arith.muli %s, %s : i32" % (k, body.i32(7)))
            v = body.value(t, body.seed(inst, C_GEN, "%seed", k7))
            # Yields from both cases of an scf.index_switch on k % 2.
            ki = body.op("arith.index_cast %s : i32 to index" % k)
            sel = body.op("arith.remui %s, %s : index" % (ki, body.idx(2)))
            body.stmt("scf.index_switch %s" % sel)
            for case in ("case 0", "default"):
                body.stmt("%s {" % case)
                body.stmt("  coro.yield %s : %s" % (v, t))
                body.stmt("  scf.yield")
                body.stmt("}")
            f.n = body.n
            f.lines += ["  " + line for line in body.lines]
            f.stmt("}")
            if garg:
                f.store_words(t, "%x", "%out", fb, lay.off[(t, "gen-arg")] + wt, so)
            f.stmt("coro.return")
            sig = (["%%x: %s" % t] if garg else []) + [
                "%n: i32", "%seed: i32", "%out: memref<?xi32>"]
            funcs.append("coro.func @tm_gen_%s(%s) yields %s {\n%s\n}" % (
                tg, ", ".join(sig), t, "\n".join(f.lines)))

            def gen_args(slot_no):
                a = ([top.value(t, top.seed(id_, C_GX + slot_no, "%seed"))]
                     if garg else []) + [n32, "%seed", out]
                ty = ([t] if garg else []) + ["i32", "i32", "memref<?xi32>"]
                return a, ty

            def for_each(slot_no, suspend, yield_off, iter_off):
                ginst = top.op("arith.addi %s, %s : index" % (
                    top.op("arith.muli %s, %s : index" % (id_, top.idx(4))),
                    top.idx(slot_no)))
                a, ty = gen_args(slot_no)
                inits = [top.i32(0)]
                itys = ["i32"]
                if iter_off is not None:
                    inits += [top.value(t, top.seed(id_, C_ITER0, "%seed")),
                              top.value(t, top.seed(id_, C_ITER1, "%seed"))]
                    itys += [t, t]
                r = top.fresh()
                v, kk, p, q = top.fresh(), top.fresh(), top.fresh(), top.fresh()
                top.stmt("%s:%d = coro.for_each @tm_gen_%s[%s](%s : %s) iter_args(%s : %s)"
                         " -> (%s) {" % (r, len(inits), tg, ginst, ", ".join(a), ", ".join(ty),
                                         ", ".join(inits), ", ".join(itys), ", ".join(itys)))
                top.stmt("^bb0(%s: %s, %s: i32%s):" % (
                    v, t, kk, (", %s: %s, %s: %s" % (p, t, q, t)) if iter_off is not None else ""))
                b = Fn()
                b.n = top.n
                if suspend:
                    b.stmt('coro.suspend "each_%s"' % tg)
                if yield_off is not None:
                    ki = b.op("arith.index_cast %s : i32 to index" % kk)
                    dyn = b.op("arith.muli %s, %s : index" % (ki, b.idx(wt)))
                    b.store_words(t, v, out, base, yield_off, dyn)
                k1 = b.op("arith.addi %s, %s : i32" % (kk, b.i32(1)))
                vals = [k1] + ([v, p] if iter_off is not None else [])
                b.stmt("coro.for_each.yield %s, %s : %s" % (true, ", ".join(vals), ", ".join(itys)))
                top.n = b.n
                top.lines += ["  " + line for line in b.lines]
                top.stmt("}")
                if yield_off is not None:
                    top.store_i32(r + "#0", out, base, yield_off + 3 * wt)
                if iter_off is not None:
                    top.store_words(t, r + "#1", out, base, iter_off)
                    top.store_words(t, r + "#2", out, base, iter_off + wt)

            if {"gen-arg", "foreach-yield", "foreach-iter"} & set(cells):
                for_each(0, False,
                         lay.off[(t, "foreach-yield")] if "foreach-yield" in cells else None,
                         lay.off[(t, "foreach-iter")] if "foreach-iter" in cells else None)
            if "foreach-suspend" in cells:
                o = lay.off[(t, "foreach-suspend")]
                for_each(1, True, o, o + 3 * wt + 1)
            if "handle-yield" in cells:
                o = lay.off[(t, "handle-yield")]
                htype = "!coro.handle<@tm_gen_%s>" % tg
                ginst = top.op("arith.addi %s, %s : index" % (
                    top.op("arith.muli %s, %s : index" % (id_, top.idx(4))), top.idx(2)))
                h = top.op("coro.handle.create @tm_gen_%s[%s] : %s" % (tg, ginst, htype))
                a, ty = gen_args(2)
                i0 = top.i32(0)
                r, k, k2 = top.fresh(), top.fresh(), top.fresh()
                top.stmt("%s = scf.while (%s = %s) : (i32) -> i32 {" % (r, k, i0))
                b = Fn()
                b.n = top.n
                b.stmt("coro.handle.resume %s(%s) : %s, (%s) -> ()" % (
                    h, ", ".join(a), htype, ", ".join(ty)))
                done = b.op("coro.handle.done %s : %s" % (h, htype))
                go = b.op("arith.xori %s, %s : i1" % (done, true))
                b.stmt("scf.condition(%s) %s : i32" % (go, k))
                top.n = b.n
                top.lines += ["  " + line for line in b.lines]
                top.stmt("} do {")
                top.stmt("^bb0(%s: i32):" % k2)
                b = Fn()
                b.n = top.n
                v = b.op('coro.handle.promise %s["__yielded_value"] : %s -> %s' % (h, htype, t))
                ki = b.op("arith.index_cast %s : i32 to index" % k2)
                dyn = b.op("arith.muli %s, %s : index" % (ki, b.idx(wt)))
                b.store_words(t, v, out, base, o, dyn)
                k1 = b.op("arith.addi %s, %s : i32" % (k2, b.i32(1)))
                b.stmt("scf.yield %s : i32" % k1)
                top.n = b.n
                top.lines += ["  " + line for line in b.lines]
                top.stmt("}")
                top.store_i32(r, out, base, o + 3 * wt)
    top.stmt("coro.return")
    funcs.append("coro.func @tm_top(%s) {\n%s\n}" % (top_sig, "\n".join(top.lines)))
    text = "// Generated by test/e2e/types/type_matrix.py: %s\n\n" % "; ".join(
        "%s: %s" % (t, " ".join(c)) for t, c in plan) + "\n\n".join(funcs) + "\n"
    if host:
        text = ("module attributes {gpu.container_module} {\n" + text + "\n"
                + host_main(scalar_args, memref_args, W) + "}\n")
    run_args = ["--coro=tm_top", "--grid=%d" % GRID] + [
        "--arg=%s" % a[2] for a in scalar_args] + [
        "--buffer=%s" % m[2] for m in memref_args]
    files = [(m[3], m[4]) for m in memref_args if m[3]]
    return text, lay, run_args, files


def scalar_literal(f, e, v):
    """An arith.constant of element type e with the value v, bit-exact."""
    if e == "i1":
        return f.const("true" if v else "false", "i1")
    if int_width(e) or e == "index":
        w = int_width(e)
        if w and v >= 1 << (w - 1):
            v -= 1 << w
        return f.const(str(v), e)
    if e == "f16":
        bits = struct.unpack("<H", struct.pack("<e", v))[0]
    elif e == "bf16":
        bits = f32_bits(v) >> 16
    elif e == "f32":
        bits = f32_bits(v)
    else:
        bits = struct.unpack("<Q", struct.pack("<d", v))[0]
    return f.const("0x%X" % bits, e)


def typed_literal(f, t, vals):
    e, n = split_type(t)
    elems = [scalar_literal(f, e, v) for v in vals]
    if not n:
        return elems[0]
    return f.op("vector.from_elements %s : %s" % (", ".join(elems), t))


def host_main(scalar_args, memref_args, W):
    """@main of the host program: the launched coroutine's scalars as
    constants, its buffers allocated and filled as coro-run fills them, one
    launch of GRID instances, then the words printed (printMemrefI32)."""
    f = Fn()
    c0, c1 = f.idx(0), f.idx(1)
    operands = []
    for ssa, t, _ in scalar_args:
        vals = arg_value(t) if ssa != "%seed" else [SEED]
        operands.append(typed_literal(f, t, vals))
    words = None
    for ssa, t, _, _, _, vals in memref_args:
        e = t[len("memref<?x"):-1]
        n = W * GRID if vals is None else 2 * GRID
        buf = f.op("memref.alloc(%s) : %s" % (f.idx(n), t))
        z = typed_literal(f, e, zero(e))
        i = f.fresh()
        f.stmt("scf.for %s = %s to %s step %s {" % (i, c0, f.idx(n), c1))
        f.stmt("  memref.store %s, %s[%s] : %s" % (z, buf, i, t))
        f.stmt("}")
        for k, v in enumerate(vals or []):
            f.stmt("memref.store %s, %s[%s] : %s" % (
                typed_literal(f, e, v), buf, f.idx(k), t))
        if vals is None:
            words = buf
        operands.append(buf)
    types = [a[1] for a in scalar_args] + [m[1] for m in memref_args]
    f.stmt("coro.launch @tm_top[%s](%s) : (%s) -> ()" % (
        f.idx(GRID), ", ".join(operands), ", ".join(types)))
    u = f.op("memref.cast %s : memref<?xi32> to memref<*xi32>" % words)
    f.stmt("call @printMemrefI32(%s) : (memref<*xi32>) -> ()" % u)
    f.stmt("return")
    return ("func.func private @printMemrefI32(memref<*xi32>) attributes "
            "{llvm.emit_c_interface}\nfunc.func @main() {\n%s\n}\n"
            % "\n".join(f.lines))


# --- expectations -------------------------------------------------------

def expected(plan, lay):
    """{(type, cell): [(instance, word index in the row, expected word)]},
    and {type: expected buffer elements (values) of the buffer cell}."""
    exp = {}
    bufs = {}
    for t, cells in plan:
        wt = type_words(t)
        for c in cells:
            o = lay.off[(t, c)]
            rows = []
            for i in range(GRID):
                n = 1 + i % 3
                ws = []   # (offset in the cell, words)
                if c == "arg":
                    w = words_of(t, arg_value(t))
                    ws = [(0, w), (wt, w)]
                elif c == "await-arg":
                    w = words_of(t, value(t, seed(i, C_AWAIT)))
                    ws = [(0, w), (wt, w)]
                elif c == "handle-arg":
                    w = words_of(t, value(t, seed(i, C_HARG)))
                    ws = [(0, w), (wt, w)]
                elif c == "handle-promise":
                    d = 4 * i + 3
                    ws = [(0, words_of(t, zero(t))),
                          (wt, words_of(t, value(t, seed(d, C_PROM1)))),
                          (2 * wt, words_of(t, value(t, seed(d, C_PROM2))))]
                elif c == "gen-arg":
                    slots = [0] + [s for s, cc in ((1, "foreach-suspend"),
                                                   (2, "handle-yield")) if cc in cells]
                    for s in (0, 1, 2):
                        w = words_of(t, value(t, seed(i, C_GX + s))) if s in slots \
                            else [0] * wt
                        ws += [(2 * wt * s, w), (2 * wt * s + wt, w)]
                elif c in ("foreach-yield", "handle-yield", "foreach-suspend"):
                    slot = {"foreach-yield": 0, "foreach-suspend": 1, "handle-yield": 2}[c]
                    ys = [value(t, seed(4 * i + slot, C_GEN, k)) for k in range(n)]
                    for k in range(3):
                        ws.append((k * wt, words_of(t, ys[k]) if k < n else [0] * wt))
                    ws.append((3 * wt, [n]))
                    if c == "foreach-suspend":
                        ws += iter_words(t, i, ys, 3 * wt + 1)
                elif c == "foreach-iter":
                    ys = [value(t, seed(4 * i, C_GEN, k)) for k in range(n)]
                    ws = iter_words(t, i, ys, 0)
                elif c == "frame":
                    a = value(t, seed(i, C_SWAP_A))
                    b = value(t, seed(i, C_SWAP_B))
                    if n % 2:
                        a, b = b, a
                    ws = [(0, words_of(t, value(t, seed(i, C_FRAME)))),
                          (wt, words_of(t, a)), (2 * wt, words_of(t, b))]
                elif c == "local-array":
                    ws = [(j * wt, words_of(t, value(t, seed(i, C_LA + (i + d) % 4))))
                          for j, d in enumerate((1, 3))]
                elif c == "buffer":
                    w = words_of(t, value(t, seed(i, C_BIN)))
                    ws = [(0, w), (wt, w)]
                for at, w in ws:
                    for j, x in enumerate(w):
                        rows.append((i, o + at + j, x))
            exp[(t, c)] = rows
        if "buffer" in cells:
            bufs[t] = [value(t, seed(i, C_BIN)) for i in range(GRID)] + [
                value(t, seed(i, C_BOUT)) for i in range(GRID)]
    return exp, bufs


def iter_words(t, i, ys, at):
    wt = type_words(t)
    init0 = value(t, seed(i, C_ITER0))
    last = ys[-1]
    before = ys[-2] if len(ys) >= 2 else init0
    return [(at, words_of(t, last)), (at + wt, words_of(t, before))]


# --- running ------------------------------------------------------------

class Result:
    def __init__(self, status, detail="", cells=None, cmd=None):
        self.status = status          # PASS, FAIL, ERROR
        self.detail = detail
        self.cells = cells or {}      # cell -> (status, detail)
        self.cmd = cmd


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:300]
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[-1].strip()[:300] if lines else ""


def run_tool(cmd, cwd, timeout):
    """subprocess.run, waiting (up to 10 minutes) for a tool that cannot be
    started, as while a build replaces it."""
    for attempt in range(120):
        try:
            return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                                  timeout=timeout)
        except OSError:
            if attempt == 119:
                raise
            time.sleep(5)


def run_program(args, plan, config, workdir):
    """Writes and runs the program of plan under config; checks every cell.
    Returns a Result whose cells says each (type, cell) -> (status, detail)."""
    os.makedirs(workdir, exist_ok=True)
    if config in dict(HOST_CONFIGS):
        return run_host_program(args, plan, config, workdir)
    if config in dict(PTX_CONFIGS):
        return compile_ptx(args, plan, config, workdir)
    text, lay, run_args, files = emit_program(plan)
    path = os.path.join(workdir, "prog.mlir")
    with open(path, "w") as f:
        f.write(text)
    for name, data in files:
        with open(os.path.join(workdir, name), "wb") as f:
            f.write(data)
    outdir = os.path.join(workdir, "out")
    shutil.rmtree(outdir, ignore_errors=True)
    cmd = [args.coro_run, "prog.mlir"] + run_args + dict(CONFIGS)[config] + \
        args.extra + ["--quiet", "--output-dir=out"]
    shown = "cd %s && %s" % (workdir, " ".join(cmd))
    try:
        p = run_tool(cmd, workdir, args.timeout)
    except subprocess.TimeoutExpired:
        return Result("ERROR", "timeout after %ds" % args.timeout, cmd=shown)
    except OSError as e:
        return Result("ERROR", "cannot run coro-run: %s" % e, cmd=shown)
    with open(os.path.join(workdir, "stderr.txt"), "w") as f:
        f.write(p.stdout + p.stderr)
    if p.returncode != 0:
        return Result("ERROR", "exit %d: %s" % (p.returncode,
                                                 first_error(p.stderr + p.stdout)),
                      cmd=shown)
    try:
        with open(os.path.join(outdir, "buffer0.bin"), "rb") as f:
            raw = f.read()
    except OSError as e:
        return Result("ERROR", "no output: %s" % e, cmd=shown)
    got = struct.unpack("<%dI" % (len(raw) // 4), raw)
    return check_words(plan, lay, got, outdir, shown)


def run_commands(args, cmds, workdir, shown):
    """Runs cmds in turn in workdir until one fails, their output into
    workdir/stderr.txt. Returns (the last process, None), or (None, an
    ERROR Result) when one failed."""
    out = ""
    for cmd in cmds:
        try:
            p = run_tool(cmd, workdir, args.timeout)
        except subprocess.TimeoutExpired:
            return None, Result("ERROR", "timeout after %ds" % args.timeout, cmd=shown)
        except OSError as e:
            return None, Result("ERROR", "cannot run %s: %s" % (cmd[0], e), cmd=shown)
        out += p.stdout + p.stderr
        if p.returncode != 0:
            break
    with open(os.path.join(workdir, "stderr.txt"), "w") as f:
        f.write(out)
    if p.returncode != 0:
        return None, Result("ERROR", "%s: exit %d: %s" % (
            os.path.basename(cmd[0]), p.returncode, first_error(out)), cmd=shown)
    return p, None


def run_host_program(args, plan, config, workdir):
    """run_program for a host program: coro-opt --coro-host-to-llvm, then
    args.run_host (mlir-runner with the runtime wrappers) prints the words.
    The buffer cells' stores are not read back (only the words)."""
    text, lay, _, _ = emit_program(plan, host=True)
    with open(os.path.join(workdir, "prog.mlir"), "w") as f:
        f.write(text)
    lower = [args.coro_opt, "prog.mlir",
             "--coro-host-to-llvm=%s" % dict(HOST_CONFIGS)[config],
             "-o", "prog.llvm.mlir"]
    run = shlex.split(args.run_host) + ["prog.llvm.mlir"]
    shown = "cd %s && %s && %s" % (workdir, " ".join(lower), " ".join(run))
    p, failure = run_commands(args, [lower, run], workdir, shown)
    if failure:
        return failure
    m = re.search(r"data =\s*\[([-\d,\s]*)\]", p.stdout)
    if not m:
        return Result("ERROR", "no printed words: %s" % first_error(out), cmd=shown)
    got = [int(w) & 0xFFFFFFFF for w in m.group(1).replace(",", " ").split()]
    if len(got) != lay.words * GRID:
        return Result("ERROR", "%d words printed, expected %d" % (
            len(got), lay.words * GRID), cmd=shown)
    return check_words(plan, lay, got, None, shown)


def compile_ptx(args, plan, config, workdir):
    """run_program for a PTX configuration: the program's kernels for sm_90
    (coro-run --emit=ptx), validated by ptxas; every cell passes if they
    are valid."""
    text, _, run_args, _ = emit_program(plan)
    with open(os.path.join(workdir, "prog.mlir"), "w") as f:
        f.write(text)
    emit = [args.coro_run, "prog.mlir"] + run_args[:1] + dict(PTX_CONFIGS)[config] + [
        "--emit=ptx", "--chip=sm_90", "--emit-to=prog.ptx"]
    validate = [args.ptxas, "-arch=sm_90", "prog.ptx", "-o", os.devnull]
    shown = "cd %s && %s && %s" % (workdir, " ".join(emit), " ".join(validate))
    _, failure = run_commands(args, [emit, validate], workdir, shown)
    if failure:
        return failure
    return Result("PASS", cells={(t, c): ("PASS", "") for t, cs in plan for c in cs},
                  cmd=shown)


def check_words(plan, lay, got, outdir, shown):
    """The Result of a run that wrote the words `got` (and, where outdir is
    given, the buffers buffer<N>.bin there)."""
    exp, bufs = expected(plan, lay)
    cells = {}
    for (t, c), rows in exp.items():
        bad = [(i, w, x, got[i * lay.words + w]) for i, w, x in rows
               if got[i * lay.words + w] != x]
        if c == "buffer" and outdir:
            bi = 1 + [tt for tt, cc in plan if "buffer" in cc].index(t)
            with open(os.path.join(outdir, "buffer%d.bin" % bi), "rb") as f:
                data = f.read()
            want = b"".join(buffer_bytes(t, v) for v in bufs[t])
            if data != want:
                n = len(want) // (2 * GRID)

                def elem(b, k):
                    return b[k * n:(k + 1) * n].hex()
                diff = [k for k in range(2 * GRID) if elem(data, k) != elem(want, k)]
                k = diff[0] if diff else 0
                bad.append(("buffer element", diff[:4], elem(want, k), elem(data, k)))
        if bad:
            cells[(t, c)] = ("FAIL", describe(bad, lay.off[(t, c)]))
        else:
            cells[(t, c)] = ("PASS", "")
    status = "FAIL" if any(s != "PASS" for s, _ in cells.values()) else "PASS"
    return Result(status, cells=cells, cmd=shown)


def describe(bad, off):
    parts = []
    for i, w, x, g in bad[:3]:
        if i == "buffer element":
            parts.append("buffer elements %s: expected %s, got %s" % (w, x, g))
        else:
            parts.append("instance %d word %d: expected 0x%x, got 0x%x" % (i, w - off, x, g))
    more = " (%d words wrong)" % len(bad) if len(bad) > 3 else ""
    return "; ".join(parts) + more


def unsupported_rule(t, c, host=False):
    """(tool, diagnostic, located) of the refusal of cell c with type t, in
    coro-run or (host) in a host program; None if it runs."""
    for cell, pattern, tool, diag, located, in_host in UNSUPPORTED:
        if cell == c and re.fullmatch(pattern, t) and (in_host or not host):
            return tool, diag, located
    return None


def check_unsupported(args, t, c, tool, diag, located, workdir):
    """A program of only cell c with type t must fail with diag (at a line
    of the program if located)."""
    os.makedirs(workdir, exist_ok=True)
    text, lay, run_args, files = emit_program([(t, [c])])
    with open(os.path.join(workdir, "prog.mlir"), "w") as f:
        f.write(text)
    for name, data in files:
        with open(os.path.join(workdir, name), "wb") as f:
            f.write(data)
    if tool == "coro-opt":
        cmd = [args.coro_opt, "prog.mlir", "--coro-inline-callables",
               "--coro-inline-awaits", "--coro-expand-yield",
               "--coro-normalize-control-flow", "--coro-split", "-o", os.devnull]
    else:
        cmd = [args.coro_run, "prog.mlir"] + run_args + ["--scheduler=megakernel",
                                                         "--quiet", "--output-dir=out"]
    shown = "cd %s && %s" % (workdir, " ".join(cmd))
    try:
        p = run_tool(cmd, workdir, args.timeout)
    except subprocess.TimeoutExpired:
        return Result("ERROR", "timeout", cmd=shown)
    except OSError as e:
        return Result("ERROR", "cannot run %s: %s" % (tool, e), cmd=shown)
    text = p.stdout + p.stderr
    with open(os.path.join(workdir, "stderr.txt"), "w") as f:
        f.write(text)
    if p.returncode == 0:
        return Result("FAIL", "accepted (expected error: %s)" % diag, cmd=shown)
    if diag not in text:
        return Result("FAIL", "expected '%s', got: %s" % (diag, first_error(text)), cmd=shown)
    loc = re.search(r"prog\.mlir:\d+:\d+: error", text)
    if located and not loc:
        return Result("FAIL", "error not located: %s" % first_error(text), cmd=shown)
    return Result("PASS", cmd=shown)


# How many values of T a cell observes (its share of a program's code): the
# kernels' compile time on lavapipe grows faster than their size, so the
# cells are packed into programs of at most --budget of these, times the
# 32-bit words of T.
CELL_WEIGHT = {"arg": 2, "await-arg": 2, "handle-arg": 2, "handle-promise": 3,
               "gen-arg": 6, "foreach-yield": 3, "foreach-iter": 4,
               "foreach-suspend": 7, "handle-yield": 3, "frame": 4,
               "local-array": 6, "buffer": 3}


def pack(items, budget):
    """items: [(type, [cells])] -> programs [[(type, [cells])]], each of at
    most `budget` weight (a cell heavier than that alone)."""
    programs, cur, weight = [], [], 0
    for t, cells in items:
        for c in cells:
            w = CELL_WEIGHT[c] * type_words(t)
            if cur and (budget <= 0 and cur[-1][0] != t or
                        budget > 0 and weight + w > budget):
                programs.append(cur)
                cur, weight = [], 0
            if cur and cur[-1][0] == t:
                cur[-1][1].append(c)
            else:
                cur.append((t, [c]))
            weight += w
    if cur:
        programs.append(cur)
    return programs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--coro-run", default=None, help="default: build/bin/coro-run")
    ap.add_argument("--coro-opt", default=None, help="default: build/bin/coro-opt")
    ap.add_argument("--types", default=None,
                    help="comma-separated types (vector<2xf32>, ...); default: all")
    ap.add_argument("--cells", default=None, help="comma-separated cells: "
                    + ", ".join(CELLS))
    ap.add_argument("--configs", default=None, help="comma-separated configurations: "
                    + ", ".join(c for c, _ in CONFIGS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per coro-run")
    ap.add_argument("--keep", default=None,
                    help="keep the programs and outputs here (and print the "
                         "command line of each failure)")
    ap.add_argument("--no-isolate", dest="isolate", action="store_false",
                    help="on ERROR, do not run each cell of the program alone")
    ap.add_argument("--budget", type=int, default=80,
                    help="weight of one program (values observed times their "
                         "32-bit words); 0: one program per type")
    ap.add_argument("--run-host", default=None,
                    help="command that runs a lowered host program (lit's "
                         "%%run_host: mlir-runner -e main with the runtime "
                         "wrappers); without it the host-program "
                         "configurations are left out")
    ap.add_argument("--ptxas", default=None,
                    help="ptxas; with it the PTX configurations compile each "
                         "program for sm_90 and validate it (not run)")
    ap.add_argument("--backend", default="vulkan", choices=["vulkan", "cuda"],
                    help="coro-run's device backend; on cuda the cells "
                         "UNSUPPORTED lists (refusals of the SPIR-V target) "
                         "are left out, not checked")
    ap.add_argument("--validate", action="store_true",
                    help="run with the Khronos validation layer")
    ap.add_argument("--print", dest="print_type", default=None,
                    help="print the program of this type (--cells, default all) "
                         "and its coro-run arguments, and exit")
    args = ap.parse_args(argv)

    def tool(given, name):
        if given:
            return shutil.which(given) or given
        cand = os.path.join(REPO, "build", "bin", name)
        return cand if os.path.exists(cand) else (shutil.which(name) or cand)
    args.coro_run = tool(args.coro_run, "coro-run")
    args.coro_opt = tool(args.coro_opt, "coro-opt")
    args.extra = (["--validate"] if args.validate else []) + (
        ["--backend=cuda"] if args.backend == "cuda" else [])

    cells = CELLS if not args.cells else args.cells.split(",")
    bad = [c for c in cells if c not in CELLS]
    if bad:
        ap.error("unknown cells: %s" % ", ".join(bad))
    if args.print_type:
        text, _, run_args, _ = emit_program([(args.print_type, cells)])
        print(text)
        print("// coro-run prog.mlir " + " ".join(run_args))
        return 0

    types = TYPES
    if args.types:
        # 'vector<2xf32>' has no comma.
        types = [t.strip() for t in args.types.split(",")]
        bad = [t for t in types if t not in TYPES]
        if bad:
            ap.error("unknown types: %s" % ", ".join(bad))
    known = CONFIGS + HOST_CONFIGS + PTX_CONFIGS
    configs = [c for c, _ in CONFIGS + (HOST_CONFIGS if args.run_host else [])
               + (PTX_CONFIGS if args.ptxas else [])] \
        if not args.configs else args.configs.split(",")
    for c in configs:
        if c not in dict(known):
            ap.error("unknown configuration %s" % c)
        if c in dict(HOST_CONFIGS) and not args.run_host:
            ap.error("configuration %s needs --run-host" % c)
        if c in dict(PTX_CONFIGS) and not args.ptxas:
            ap.error("configuration %s needs --ptxas" % c)

    keep = args.keep
    root = keep or tempfile.mkdtemp(prefix="type-matrix-")
    os.makedirs(root, exist_ok=True)

    # Supported and unsupported cells; the supported ones packed into
    # programs.
    unsupported = [(t, c) + unsupported_rule(t, c) for t in types for c in cells
                   if unsupported_rule(t, c) and args.backend == "vulkan"]
    packed = {}
    for host in (False, True):
        items = [(t, [c for c in cells if not unsupported_rule(t, c, host)])
                 for t in types]
        packed[host] = pack([(t, cs) for t, cs in items if cs], args.budget)

    def programs_of(cfg):
        return packed[cfg in dict(HOST_CONFIGS)]

    def pdir(i, cfg, *more):
        return os.path.join(root, "p%03d-%s" % (i, tag(programs_of(cfg)[i][0][0])),
                            cfg, *more)

    start = time.time()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    futs = {}
    for cfg in configs:
        for i, plan in enumerate(programs_of(cfg)):
            futs[(i, cfg)] = pool.submit(run_program, args, plan, cfg, pdir(i, cfg))
    ufuts = {}
    for t, c, tl, diag, located in unsupported:
        ufuts[(t, c)] = pool.submit(check_unsupported, args, t, c, tl, diag, located,
                                    os.path.join(root, "unsupported", tag(t), c))

    # Isolation: each cell of a program that did not run, alone under that
    # configuration.
    iso = {}
    for (i, cfg), fut in futs.items():
        if fut.result().status == "ERROR" and args.isolate:
            for t, cs in programs_of(cfg)[i]:
                if len(programs_of(cfg)[i]) == 1 and len(cs) == 1:
                    iso[(i, cfg, t, cs[0])] = fut
                    continue
                for c in cs:
                    iso[(i, cfg, t, c)] = pool.submit(
                        run_program, args, [(t, [c])], cfg,
                        pdir(i, cfg, "isolated", tag(t), c))

    def where(res):
        # The command line is only of use where the files stay.
        return "\n    " + res.cmd if keep and res.cmd else ""

    # One line per (type, configuration): its cells' results over every
    # program that has some of them.
    passed = failed = 0
    lines = []
    for t in types:
        for cfg in configs:
            errors, wrong, cmds = [], [], []
            ran = False
            for i, plan in enumerate(programs_of(cfg)):
                cs = dict(plan).get(t)
                if not cs:
                    continue
                ran = True
                res = futs[(i, cfg)].result()
                if res.status != "ERROR":
                    for c in cs:
                        st, detail = res.cells[(t, c)]
                        if st != "PASS":
                            wrong.append("%s: %s" % (c, detail))
                            cmds.append(res)
                    continue
                if not args.isolate:
                    errors.append(res.detail)
                    cmds.append(res)
                    continue
                alone_ok = True
                for c in cs:
                    r = iso[(i, cfg, t, c)].result()
                    if r.status == "ERROR":
                        errors.append("%s: %s" % (c, r.detail))
                        cmds.append(r)
                        alone_ok = False
                    elif r.cells[(t, c)][0] != "PASS":
                        wrong.append("%s: %s" % (c, r.cells[(t, c)][1]))
                        cmds.append(r)
                        alone_ok = False
                if alone_ok and not any(
                        iso[(i, cfg, tt, cc)].result().status == "ERROR"
                        for tt, ccs in plan for cc in ccs):
                    # Every cell runs alone, not together.
                    errors.append("the program fails, its cells alone do not: "
                                  + res.detail)
                    cmds.append(res)
            if not ran:
                continue
            if errors or wrong:
                failed += 1
                lines.append("%s %s %s: %s%s" % (
                    "ERROR" if errors else "FAIL", t, cfg,
                    " | ".join(errors + wrong), where(cmds[0])))
            else:
                passed += 1
                lines.append("PASS %s %s" % (t, cfg))
    for t, c, tl, diag, located in unsupported:
        r = ufuts[(t, c)].result()
        if r.status == "PASS":
            lines.append("PASS %s %s: unsupported, %s says '%s'" % (t, c, tl, diag))
            passed += 1
        else:
            lines.append("FAIL %s %s: unsupported: %s%s" % (t, c, r.detail, where(r)))
            failed += 1
    pool.shutdown()
    for line in lines:
        print(line)
    print("type-matrix: %d passed, %d failed (%d runs of programs under %d configurations, "
          "%.0f s)" % (passed, failed, len(futs), len(configs), time.time() - start))
    if not keep:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

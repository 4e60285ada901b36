# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Emission of a Program as MLIR.

Two modes from the same tree:
  coro    the coroutine module that coro-run compiles (coro.func, coro.id,
          coro.suspend, coro.await, coro.promise, coro.yield, coro.return);
  oracle  an upstream-only module (func.func with the instance index as a
          parameter, suspensions erased, awaits as calls) plus @main, which
          sets up the buffers exactly as coro-run does, runs every instance
          in order and prints every buffer.
This module holds what both modes share (FuncEmitter, the coroutine module,
the host program and the @main of buffers); oracle.py holds what only the
oracle needs: generators inlined at their loops, with guarded side effects.
Variables are threaded through the structured ops: scf.if / scf.index_switch
yield every variable assigned inside, scf.for / scf.while carry them as
iter_args, and cf blocks take every variable as a block argument. (Over 700
lines: one emitter per statement and expression kind of model.py, which both
modes walk, read together.)
"""

from .model import *  # noqa: F401,F403

OUT_BUFFERS = ["table", "out32", "out64", "acc"]  # coro-run buffer order


def fmt_float(v):
    return "%d.0" % int(v)


def norm_int(v, width):
    if width == 1:
        return v & 1
    v &= (1 << width) - 1
    if v >= 1 << (width - 1):
        v -= 1 << width
    return v


def const_text(ty, val):
    if ty == "i1":
        return "arith.constant %s" % ("true" if val & 1 else "false")
    if ty == "index":
        return "arith.constant %d : index" % val
    if ty in WIDTH:
        return "arith.constant %d : %s" % (norm_int(val, WIDTH[ty]), ty)
    if ty in FLOAT_TYPES:
        return "arith.constant %s : %s" % (fmt_float(val), ty)
    vals = val if isinstance(val, list) else [val] * lanes(ty)
    if elem(ty) in WIDTH:
        body = ", ".join(str(norm_int(v, WIDTH[elem(ty)])) for v in vals)
    else:
        body = ", ".join(fmt_float(v) for v in vals)
    return "arith.constant dense<[%s]> : %s" % (body, MLIR_TYPE[ty])


def zero(ty):
    return [0] * lanes(ty) if is_vec(ty) else 0


class FuncEmitter:
    """One function of either mode; OracleEmitter (oracle.py) is the
    oracle's, which inlines generators at their loops."""

    def __init__(self, prog, func, mode):
        self.prog, self.func, self.mode = prog, func, mode
        self.lines = []
        self.ind = 1
        self.n = 0
        self.env = {}
        self.ivs = {}
        self.args = {}
        self.arrays = {}
        self.consts = {}
        self.const_lines = []
        self.vals = {}         # ForEach uid -> the SSA value of its value
        self.extra_types = {}  # variables a subclass adds (the oracle's
                               # inlined generators)
        self.cf_mode = any(isinstance(s, (CfLoop, ReturnIf))
                           for s in func.body)

    # ------------------------------------------------------------ helpers
    def emit(self, line):
        self.lines.append("  " * self.ind + line)

    def label(self, line):
        self.lines.append(line)

    def fresh(self, hint="t"):
        self.n += 1
        return "%%%s_%d" % (hint, self.n)

    def op(self, rhs, hint="t"):
        name = self.fresh(hint)
        self.emit("%s = %s" % (name, rhs))
        return name

    def const(self, ty, val):
        """Constants are hoisted to the top of the function (they dominate
        every block), one per value."""
        text = const_text(ty, val)
        if text not in self.consts:
            if is_vec(ty):
                name = "%%cst%d_%s" % (len(self.consts), ty)
            else:
                v = text.split()[1]
                v = v.replace("-", "m").replace(".0", "")
                name = "%%c%s_%s" % (v if ty != "i1" else v, MLIR_TYPE[ty])
            self.consts[text] = name
            self.const_lines.append("  %s = %s" % (name, text))
        return self.consts[text]

    def T(self, ty):
        return MLIR_TYPE[ty]

    def idx(self, e, mod):
        """An index in [0, mod) from the integer expression e."""
        if isinstance(e, Const):
            return self.const("index", norm_int(e.val, 32) % mod)
        return self.toidx(self.ex(e), e.ty, mod)

    def toidx(self, v, ty, mod=None):
        """An in-range index from an integer value of type ty."""
        v = self.convert(v, ty, "i32")
        m = self.op("arith.andi %s, %s : i32" % (v, self.const("i32", INDEX_MOD - 1)))
        i = self.op("arith.index_castui %s : i32 to index" % m, "ix")
        if mod:
            i = self.op("arith.remui %s, %s : index" % (i, self.const("index", mod)), "ix")
        return i

    def convert(self, v, frm, to):
        if frm == to:
            return v
        if is_int_vec(frm) and is_int_vec(to) and lanes(frm) == lanes(to):
            a, b = WIDTH[elem(frm)], WIDTH[elem(to)]
            kind = "extsi" if a < b else "trunci"
            return self.op("arith.%s %s : %s to %s" % (kind, v, self.T(frm), self.T(to)))
        if is_vec(frm):
            if is_int_vec(frm):
                s = self.op("vector.reduction <add>, %s : %s into %s" % (v, self.T(frm), elem(frm)))
                return self.convert(s, elem(frm), to)
            s = self.op("vector.extract %s[0] : %s from %s" % (v, elem(frm), self.T(frm)))
            return self.convert(s, elem(frm), to)
        if is_vec(to):
            s = self.convert(v, frm, elem(to))
            return self.op("vector.broadcast %s : %s to %s" % (s, elem(to), self.T(to)))
        if frm in WIDTH and to in WIDTH:
            a, b = WIDTH[frm], WIDTH[to]
            if a < b:
                kind = "extui" if frm == "i1" else "extsi"
                return self.op("arith.%s %s : %s to %s" % (kind, v, frm, to))
            return self.op("arith.trunci %s : %s to %s" % (v, frm, to))
        if frm in WIDTH and to == "index":
            return self.toidx(v, frm)
        if frm == "index":
            i = self.op("arith.index_cast %s : index to i32" % v)
            return self.convert(i, "i32", to)
        if frm in WIDTH and to in FLOAT_TYPES:
            s = self.convert(v, frm, "i8")
            return self.op("arith.sitofp %s : i8 to %s" % (s, to))
        if frm in FLOAT_TYPES and to in FLOAT_TYPES:
            kind = "extf" if FLOAT_TYPES.index(frm) < FLOAT_TYPES.index(to) else "truncf"
            return self.op("arith.%s %s : %s to %s" % (kind, v, frm, to))
        if frm in FLOAT_TYPES:
            # f64 values reach 2^50: through i64, where they fit.
            wide = "i64" if frm == "f64" else "i32"
            i = self.op("arith.fptosi %s : %s to %s" % (v, frm, wide))
            return self.convert(i, wide, to)
        raise ValueError("no conversion %s -> %s" % (frm, to))

    def to_leaf(self, v, ty):
        """The i32 a loop body sees of a yielded value of type ty: explicit
        arith/vector ops, the same in the program (at the top of the
        coro.for_each body) and in the oracle (at each inlined yield); every
        bit that reaches a frame field or a conversion matters."""
        if ty == "i32":
            return v
        if is_int_vec(ty):
            n, e = lanes(ty), elem(ty)
            w = self.const(ty, [1, 3, 9, 27][:n])
            m = self.op("arith.muli %s, %s : %s" % (v, w, self.T(ty)), "leaf")
            s = self.op("vector.reduction <add>, %s : %s into %s" % (m, self.T(ty), e), "leaf")
            return self.to_leaf(s, e)
        if is_vec(ty):  # v2f32: exact integers, lane by lane
            iv = "v%di32" % lanes(ty)
            i = self.op("arith.fptosi %s : %s to %s" % (v, self.T(ty), self.T(iv)), "leaf")
            return self.to_leaf(i, iv)
        if ty == "i64":
            hi = self.op("arith.shrui %s, %s : i64" % (v, self.const("i64", 32)), "leaf")
            x = self.op("arith.xori %s, %s : i64" % (v, hi), "leaf")
            return self.op("arith.trunci %s : i64 to i32" % x, "leaf")
        if ty == "f64":
            i = self.op("arith.fptosi %s : f64 to i64" % v, "leaf")
            return self.to_leaf(i, "i64")
        if ty in FLOAT_TYPES:
            return self.op("arith.fptosi %s : %s to i32" % (v, ty), "leaf")
        if ty == "index":
            return self.op("arith.index_cast %s : index to i32" % v, "leaf")
        kind = "extui" if ty == "i1" else "extsi"
        return self.op("arith.%s %s : %s to i32" % (kind, v, ty), "leaf")

    def clamp(self, v, ty):
        if not is_float(ty):
            return v
        b = VAR_BOUND[ty]
        hi = self.const(ty, b)
        lo = self.const(ty, -b)
        v = self.op("arith.minimumf %s, %s : %s" % (v, hi, self.T(ty)))
        return self.op("arith.maximumf %s, %s : %s" % (v, lo, self.T(ty)))

    # -------------------------------------------------------- expressions
    def ex(self, e):
        t = type(e)
        if t is Const:
            return self.const(e.ty, e.val)
        if t is VarRef:
            if e.name in self.env:
                return self.env[e.name]
            return self.const(e.ty, zero(e.ty))
        if t is IdRef:
            return "%id"
        if t is ArgRef:
            if e.name in self.args:
                return self.args[e.name]
            return self.const(e.ty, zero(e.ty))
        if t is ValRef:
            if e.uid in self.vals:
                return self.convert(self.vals[e.uid], "i32", e.ty)
            return self.const(e.ty, zero(e.ty))
        if t is IvRef:
            if e.uid in self.ivs:
                return self.convert(self.ivs[e.uid][0], self.ivs[e.uid][1], e.ty)
            return self.const(e.ty, zero(e.ty))
        if t is Un:
            a = self.ex(e.a)
            if e.op == "neg":
                return self.op("arith.negf %s : %s" % (a, self.T(e.ty)))
            if e.op == "abs":
                return self.op("math.absf %s : %s" % (a, self.T(e.ty)))
            ones = self.const(e.ty, [-1] * lanes(e.ty) if is_vec(e.ty) else -1)
            return self.op("arith.xori %s, %s : %s" % (a, ones, self.T(e.ty)))
        if t is Bin:
            a, b = self.ex(e.a), self.ex(e.b)
            ty = self.T(e.ty)
            if e.op in ("shli", "shrui", "shrsi"):
                w = WIDTH.get(elem(e.ty), 32)
                m = self.const(e.ty, [w - 1] * lanes(e.ty) if is_vec(e.ty) else w - 1)
                b = self.op("arith.andi %s, %s : %s" % (b, m, ty))
            elif e.op in ("divui", "remui", "ceildivui"):
                one = self.const(e.ty, [1] * lanes(e.ty) if is_vec(e.ty) else 1)
                b = self.op("arith.ori %s, %s : %s" % (b, one, ty))
            elif e.op in ("divsi", "remsi", "floordivsi", "ceildivsi"):
                # A divisor in [1, 63]: never zero, never -1 (MIN / -1).
                m = self.const(e.ty, [63] * lanes(e.ty) if is_vec(e.ty) else 63)
                one = self.const(e.ty, [1] * lanes(e.ty) if is_vec(e.ty) else 1)
                b = self.op("arith.andi %s, %s : %s" % (b, m, ty))
                b = self.op("arith.ori %s, %s : %s" % (b, one, ty))
            r = self.op("arith.%s %s, %s : %s" % (e.op, a, b, ty))
            if e.ty == "index":
                r = self.op("arith.remui %s, %s : index" % (r, self.const("index", INDEX_MOD)), "ix")
            return r
        if t is Exp2:
            a = self.ex(e.a)
            a = self.op("arith.andi %s, %s : i32" % (a, self.const("i32", 15)))
            x = self.op("arith.sitofp %s : i32 to f32" % a)
            x = self.op("math.exp2 %s : f32" % x)
            return self.op("math.roundeven %s : f32" % x)
        if t is Atan2:
            a = self.ex(e.a)
            a = self.op("arith.andi %s, %s : i32" % (a, self.const("i32", 255)))
            a = self.op("arith.addi %s, %s : i32" % (a, self.const("i32", 1)))
            s = self.op("arith.sitofp %s : i32 to f32" % a)
            y = self.op("arith.mulf %s, %s : f32" % (s, self.const("f32", e.m1)))
            x = self.op("arith.mulf %s, %s : f32" % (s, self.const("f32", e.m2)))
            r = self.op("math.atan2 %s, %s : f32" % (y, x))
            r = self.op("arith.mulf %s, %s : f32" % (r, self.const("f32", e.k)))
            return self.op("math.roundeven %s : f32" % r)
        if t is Cmp:
            a, b = self.ex(e.a), self.ex(e.b)
            kind = "cmpf" if is_float(e.a.ty) else "cmpi"
            return self.op("arith.%s %s, %s, %s : %s" % (kind, e.pred, a, b, self.T(e.a.ty)))
        if t is Sel:
            c, a, b = self.ex(e.c), self.ex(e.a), self.ex(e.b)
            return self.op("arith.select %s, %s, %s : %s" % (c, a, b, self.T(e.ty)))
        if t is Conv:
            return self.convert(self.ex(e.a), e.a.ty, e.ty)
        if t is VecSplat:
            s = self.convert(self.ex(e.a), e.a.ty, elem(e.ty))
            return self.op("vector.broadcast %s : %s to %s" % (s, elem(e.ty), self.T(e.ty)))
        if t is VecFrom:
            xs = [self.convert(self.ex(x), x.ty, elem(e.ty)) for x in e.elems]
            return self.op("vector.from_elements %s : %s" % (", ".join(xs), self.T(e.ty)))
        if t is VecExtract:
            v = self.ex(e.v)
            s = self.op("vector.extract %s[%d] : %s from %s" % (v, e.pos, elem(e.v.ty), self.T(e.v.ty)))
            return self.convert(s, elem(e.v.ty), e.ty)
        if t is VecInsert:
            v = self.ex(e.v)
            s = self.convert(self.ex(e.s), e.s.ty, elem(e.ty))
            return self.op("vector.insert %s, %s[%d] : %s into %s" % (s, v, e.pos, elem(e.ty), self.T(e.ty)))
        if t is VecReduce:
            v = self.ex(e.v)
            s = self.op("vector.reduction <add>, %s : %s into %s" % (v, self.T(e.v.ty), elem(e.v.ty)))
            return self.convert(s, elem(e.v.ty), e.ty)
        if t is VecShuffle:
            a, b = self.ex(e.a), self.ex(e.b)
            return self.op("vector.shuffle %s, %s [%s] : %s, %s" % (
                a, b, ", ".join(map(str, e.mask)), self.T(e.a.ty), self.T(e.b.ty)))
        if t is VecSlice:
            v = self.ex(e.v)
            return self.op("vector.extract_strided_slice %s {offsets = [%d], sizes = [%d], "
                           "strides = [1]} : %s to %s" % (v, e.offset, lanes(e.ty),
                                                          self.T(e.v.ty), self.T(e.ty)))
        if t is VecInsertSlice:
            part, v = self.ex(e.part), self.ex(e.v)
            return self.op("vector.insert_strided_slice %s, %s {offsets = [%d], strides = [1]} "
                           ": %s into %s" % (part, v, e.offset, self.T(e.part.ty), self.T(e.ty)))
        if t is TableLoad:
            i = self.idx(e.idx, TABLE_SIZE)
            return self.op("memref.load %%table[%s] : memref<?xi32>" % i, "tab")
        if t is TableVecLoad:
            i = self.idx(e.idx, TABLE_SIZE - lanes(e.ty) + 1)
            return self.op("vector.load %%table[%s] : memref<?xi32>, %s" % (i, self.T(e.ty)), "tvl")
        if t is ArrLoad:
            if e.arr not in self.arrays:
                return self.const(e.ty, 0)
            name, ety = self.arrays[e.arr]
            i = self.idx(e.idx, ARRAY_SIZE)
            v = self.op("memref.load %s[%s] : memref<%dx%s>" % (name, i, ARRAY_SIZE, ety), "ld")
            return self.convert(v, ety, e.ty)
        raise TypeError(t)

    # --------------------------------------------------------- statements
    def declared(self, names):
        return [v for v in names if v in self.env]

    def vtype(self, name):
        if name in self.extra_types:
            return self.extra_types[name]
        for v in self.func.vars:
            if v.name == name:
                return v.ty
        raise KeyError(name)

    def types_of(self, names):
        return [self.T(self.vtype(v)) for v in names]

    def stmts(self, lst):
        for s in lst:
            self.stmt(s)

    def yield_(self, names):
        if names:
            self.emit("scf.yield %s : %s" % (", ".join(self.env[v] for v in names),
                                             ", ".join(self.types_of(names))))

    def results(self, names, kw):
        """Binds the results of a region op to names; returns the prefix."""
        if not names:
            return ""
        r = self.fresh(kw)
        for i, v in enumerate(names):
            self.env[v] = "%s#%d" % (r, i)
        return "%s:%d = " % (r, len(names))

    def stmt(self, s):
        t = type(s)
        coro = self.mode == "coro"
        if t is Assign:
            if s.var not in self.env:
                return
            v = self.ex(s.e)
            v = self.clamp(v, s.ty)
            self.env[s.var] = v
        elif t is Suspend:
            if coro:
                self.emit("coro.suspend" + (' "%s"' % s.tag if s.tag else ""))
            else:
                self.emit("// coro.suspend" + (' "%s"' % s.tag if s.tag else ""))
        elif t is If:
            names = self.declared(assigned(s.then + (s.els or [])))
            c = self.ex(s.cond)
            before = dict(self.env)
            head = "scf.if %s" % c
            if names:
                head += " -> (%s)" % ", ".join(self.types_of(names))
            idx = len(self.lines)
            self.emit(head + " {")
            self.ind += 1
            self.stmts(s.then)
            self.yield_(names)
            self.ind -= 1
            if s.els is not None or names:
                self.env = dict(before)
                self.emit("} else {")
                self.ind += 1
                self.stmts(s.els or [])
                self.yield_(names)
                self.ind -= 1
            self.env = before
            self.emit("}")
            self.lines[idx] = self._prefix(self.lines[idx], self.results(names, "if"))
        elif t is For:
            names = self.declared(assigned(s.body))
            lb = self.const(s.ivty, s.lb)
            if isinstance(s.ub, int):
                ub = self.const(s.ivty, s.ub)
            else:
                u = self.convert(self.ex(s.ub), s.ub.ty, "i32")
                ub = self.op("arith.andi %s, %s : i32" % (u, self.const("i32", 7)))
                if s.ivty == "index":
                    ub = self.op("arith.index_castui %s : i32 to index" % ub, "ix")
            st = self.const(s.ivty, s.step)
            iv = self.fresh("iv")
            outer = dict(self.env)
            inits = [outer[v] for v in names]
            args = []
            for v in names:
                a = self.fresh(v)
                args.append(a)
                self.env[v] = a
            head = "scf.for %s = %s to %s step %s" % (iv, lb, ub, st)
            if names:
                head += " iter_args(%s) -> (%s)" % (
                    ", ".join("%s = %s" % (a, i) for a, i in zip(args, inits)),
                    ", ".join(self.types_of(names)))
            if s.ivty != "index":
                head += " : %s" % s.ivty
            idx = len(self.lines)
            self.emit(head + " {")
            self.ivs[s.uid] = (iv, s.ivty)
            self.ind += 1
            self.stmts(s.body)
            self.yield_(names)
            self.ind -= 1
            self.emit("}")
            del self.ivs[s.uid]
            self.env = outer
            self.lines[idx] = self._prefix(self.lines[idx], self.results(names, "for"))
        elif t is While:
            names = self.declared(assigned(s.before + s.after))
            z = self.const("i32", 0)
            outer = dict(self.env)
            ctr = self.fresh("trip")
            args = [ctr]
            for v in names:
                a = self.fresh(v)
                args.append(a)
                self.env[v] = a
            tys = ["i32"] + self.types_of(names)
            inits = [z] + [outer[v] for v in names]
            idx = len(self.lines)
            self.emit("scf.while (%s) : (%s) -> (%s) {" % (
                ", ".join("%s = %s" % (a, i) for a, i in zip(args, inits)),
                ", ".join(tys), ", ".join(tys)))
            self.ind += 1
            c2 = self.op("arith.addi %s, %s : i32" % (ctr, self.const("i32", 1)), "trip")
            self.stmts(s.before)
            lim = self.op("arith.cmpi sle, %s, %s : i32" % (c2, self.const("i32", s.maxt)))
            cc = self.ex(s.cond)
            go = self.op("arith.andi %s, %s : i1" % (lim, cc), "go")
            self.emit("scf.condition(%s) %s : %s" % (
                go, ", ".join([c2] + [self.env[v] for v in names]), ", ".join(tys)))
            self.ind -= 1
            self.emit("} do {")
            c3 = self.fresh("trip")
            bargs = [c3]
            for v in names:
                a = self.fresh(v)
                bargs.append(a)
                self.env[v] = a
            self.label("  " * self.ind + "^bb0(%s):" % ", ".join(
                "%s: %s" % (a, ty) for a, ty in zip(bargs, tys)))
            self.ind += 1
            self.stmts(s.after)
            self.emit("scf.yield %s : %s" % (
                ", ".join([c3] + [self.env[v] for v in names]), ", ".join(tys)))
            self.ind -= 1
            self.emit("}")
            self.env = outer
            r = self.fresh("while")
            self.lines[idx] = self._prefix(self.lines[idx], "%s:%d = " % (r, len(tys)))
            for i, v in enumerate(names):
                self.env[v] = "%s#%d" % (r, i + 1)
        elif t is Switch:
            names = self.declared(assigned([x for c in s.cases for x in c] + s.default))
            sel = self.idx(s.sel, len(s.cases) + 1)
            outer = dict(self.env)
            idx = len(self.lines)
            self.emit("scf.index_switch %s%s" % (
                sel, (" -> " + ", ".join(self.types_of(names))) if names else ""))
            for i, body in enumerate(s.cases + [s.default]):
                self.env = dict(outer)
                self.emit(("case %d {" % i) if i < len(s.cases) else "default {")
                self.ind += 1
                self.stmts(body)
                if names:
                    self.yield_(names)
                else:
                    self.emit("scf.yield")
                self.ind -= 1
                self.emit("}")
            self.env = outer
            self.lines[idx] = self._prefix(self.lines[idx], self.results(names, "sw"))
        elif t is Store:
            buf = s.buf
            if buf == "out64" and not self.func.is_entry:
                return
            ety = "i64" if buf == "out64" else "i32"
            k = self.prog.k64 if buf == "out64" else self.prog.k32
            lanes = 4 if s.e.ty == "v4i32" else 1
            if s.j + lanes > k:
                return
            if lanes > 1:
                assert buf == "out32", "vector stores go to out32"
                v = self.ex(s.e)
                base = self.op("arith.muli %%id, %s : index" % self.const("index", k), "at")
                at = self.op("arith.addi %s, %s : index" % (base, self.const("index", s.j)), "at")
                self.emit("vector.store %s, %%%s[%s] : memref<?xi32>, vector<4xi32>" % (v, buf, at))
                return
            v = self.convert(self.ex(s.e), s.e.ty, ety)
            base = self.op("arith.muli %%id, %s : index" % self.const("index", k), "at")
            at = self.op("arith.addi %s, %s : index" % (base, self.const("index", s.j)), "at")
            self.emit("memref.store %s, %%%s[%s] : memref<?x%s>" % (v, buf, at, ety))
        elif t is Atomic:
            v = self.convert(self.ex(s.e), s.e.ty, "i32")
            c = self.const("index", s.cell)
            self.op("memref.atomic_rmw %s %s, %%acc[%s] : (i32, memref<?xi32>) -> i32" % (
                ATOMIC_OPS[s.cell], v, c), "old")
        elif t is Exchange:
            k = self.prog.k32
            if s.j >= k:
                return
            v = self.convert(self.ex(s.e), s.e.ty, "i32")
            base = self.op("arith.muli %%id, %s : index" % self.const("index", k), "at")
            at = self.op("arith.addi %s, %s : index" % (base, self.const("index", s.j)), "at")
            old = self.op("memref.atomic_rmw assign %s, %%out32[%s] : (i32, memref<?xi32>) -> i32" % (
                v, at), "old")
            self.op("memref.atomic_rmw addi %s, %%acc[%s] : (i32, memref<?xi32>) -> i32" % (
                old, self.const("index", 0)), "old")
        elif t is ArrStore:
            if s.arr not in self.arrays:
                return
            name, ety = self.arrays[s.arr]
            i = self.idx(s.idx, ARRAY_SIZE)
            v = self.clamp(self.convert(self.ex(s.e), s.e.ty, ety), ety)
            self.emit("memref.store %s, %s[%s] : memref<%dx%s>" % (v, name, i, ARRAY_SIZE, ety))
        elif t is Promise:
            v = self.ex(s.e)
            if coro:
                self.emit('coro.promise "%s", %s : %s' % (s.name, v, self.T(s.ty)))
            else:
                self.emit('// coro.promise "%s", %s : %s' % (s.name, v, self.T(s.ty)))
        elif t is Yield:
            yty = self.func.yield_ty
            v = self.convert(self.ex(s.e), s.e.ty, yty)
            if coro and self.func.generator:
                self.emit("coro.yield %s : %s" % (v, self.T(yty)))
            else:
                self.emit("// coro.yield %s : %s" % (v, self.T(yty)))
        elif t is Await:
            callee = self.prog.func(s.callee)
            if callee is None or "a0" not in self.arrays:
                return
            vals, tys = [], []
            for (pname, pty), a in zip(callee.params, s.args):
                vals.append(self.convert(self.ex(a), a.ty, pty))
                tys.append(self.T(pty))
            vals += ["%table", "%out32", "%acc", self.arrays["a0"][0]]
            tys += ["memref<?xi32>"] * 3 + ["memref<%dxi32>" % ARRAY_SIZE]
            if coro:
                self.emit("coro.await @%s(%s) : (%s) -> ()" % (
                    s.callee, ", ".join(vals), ", ".join(tys)))
            else:
                self.emit("func.call @%s(%s) : (%s) -> ()" % (
                    s.callee, ", ".join(["%id"] + vals), ", ".join(["index"] + tys)))
        elif t is ForEach:
            self.for_each(s)
        elif t is CfLoop:
            # Outside the top level of a cf body: its body, once.
            self.stmts([x for x in s.body if not isinstance(x, (Break, Continue, ReturnIf))])
        elif t in (Break, Continue, ReturnIf):
            pass
        else:
            raise TypeError(t)

    def generator_args(self, s, gen):
        """The values and types of a loop's arguments to its generator."""
        vals, tys = [], []
        for (pname, pty), a in zip(gen.params, s.args):
            vals.append(self.convert(self.ex(a), a.ty, pty))
            tys.append(self.T(pty))
        return vals, tys

    def for_each(self, s):
        gen = self.prog.func(s.gen)
        if gen is None or "a0" not in self.arrays:
            return
        names = self.declared(assigned(s.body))
        vals, tys = self.generator_args(s, gen)
        vals += ["%table", "%out32", "%acc", self.arrays["a0"][0]]
        tys += ["memref<?xi32>"] * 3 + ["memref<%dxi32>" % ARRAY_SIZE]
        outer = dict(self.env)
        inits = [outer[v] for v in names]
        value = self.fresh("val")
        args = []
        for v in names:
            a = self.fresh(v)
            args.append(a)
            self.env[v] = a
        head = "coro.for_each @%s[%%id](%s : %s)" % (s.gen, ", ".join(vals), ", ".join(tys))
        if names:
            head += " iter_args(%s : %s) -> (%s)" % (
                ", ".join(inits), ", ".join(self.types_of(names)), ", ".join(self.types_of(names)))
        idx = len(self.lines)
        self.emit(head + " {")
        self.label("  " * self.ind + "^bb0(%s):" % ", ".join(
            ["%s: %s" % (value, self.T(gen.yield_ty))]
            + ["%s: %s" % (a, ty) for a, ty in zip(args, self.types_of(names))]))
        self.ind += 1
        # The body's i32 leaf of the value, explicit (as in the oracle).
        self.vals[s.uid] = self.to_leaf(value, gen.yield_ty)
        self.stmts(s.body)
        brk = self.ex(s.brk)
        go = self.op("arith.xori %s, %s : i1" % (brk, self.const("i1", 1)), "go")
        self.emit("coro.for_each.yield %s%s" % (go, (", %s : %s" % (
            ", ".join(self.env[v] for v in names), ", ".join(self.types_of(names)))) if names else ""))
        del self.vals[s.uid]
        self.ind -= 1
        self.emit("}")
        self.env = outer
        self.lines[idx] = self._prefix(self.lines[idx], self.results(names, "fe"))

    def _count_since(self, head):
        # index (from the end) of the last line that starts the op `head`
        for k in range(len(self.lines) - 1, -1, -1):
            if self.lines[k].strip().startswith(head):
                return len(self.lines) - 1 - k
        raise ValueError(head)

    @staticmethod
    def _prefix(line, prefix):
        stripped = line.lstrip()
        return line[:len(line) - len(stripped)] + prefix + stripped

    # ------------------------------------------------------------ cf body
    def vars_live(self):
        return [v.name for v in self.func.vars if v.name in self.env]

    def br_args(self, extra=()):
        names = self.vars_live()
        vals = [x[0] for x in extra] + [self.env[v] for v in names]
        tys = [x[1] for x in extra] + self.types_of(names)
        if not vals:
            return ""
        return "(%s : %s)" % (", ".join(vals), ", ".join(tys))

    def block(self, name, extra=()):
        names = self.vars_live()
        params = []
        out = []
        for hint, ty in extra:
            a = self.fresh(hint)
            params.append("%s: %s" % (a, ty))
            out.append(a)
        for v in names:
            a = self.fresh(v)
            params.append("%s: %s" % (a, self.T(self.vtype(v))))
            self.env[v] = a
        self.label("%s%s:" % (name, ("(%s)" % ", ".join(params)) if params else ""))
        return out

    def new_label(self):
        self.n += 1
        return "^bb%d" % self.n

    def ret(self):
        self.emit("coro.return" if self.mode == "coro" else "return")

    def cf_items(self, items, loop):
        for s in items:
            t = type(s)
            if t is CfLoop:
                z = self.const("i32", 0)
                h, body, ex = self.new_label(), self.new_label(), self.new_label()
                self.emit("cf.br %s%s" % (h, self.br_args([(z, "i32")])))
                (ctr,) = self.block(h, [("trip", "i32")])
                more = self.op("arith.cmpi slt, %s, %s : i32" % (ctr, self.const("i32", s.maxt)))
                self.emit("cf.cond_br %s, %s, %s%s" % (more, body, ex, self.br_args()))
                saved = dict(self.env)
                self.label("%s:" % body)
                nxt = self.op("arith.addi %s, %s : i32" % (ctr, self.const("i32", 1)), "trip")
                self.cf_items(s.body, (h, ex, nxt))
                self.emit("cf.br %s%s" % (h, self.br_args([(nxt, "i32")])))
                self.env = saved
                self.block(ex)
            elif t in (Break, Continue):
                if loop is None:
                    continue
                c = self.ex(s.cond)
                cont = self.new_label()
                if t is Break:
                    target = loop[1] + self.br_args()
                else:
                    target = loop[0] + self.br_args([(loop[2], "i32")])
                self.emit("cf.cond_br %s, %s, %s" % (c, target, cont))
                self.label("%s:" % cont)
            elif t is ReturnIf:
                c = self.ex(s.cond)
                r, cont = self.new_label(), self.new_label()
                self.emit("cf.cond_br %s, %s, %s" % (c, r, cont))
                saved = dict(self.env)
                self.label("%s:" % r)
                self.stmts([x for x in s.body if not isinstance(x, (CfLoop, Break, Continue, ReturnIf))])
                self.ret()
                self.env = saved
                self.label("%s:" % cont)
            else:
                self.stmt(s)

    # ------------------------------------------------------------ function
    def function(self):
        f, coro = self.func, self.mode == "coro"
        params = []
        if not coro:
            params.append("%id: index")
        for name, ty in f.params:
            self.args[name] = "%" + name
            params.append("%%%s: %s" % (name, self.T(ty)))
        params += ["%table: memref<?xi32>", "%out32: memref<?xi32>"]
        if f.is_entry:
            params.append("%out64: memref<?xi64>")
        params.append("%acc: memref<?xi32>")
        if not f.is_entry:
            params.append("%%a0: memref<%dxi32>" % ARRAY_SIZE)
            if "a0" in f.arrays:
                self.arrays["a0"] = ("%a0", "i32")
        kw = "coro.func" if coro else "func.func"
        head = "%s @%s(%s)" % (kw, f.name, ", ".join(params))
        if coro and f.generator:
            head += " yields %s" % self.T(f.yield_ty)
        self.lines.append(head + " {")
        if coro:
            self.emit("%id = coro.id : index")
        if f.is_entry:
            id32 = self.op("arith.index_cast %id : index to i32", "id32")
            for name, ety in sorted(f.arrays.items()):
                a = self.op("memref.alloca() : memref<%dx%s>" % (ARRAY_SIZE, ety), name)
                self.arrays[name] = (a, ety)
                for i in range(ARRAY_SIZE):
                    if ety == "i32":
                        v = self.op("arith.addi %s, %s : i32" % (id32, self.const("i32", 7 * i + 1)))
                    else:
                        v = self.const(ety, i - 3)
                    self.emit("memref.store %s, %s[%s] : memref<%dx%s>" % (
                        v, a, self.const("index", i), ARRAY_SIZE, ety))
        for var in f.vars:
            v = self.clamp(self.ex(var.init), var.ty)
            self.env[var.name] = v
        if self.cf_mode:
            self.cf_items(f.body, None)
        else:
            self.stmts(f.body)
        self.ret()
        self.lines.append("}")
        at = 2 if coro else 1
        self.lines[at:at] = self.const_lines
        return "\n".join(self.lines)


def emit_coro(prog):
    out = ["// coro-fuzz seed %s: %s" % (prog.seed, " ".join(run_args(prog, "table.bin")))]
    for f in reversed(prog.funcs):
        out.append(FuncEmitter(prog, f, "coro").function())
        out.append("")
    return "\n".join(out)


def buffer_specs(prog, table_path):
    g = prog.grid
    return [("i32", TABLE_SIZE, "file=" + table_path), ("i32", g * prog.k32, "zeros"),
            ("i64", g * prog.k64, "zeros"), ("i32", ACC_SIZE, "iota")]


def run_args(prog, table_path):
    args = ["--coro=%s" % prog.entry.name, "--grid=%d" % prog.grid]
    for name, ty in prog.entry.params:
        v = prog.args[name]
        if is_vec(ty):
            args.append("--arg=" + ",".join(str(x) for x in v))
        else:
            args.append("--arg=%s" % (fmt_float(v) if ty == "f32" else str(v)))
    for ty, n, init in buffer_specs(prog, table_path):
        args.append("--buffer=%s:%d:%s" % (ty, n, init))
    return args


def table_bytes(prog):
    import struct
    return struct.pack("<%di" % len(prog.table), *prog.table)


def main_declarations(prog):
    """The table global and the printing functions `emit_main` uses."""
    return ['memref.global "private" constant @table_data : memref<%dxi32> = dense<[%s]>' % (
                TABLE_SIZE, ", ".join(str(v) for v in prog.table)),
            "func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
            "func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}"]


def emit_main(prog, scheduler=None):
    """`main`: the buffers of coro-run's specs (buffer_specs), the entry run
    over the grid, and the buffers printed. The oracle calls the entry
    function per instance (`scheduler` None); a host program launches the
    coroutine under `scheduler` (coro-host-to-llvm)."""
    g = prog.grid
    m = ["func.func @main() {"]
    a = m.append
    a("  %c0 = arith.constant 0 : index")
    a("  %c1 = arith.constant 1 : index")
    a("  %%tg = memref.get_global @table_data : memref<%dxi32>" % TABLE_SIZE)
    a("  %%table = memref.cast %%tg : memref<%dxi32> to memref<?xi32>" % TABLE_SIZE)
    for name, ety, n, init in [("out32", "i32", g * prog.k32, "zeros"),
                               ("out64", "i64", g * prog.k64, "zeros"),
                               ("acc", "i32", ACC_SIZE, "iota")]:
        a("  %%n_%s = arith.constant %d : index" % (name, n))
        a("  %%%s = memref.alloc(%%n_%s) : memref<?x%s>" % (name, name, ety))
        a("  scf.for %%i = %%c0 to %%n_%s step %%c1 {" % name)
        if init == "zeros":
            a("    %%z = arith.constant 0 : %s" % ety)
        else:
            a("    %%z = arith.index_cast %%i : index to %s" % ety)
        a("    memref.store %%z, %%%s[%%i] : memref<?x%s>" % (name, ety))
        a("  }")
    vals, tys = [], []
    for name, ty in prog.entry.params:
        v = prog.args[name]
        a("  %%arg_%s = %s" % (name, const_text(ty, v)))
        vals.append("%arg_" + name)
        tys.append(MLIR_TYPE[ty])
    vals += ["%table", "%out32", "%out64", "%acc"]
    tys += ["memref<?xi32>", "memref<?xi32>", "memref<?xi64>", "memref<?xi32>"]
    a("  %%grid = arith.constant %d : index" % g)
    if scheduler is None:
        a("  scf.for %i = %c0 to %grid step %c1 {")
        a("    func.call @%s(%s) : (%s) -> ()" % (prog.entry.name, ", ".join(["%i"] + vals),
                                                ", ".join(["index"] + tys)))
        a("  }")
    else:
        a('  coro.launch @%s[%%grid](%s) {scheduler = "%s"} : (%s) -> ()' % (
            prog.entry.name, ", ".join(vals), scheduler, ", ".join(tys)))
    for name, ety in [("table", "i32"), ("out32", "i32"), ("out64", "i64"), ("acc", "i32")]:
        a("  %%u_%s = memref.cast %%%s : memref<?x%s> to memref<*x%s>" % (name, name, ety, ety))
        a("  func.call @printMemref%s(%%u_%s) : (memref<*x%s>) -> ()" % (ety.upper(), name, ety))
    a("  return")
    a("}")
    return "\n".join(m)


def emit_host(prog, scheduler):
    """The program as a host program: the coroutines and a `main` that
    launches the entry under `scheduler`, for coro-host-to-llvm and the
    runtime wrappers under mlir-runner."""
    out = ["// coro-fuzz seed %s as a host program (%s)" % (prog.seed, scheduler),
           "module attributes {gpu.container_module} {"]
    out += main_declarations(prog)
    for f in reversed(prog.funcs):
        out.append(FuncEmitter(prog, f, "coro").function())
    out.append(emit_main(prog, scheduler))
    out.append("}")
    return "\n".join(out) + "\n"

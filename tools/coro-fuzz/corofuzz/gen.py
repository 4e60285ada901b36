# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Seeded random generation of coroutine programs (see model.py).

Deterministic: the same seed gives the same program. Programs are small
(about 30 to 150 lines of MLIR once emitted) and well defined: no UB, the
same result with a 64-bit and a 32-bit index, exact integer-valued floats
(tracked bounds), bounded loop trip counts.
"""

import math
import random

from .model import *  # noqa: F401,F403
from . import model as M

MAX_COST = 500  # loop iterations + suspensions of one instance (lavapipe)
INT_OPS = ["addi", "subi", "muli", "andi", "ori", "xori", "shli", "shrui",
           "shrsi", "divui", "remui", "maxsi", "minsi", "maxui", "minui",
           "divsi", "remsi", "floordivsi", "ceildivsi", "ceildivui"]
INDEX_OPS = ["addi", "muli", "andi", "ori", "xori", "maxui", "minui", "divui", "remui"]
IPREDS = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
FPREDS = ["oeq", "one", "olt", "ole", "ogt", "oge"]
GRIDS = [1, 2, 3, 5, 7, 8, 13, 31, 33, 37, 45, 63, 64, 65, 70]
# What a generator yields (i32 and the narrow and boolean types a little
# more often), and the parameter types of callees and generators (narrow,
# boolean, index, floats, vectors).
YIELD_TYPES = ["i32", "i1", "i1", "i8", "i16"] + ALL_TYPES
PARAM_TYPES = ["i32", "i32", "f32"] + [t for t in ALL_TYPES if t not in ("i32", "f32")]
# Promise names and their types (all promises of one name have one type).
PROMISES = [("p0", "i32"), ("p0", "i32"), ("p1", "f32"), ("p2", "v4i32"), ("p3", "i64"),
            ("p4", "i1"), ("p5", "i8"), ("p6", "i16"), ("p7", "v2i16"), ("p8", "v2f32"),
            ("p9", "f16"), ("p10", "index"), ("p11", "f64"), ("p12", "v2i32"), ("p13", "v2i8")]


class Ctx:
    def __init__(self, func, callees):
        self.func = func
        self.callees = callees  # Func objects it may await
        self.ivs = []           # (uid, ty) of the enclosing scf.for loops
        self.mult = 1           # product of the enclosing trip counts
        self.tags = 0
        self.promises = {}      # name -> type
        self.gens = []          # generators (Func) it may loop over
        self.vals = []          # uids of the enclosing ForEach loops
        # A generator consumed by ForEach suspends only where it yields.
        self.driven = func.generator and not func.is_entry


class Gen:
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.uid = 0

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    def next_uid(self):
        self.uid += 1
        return self.uid

    # ------------------------------------------------------------ program
    def program(self):
        for attempt in range(20):
            p = self._program()
            if cost(p) <= MAX_COST:
                return p
        return p

    def _program(self):
        r = self.r
        p = Program(self.seed)
        p.grid = self.pick(GRIDS) if self.chance(0.7) else r.randint(1, 70)
        p.k64 = r.randint(1, 3)
        p.args = {"x0": r.randint(-1000, 1000), "x1": float(r.randint(-ARG_F32_BOUND, ARG_F32_BOUND))}
        p.table = [r.randint(-2 ** 31, 2 ** 31 - 1) for _ in range(TABLE_SIZE)]
        ncallees = self.pick([0, 0, 1, 1, 1, 2, 3])
        ngens = self.pick([0, 0, 0, 1, 1, 2])
        kentry = r.randint(3, 6)
        p.k32 = kentry + ncallees + ngens
        # g<n> may loop over g<m> for m > n (nested generators): generate
        # from the last one.
        gens = []
        for i in range(ngens, 0, -1):
            f = Func("g%d" % i, self.callee_params(), False)
            f.generator = True
            f.yield_ty = self.pick(YIELD_TYPES)
            f.arrays = {"a0": "i32"}
            self.fill(p, f, [], kentry + ncallees + i - 1, gens=list(gens))
            gens.insert(0, f)
        callees = []
        # c<n> may await c<m> for m > n: generate from the last one.
        for i in range(ncallees, 0, -1):
            f = Func("c%d" % i, self.callee_params(), False)
            f.arrays = {"a0": "i32"}
            self.fill(p, f, list(callees), kentry + i - 1, gens=list(gens))
            callees.insert(0, f)
        params = [("x0", "i32"), ("x1", "f32")]
        if self.chance(0.4):
            # A vector argument (coro-run --arg=a,b,c,d; SPIR-V kernels take
            # it in a buffer of its elements).
            params.append(("x2", "v4i32"))
            p.args["x2"] = [r.randint(-50, 50) for _ in range(4)]
        e = Func("coro_fuzz_%s" % str(self.seed).replace("-", "m"), params, True)
        e.generator = self.chance(0.2)
        if e.generator:
            e.yield_ty = self.pick(YIELD_TYPES)
        e.arrays = {"a0": "i32"}
        if self.chance(0.6):
            e.arrays["a1"] = "f32"
        p.funcs = [e] + callees + gens
        self.fill(p, e, list(callees), None, cf=self.chance(0.4), gens=list(gens))
        return p

    def callee_params(self):
        n = self.pick([0, 1, 1, 2, 2, 2, 3, 4])
        return [("p%d" % i, self.pick(PARAM_TYPES)) for i in range(n)]

    def fill(self, p, f, callees, own_slot, cf=False, gens=()):
        ctx = Ctx(f, callees)
        ctx.gens = list(gens)
        self.prog = p
        nvars = self.r.randint(3, 7) if f.is_entry else self.r.randint(2, 4)
        types = ["i32"] + [self.pick(ALL_TYPES) for _ in range(nvars - 1)]
        if f.is_entry:
            # Make each type likely to appear somewhere.
            types += self.r.sample(ALL_TYPES, 2)
        for i, ty in enumerate(types):
            init = self.expr(ctx, ty, 1)
            f.vars.append(Var("%s_%d" % (ty, i), ty, init))
        if cf:
            body = self.cf_items(ctx, self.r.randint(2, 5), 0)
        else:
            body = self.stmts(ctx, self.r.randint(2, 6), 0)
        if ctx.gens and self.chance(0.7) and not any(
                isinstance(s, ForEach) for s in walk_stmts(body)):
            # Loops over generators, often (the entry's cf items take
            # statements too).
            body.insert(self.r.randint(0, len(body)), self.s_foreach(ctx, 1))
        if ctx.driven:
            if self.chance(0.9) and not any(isinstance(s, Yield) for s in walk_stmts(body)):
                body.insert(self.r.randint(0, len(body)), self.s_yield(ctx, 0))
        elif not f.is_entry and not any(isinstance(s, Suspend) for s in walk_stmts(body)):
            # An awaited coroutine suspends itself.
            body.insert(self.r.randint(0, len(body)), self.suspend(ctx))
        if f.is_entry and self.chance(0.5):
            # An i32 promise for --sort-by=p0 at the top level.
            body.insert(self.r.randint(0, len(body)),
                        Promise("p0", "i32", Bin("andi", self.expr(ctx, "i32", 1), Const("i32", 7), "i32")))
        # Epilogue: every variable and the local arrays reach an output.
        digests = [self.digest(v.name, v.ty) for v in f.vars]
        vdigests = list(digests)
        for name, ety in sorted(f.arrays.items()):
            digests.append(self.array_digest(name, ety))
        slots = list(range(p.k32 - len(callees) - len(gens))) if f.is_entry else [own_slot]
        for j in slots:
            part = digests[j::len(slots)]
            if part:
                body.append(Store("out32", j, self.fold(part)))
        if f.is_entry:
            for j in range(p.k64):
                part = vdigests[j::p.k64]
                if part:
                    body.append(Store("out64", j, Conv(self.fold(part), "i64")))
        f.body = body

    # ------------------------------------------------------------ digests
    def digest(self, name, ty):
        return self.digest_of(VarRef(name, ty))

    def digest_of(self, v):
        ty = v.ty
        if is_int_vec(ty):
            n, e = lanes(ty), elem(ty)
            w = Bin("muli", v, Const(ty, [1, 3, 9, 27][:n]), ty)
            return self.digest_of(VecReduce(w, e))
        if ty == "v2f32":
            a = Conv(VecExtract(v, 0, "f32"), "i32")
            b = Conv(VecExtract(v, 1, "f32"), "i32")
            return Bin("addi", Bin("muli", a, Const("i32", 5000), "i32"), b, "i32")
        if ty == "i64":
            hi = Conv(Bin("shrui", v, Const("i64", 32), "i64"), "i32")
            return Bin("xori", Conv(v, "i32"), Bin("muli", hi, Const("i32", 7), "i32"), "i32")
        return Conv(v, "i32")

    def array_digest(self, name, ety):
        acc = None
        for i in range(ARRAY_SIZE):
            x = ArrLoad(name, Const("i32", i), "i32")
            x = Bin("muli", x, Const("i32", i + 1), "i32")
            acc = x if acc is None else Bin("addi", acc, x, "i32")
        return acc

    def fold(self, parts):
        acc = parts[0]
        for x in parts[1:]:
            acc = Bin("addi", Bin("muli", acc, Const("i32", 31), "i32"), x, "i32")
        return acc

    # ------------------------------------------------------------ statements
    def stmts(self, ctx, n, depth):
        return [self.stmt(ctx, depth) for _ in range(n)]

    def vars_of(self, ctx, ty=None):
        return [v for v in ctx.func.vars if ty is None or v.ty == ty]

    def suspend(self, ctx):
        if self.chance(0.5):
            ctx.tags += 1
            return Suspend("s%d" % ctx.tags)
        return Suspend(None)

    def stmt(self, ctx, depth):
        f = ctx.func
        kinds = [("assign", 30), ("store", 5), ("atomic", 3), ("exchange", 2),
                 ("arrstore", 4), ("promise", 3)]
        if not ctx.driven:
            kinds.append(("suspend", 14))
        if depth < 3:
            kinds += [("if", 8), ("for", 6), ("while", 5), ("switch", 4)]
        if f.generator:
            kinds.append(("yield", 12))
        if ctx.callees and ctx.mult <= 6 and not ctx.driven:
            kinds.append(("await", 5))
        if ctx.gens and ctx.mult <= 6 and depth < 3:
            kinds.append(("foreach", 6))
        total = sum(w for _, w in kinds)
        x = self.r.uniform(0, total)
        for kind, w in kinds:
            x -= w
            if x <= 0:
                break
        return getattr(self, "s_" + kind)(ctx, depth)

    def s_assign(self, ctx, depth):
        vs = self.vars_of(ctx)
        v = self.pick(vs)
        return Assign(v.name, v.ty, self.expr(ctx, v.ty, 2, LIMIT.get(v.ty)))

    def s_suspend(self, ctx, depth):
        return self.suspend(ctx)

    def s_store(self, ctx, depth):
        if ctx.func.is_entry and self.chance(0.3):
            return Store("out64", self.r.randrange(self.prog.k64), self.expr(ctx, "i64", 1))
        if self.prog.k32 >= 4 and self.chance(0.15):
            # Four slots at once, one vector.store.
            return Store("out32", self.r.randrange(self.prog.k32 - 3), self.expr(ctx, "v4i32", 1))
        return Store("out32", self.r.randrange(self.prog.k32), self.expr(ctx, "i32", 1))

    def s_atomic(self, ctx, depth):
        return Atomic(self.r.randrange(ACC_SIZE), self.expr(ctx, "i32", 1))

    def s_exchange(self, ctx, depth):
        return Exchange(self.r.randrange(self.prog.k32), self.expr(ctx, "i32", 1))

    def s_arrstore(self, ctx, depth):
        name = self.pick(sorted(ctx.func.arrays))
        ety = ctx.func.arrays[name]
        return ArrStore(name, self.expr(ctx, "i32", 1), self.expr(ctx, ety, 2, LIMIT.get(ety)))

    def s_promise(self, ctx, depth):
        f = ctx.func
        prefix = "" if f.is_entry else f.name + "_"
        name, ty = self.pick(PROMISES)
        return Promise(prefix + name, ty, self.expr(ctx, ty, 2, LIMIT.get(ty)))

    def s_yield(self, ctx, depth):
        ty = ctx.func.yield_ty
        return Yield(self.expr(ctx, ty, 2, LIMIT.get(ty)))

    def s_await(self, ctx, depth):
        callee = self.pick(ctx.callees)
        args = []
        for name, ty in callee.params:
            args.append(self.expr(ctx, ty, 1, VAR_BOUND.get(ty)))
        return Await(callee.name, args)

    def s_foreach(self, ctx, depth):
        gen = self.pick(ctx.gens)
        args = [self.expr(ctx, ty, 1, VAR_BOUND.get(ty)) for _, ty in gen.params]
        uid = self.next_uid()
        ctx.vals.append(uid)
        ctx.mult *= 4
        body = self.block(ctx, depth)
        if self.chance(0.25):
            body.insert(self.r.randint(0, len(body)),
                        Store("out32", self.r.randrange(self.prog.k32), ValRef(uid, "i32")))
        others = [v for v in self.vars_of(ctx) if v.ty != "i32"]
        if others and self.chance(0.5):
            # Carried values (iter_args) of the other types, from the value.
            v = self.pick(others)
            if self.chance(0.6):
                e = self.mix_value(v, uid)
            else:
                e = self.expr(ctx, v.ty, 2, LIMIT.get(v.ty))
            body.insert(self.r.randint(0, len(body)), Assign(v.name, v.ty, e))
        # Early exits that fire mid-loop (on about a quarter of the values),
        # rarely (a condition that is often false), or never.
        x = self.r.random()
        if x < 0.45:
            low = Bin("andi", ValRef(uid, "i32"), Const("i32", 3), "i32")
            brk = Cmp("eq", low, Const("i32", self.r.randrange(4)))
        elif x < 0.7:
            brk = self.cond(ctx)
        else:
            brk = Const("i1", 0)
        ctx.mult //= 4
        ctx.vals.pop()
        return ForEach(uid, gen.name, args, body, brk)

    def mix_value(self, v, uid):
        """Variable v combined with the value of the loop `uid`."""
        ty, x = v.ty, VarRef(v.name, v.ty)
        if ty in FLOAT_TYPES:  # |x| <= VAR_BOUND, |value as i8| <= 128
            return Bin("addf", x, Conv(ValRef(uid, "i8"), ty), ty)
        if ty == "v2f32":
            return VecInsert(x, Conv(ValRef(uid, "i8"), "f32"), self.r.randrange(2), ty)
        if is_int_vec(ty):
            return Bin(self.pick(["addi", "xori"]), x, VecSplat(ValRef(uid, elem(ty)), ty), ty)
        return Bin(self.pick(["addi", "xori"]), x, ValRef(uid, ty), ty)

    def block(self, ctx, depth, lo=1, hi=3):
        return self.stmts(ctx, self.r.randint(lo, hi), depth + 1)

    def s_if(self, ctx, depth):
        cond = self.expr(ctx, "i1", 1)
        then = self.block(ctx, depth)
        els = self.block(ctx, depth) if self.chance(0.6) else None
        return If(cond, then, els)

    def s_for(self, ctx, depth):
        ivty = self.pick(["index", "i32"])
        lb = self.pick([0, 0, 0, 1, 2])
        step = self.pick([1, 1, 2])
        if self.chance(0.35):
            ub = self.expr(ctx, "i32", 1)
            maxub = 7
        else:
            ub = self.r.randint(0, 6)
            maxub = ub
        trips = max(0, (maxub - lb + step - 1) // step)
        if ctx.mult * max(trips, 1) > 40:
            return self.s_if(ctx, depth)
        uid = self.next_uid()
        ctx.ivs.append((uid, ivty))
        ctx.mult *= max(trips, 1)
        body = self.block(ctx, depth)
        ctx.mult //= max(trips, 1)
        ctx.ivs.pop()
        return For(uid, ivty, lb, ub, step, body)

    def s_while(self, ctx, depth):
        maxt = self.r.randint(1, 4)
        if ctx.mult * (maxt + 1) > 40:
            return self.s_if(ctx, depth)
        ctx.mult *= maxt + 1
        before = self.block(ctx, depth, 0, 2)
        # Make the interesting shapes of the before region frequent.
        if depth < 3 and self.chance(0.35):
            before.insert(self.r.randint(0, len(before)),
                          self.pick([self.s_for, self.s_while])(ctx, depth + 1))
        if depth < 3 and self.chance(0.3):
            before.insert(self.r.randint(0, len(before)), self.s_if(ctx, depth + 1))
        if not ctx.driven and self.chance(0.4):
            before.insert(self.r.randint(0, len(before)), self.suspend(ctx))
        cond = self.expr(ctx, "i1", 2)
        after = self.block(ctx, depth, 1, 3)
        ctx.mult //= maxt + 1
        return While(maxt, before, cond, after)

    def s_switch(self, ctx, depth):
        n = self.r.randint(1, 3)
        cases = [self.block(ctx, depth, 0, 3) for _ in range(n)]
        return Switch(self.expr(ctx, "i32", 1), cases, self.block(ctx, depth, 0, 2))

    # --------------------------------------------------------- cf bodies
    def cf_items(self, ctx, n, loops):
        items = []
        for _ in range(n):
            x = self.r.random()
            if x < 0.25 and loops < 2:
                maxt = self.r.randint(1, 5)
                if ctx.mult * (maxt + 1) > 40:
                    items.append(self.stmt(ctx, 1))
                    continue
                ctx.mult *= maxt + 1
                body = self.cf_items(ctx, self.r.randint(2, 5), loops + 1)
                ctx.mult //= maxt + 1
                items.append(CfLoop(maxt, body))
            elif x < 0.4:
                body = [self.s_store(ctx, 0) for _ in range(self.r.randint(0, 1))]
                if self.chance(0.3):
                    body.append(self.suspend(ctx))
                # The early exit writes (a digest of) some variables too.
                vs = self.r.sample(ctx.func.vars, min(3, len(ctx.func.vars)))
                body.append(Store("out32", self.r.randrange(self.prog.k32 - len(ctx.callees) - len(ctx.gens)),
                                  self.fold([self.digest(v.name, v.ty) for v in vs])))
                items.append(ReturnIf(self.cond(ctx), body))
            elif x < 0.6 and loops:
                items.append(self.pick([Break, Continue])(self.cond(ctx)))
            else:
                items.append(self.stmt(ctx, 1))
        return items

    def cond(self, ctx):
        """A condition that is often false (so that the code after it runs)."""
        c = self.expr(ctx, "i1", 2)
        if self.chance(0.5):
            c = Bin("andi", c, self.expr(ctx, "i1", 1), "i1")
        return c

    # ------------------------------------------------------------ expressions
    def expr(self, ctx, ty, depth, limit=None):
        if is_float(ty):
            lim = LIMIT[ty] if limit is None else limit
            return self.fexpr(ctx, ty, depth, lim)[0]
        return self.iexpr(ctx, ty, depth)

    def leaf_vars(self, ctx, ty):
        return [VarRef(v.name, v.ty) for v in self.vars_of(ctx, ty)]

    def iexpr(self, ctx, ty, depth):
        r = self.r
        f = ctx.func
        if ty == "i1":
            opts = ["cmp", "cmp", "var", "const", "logic", "conv"]
            k = self.pick(opts) if depth > 0 else self.pick(["var", "const", "cmp"])
            bools = self.leaf_vars(ctx, "i1") + [ArgRef(n, t) for n, t in f.params if t == "i1"]
            if k == "var" and bools:
                return self.pick(bools)
            if k == "logic" and depth > 0:
                # addi, subi and muli of i1 are arithmetic modulo 2.
                return Bin(self.pick(["andi", "ori", "xori", "addi", "subi", "muli"]),
                           self.iexpr(ctx, "i1", depth - 1),
                           self.iexpr(ctx, "i1", depth - 1), "i1")
            if k == "conv" and depth > 0:
                return Conv(self.iexpr(ctx, self.pick(["i8", "i32", "i64"]), depth - 1), "i1")
            if k == "const":
                return Const("i1", r.randint(0, 1))
            t = self.pick(["i32", "i32", "i8", "i16", "i64", "index", "f16", "f32", "f64"])
            if t in FLOAT_TYPES:
                a = self.fexpr(ctx, t, max(depth - 1, 0), LIMIT[t])[0]
                b = self.fexpr(ctx, t, max(depth - 1, 0), LIMIT[t])[0]
                return Cmp(self.pick(FPREDS), a, b)
            return Cmp(self.pick(IPREDS), self.iexpr(ctx, t, max(depth - 1, 0)),
                       self.iexpr(ctx, t, max(depth - 1, 0)))
        if is_int_vec(ty):
            n, e = lanes(ty), elem(ty)
            kinds = ["var", "var", "splat", "from", "bin", "insert", "shuffle", "sel", "const",
                     "conv"]
            if e == "i32":
                # Strided slices between v4i32 and v2i32.
                kinds += ["load", "slice"]
            k = self.pick(kinds)
            vector_args = [ArgRef(a, t) for a, t in f.params if t == ty]
            if vector_args and self.chance(0.3):
                return self.pick(vector_args)
            if depth == 0 or k == "var":
                vs = self.leaf_vars(ctx, ty)
                if vs and k != "const":
                    return self.pick(vs)
                if depth == 0 or k == "const" or not vs:
                    return Const(ty, [r.randint(-50, 50) for _ in range(n)])
            d = depth - 1
            if k == "load":
                return TableVecLoad(self.iexpr(ctx, "i32", d), ty)
            if k == "splat":
                return VecSplat(self.iexpr(ctx, self.pick(["i32", e]), d), ty)
            if k == "from":
                return VecFrom([self.iexpr(ctx, self.pick(["i32", e]), max(d - 1, 0))
                                for _ in range(n)], ty)
            if k == "bin":
                return Bin(self.pick(INT_OPS), self.iexpr(ctx, ty, d), self.iexpr(ctx, ty, d), ty)
            if k == "insert":
                return VecInsert(self.iexpr(ctx, ty, d), self.iexpr(ctx, self.pick(["i32", e]), d),
                                 r.randrange(n), ty)
            if k == "slice" and n == 2:
                return VecSlice(self.iexpr(ctx, "v4i32", d), r.randrange(3), ty)
            if k == "slice":
                return VecInsertSlice(self.iexpr(ctx, "v2i32", d), self.iexpr(ctx, ty, d),
                                      r.randrange(3), ty)
            if k == "shuffle":
                # From two vectors of the same element type, any length.
                src = self.pick([t for t in INT_VEC_TYPES if elem(t) == e])
                return VecShuffle(self.iexpr(ctx, src, d), self.iexpr(ctx, src, d),
                                  [r.randrange(2 * lanes(src)) for _ in range(n)], ty)
            if k == "conv":
                # Lane by lane from another element width (extsi, trunci).
                src = self.pick([t for t in INT_VEC_TYPES if lanes(t) == n])
                return Conv(self.iexpr(ctx, src, d), ty) if src != ty else self.iexpr(ctx, ty, d)
            return Sel(self.iexpr(ctx, "i1", d), self.iexpr(ctx, ty, d), self.iexpr(ctx, ty, d), ty)
        # scalar integers and index
        leaves = ["var", "var", "var", "const", "id"]
        if ctx.ivs:
            leaves += ["iv", "iv"]
        if ctx.vals:
            leaves += ["val", "val", "val"]
        if ty == "i32" or self.chance(0.3):
            leaves += ["arg", "table", "arr"]
        nodes = ["bin", "bin", "bin", "conv", "sel", "vec", "fconv"]
        if ty != "index":
            nodes.append("not")
        k = self.pick(leaves + (nodes if depth > 0 else []))
        d = max(depth - 1, 0)
        if k == "var":
            vs = self.leaf_vars(ctx, ty)
            if vs:
                return self.pick(vs)
            k = "const"
        if k == "id":
            return Conv(IdRef(), ty) if ty != "index" else IdRef()
        if k == "iv":
            uid, ivty = self.pick(ctx.ivs)
            return IvRef(uid, ty)
        if k == "val":
            return ValRef(self.pick(ctx.vals), ty)
        if k == "arg":
            # A parameter of this type, or of another integer type converted.
            same = [(n, t) for n, t in f.params if t == ty]
            ints = [(n, t) for n, t in f.params if t in INT_TYPES or t == "index"]
            if same or ints:
                n, t = self.pick(same if same and self.chance(0.6) else ints)
                return Conv(ArgRef(n, t), ty) if ty != t else ArgRef(n, t)
            k = "const"
        if k == "table":
            e = TableLoad(self.iexpr(ctx, "i32", min(d, 1)))
            return e if ty == "i32" else Conv(e, ty)
        if k == "arr":
            return ArrLoad("a0", self.iexpr(ctx, "i32", min(d, 1)), ty)
        if k == "const":
            if ty == "index":
                return Const(ty, r.randint(0, 20))
            w = WIDTH[ty]
            v = self.pick([0, 1, 2, 3, 5, 7, -1, r.randint(-100, 100),
                           r.randint(-2 ** (w - 1), 2 ** (w - 1) - 1)])
            return Const(ty, v)
        if k == "bin":
            ops = INDEX_OPS if ty == "index" else INT_OPS
            return Bin(self.pick(ops), self.iexpr(ctx, ty, d), self.iexpr(ctx, ty, d), ty)
        if k == "not":
            return Un("not", self.iexpr(ctx, ty, d), ty)
        if k == "sel":
            return Sel(self.iexpr(ctx, "i1", d), self.iexpr(ctx, ty, d), self.iexpr(ctx, ty, d), ty)
        if k == "conv":
            t = self.pick(["i1", "i8", "i16", "i32", "i64", "index"])
            return Conv(self.iexpr(ctx, t, d), ty) if t != ty else self.iexpr(ctx, ty, d)
        if k == "fconv":
            t = self.pick(FLOAT_TYPES)
            return Conv(self.fexpr(ctx, t, d, LIMIT[t])[0], ty)
        # vec
        vt = self.pick(["v4i32"] + INT_VEC_TYPES)
        v = self.iexpr(ctx, vt, d)
        et = elem(vt)
        e = VecReduce(v, et) if self.chance(0.3) else VecExtract(v, r.randrange(lanes(vt)), et)
        return e if ty == et else Conv(e, ty)

    def fexpr(self, ctx, ty, depth, lim):
        """A float expression of type ty whose |value| <= its bound <= lim;
        returns (expr, bound)."""
        r = self.r
        f = ctx.func
        lim = int(lim)
        vec = ty == "v2f32"
        e_ty = elem(ty)

        def const():
            b = min(8, lim)
            if vec:
                vals = [r.randint(-b, b) for _ in range(2)]
                return Const(ty, vals), max(abs(x) for x in vals)
            # Now and then a value that only the type's full precision holds
            # (f32: more than f16's 11 bits; f64: more than f32's 24), so that
            # a frame field or a conversion that drops precision shows.
            wide = PRECISE_CONST.get(ty)
            if wide and wide <= lim and self.chance(0.25):
                v = r.randint(wide // 2, wide) * r.choice([-1, 1])
                return Const(ty, v), abs(v)
            v = r.randint(-b, b)
            return Const(ty, v), abs(v)

        leaves = ["var", "var", "var", "const", "arg"]
        if not vec:
            leaves += ["iconv", "arr", "vext"]
        nodes = ["add", "mul", "neg", "minmax", "sel", "fconv"]
        if ty == "f32":
            nodes += ["exp2", "atan2"]
        if vec:
            nodes += ["splat", "from", "insert"]
        k = self.pick(leaves + (nodes if depth > 0 else []))
        d = max(depth - 1, 0)
        if k == "var":
            vs = self.leaf_vars(ctx, ty)
            if vs and VAR_BOUND[ty] <= lim:
                return self.pick(vs), VAR_BOUND[ty]
            return const()
        if k == "const":
            return const()
        if k == "iconv":
            if lim < 128:
                return const()
            t = self.pick(["i8", "i32", "index", "i1", "i64"])
            return Conv(self.iexpr(ctx, t, min(d, 1)), ty), 128
        if k == "arg":
            # A float parameter (the entry's x1, or a callee's, which its
            # callers bound by VAR_BOUND), converted to ty.
            fl = [(n, t) for n, t in f.params if t in FLOAT_TYPES or (vec and t == ty)]
            if not fl:
                return const()
            n, t = self.pick(fl)
            b = ARG_F32_BOUND if f.is_entry else VAR_BOUND[t]
            if b > lim or b > LIMIT[ty] or b > LIMIT[t]:
                return const()
            return (ArgRef(n, t) if ty == t else Conv(ArgRef(n, t), ty)), b
        if k == "arr":
            if "a1" not in f.arrays or VAR_BOUND["f32"] > min(lim, LIMIT[ty]):
                return const()
            e = ArrLoad("a1", self.iexpr(ctx, "i32", 1), "f32")
            return (e if ty == "f32" else Conv(e, ty)), VAR_BOUND["f32"]
        if k == "vext":
            vs = self.leaf_vars(ctx, "v2f32")
            if not vs or VAR_BOUND["v2f32"] > min(lim, LIMIT[ty]):
                return const()
            e = VecExtract(self.pick(vs), r.randrange(2), "f32")
            return (e if ty == "f32" else Conv(e, ty)), VAR_BOUND["v2f32"]
        if k == "add":
            a, ba = self.fexpr(ctx, ty, d, lim // 2)
            b, bb = self.fexpr(ctx, ty, d, lim // 2)
            return Bin(self.pick(["addf", "subf"]), a, b, ty), ba + bb
        if k == "mul":
            a, ba = self.fexpr(ctx, ty, d, min(lim, 1024))
            b, bb = self.fexpr(ctx, ty, d, lim // max(ba, 1))
            return Bin("mulf", a, b, ty), ba * bb
        if k == "neg":
            a, ba = self.fexpr(ctx, ty, d, lim)
            return Un(self.pick(["neg", "abs"]), a, ty), ba
        if k == "minmax":
            a, ba = self.fexpr(ctx, ty, d, lim)
            b, bb = self.fexpr(ctx, ty, d, lim)
            return Bin(self.pick(["maximumf", "minimumf"]), a, b, ty), max(ba, bb)
        if k == "sel":
            a, ba = self.fexpr(ctx, ty, d, lim)
            b, bb = self.fexpr(ctx, ty, d, lim)
            return Sel(self.iexpr(ctx, "i1", d), a, b, ty), max(ba, bb)
        if k == "exp2":
            if lim < 1 << 15:
                return const()
            return Exp2(self.iexpr(ctx, "i32", d)), 1 << 15
        if k == "atan2":
            if lim < 128:
                return const()
            m1 = self.pick([m for m in range(-3, 4) if m != 0])
            m2 = r.randint(-3, 3)
            ks = [k for k in (2, 4, 8, 16, 32)
                  if abs((math.atan2(m1, m2) * k) % 1 - 0.5) >= 0.1]
            return Atan2(self.iexpr(ctx, "i32", d), m1, m2, self.pick(ks)), 128
        if k == "fconv":
            if vec:
                return const()
            t = self.pick([x for x in FLOAT_TYPES if x != ty])
            a, ba = self.fexpr(ctx, t, d, min(lim, LIMIT[t], LIMIT[ty]))
            return Conv(a, ty), ba
        if k == "splat":
            a, ba = self.fexpr(ctx, "f32", d, lim)
            return VecSplat(a, ty), ba
        if k == "from":
            a, ba = self.fexpr(ctx, "f32", d, lim)
            b, bb = self.fexpr(ctx, "f32", d, lim)
            return VecFrom([a, b], ty), max(ba, bb)
        # insert
        a, ba = self.fexpr(ctx, ty, d, lim)
        b, bb = self.fexpr(ctx, "f32", d, lim)
        return VecInsert(a, b, r.randrange(2), ty), max(ba, bb)


def generate(seed):
    return Gen(seed).program()

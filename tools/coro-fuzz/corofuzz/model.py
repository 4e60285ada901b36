# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The program model of coro-fuzz: a C-like AST with mutable typed variables.

Every variable is declared (with an initial value) at the top of its
coroutine, so every statement can be deleted and every reference stays
meaningful; references to things that no longer exist (a deleted variable, a
loop's induction variable outside the loop, a removed local array) are
emitted as a zero constant of the right type. This is what keeps the
reducer simple: any edit of the tree is a valid program.
"""

import copy

# Types: scalar names as in MLIR, plus small vectors (v<lanes><elem>).
INT_TYPES = ["i1", "i8", "i16", "i32", "i64"]
FLOAT_TYPES = ["f16", "f32", "f64"]
INT_VEC_TYPES = ["v4i32", "v2i32", "v2i16", "v2i8"]
VEC_TYPES = INT_VEC_TYPES + ["v2f32"]
SCALAR_TYPES = INT_TYPES + ["index"] + FLOAT_TYPES
ALL_TYPES = SCALAR_TYPES + VEC_TYPES
MLIR_TYPE = {t: t for t in SCALAR_TYPES}
MLIR_TYPE.update({t: "vector<%sx%s>" % (t[1], t[2:]) for t in VEC_TYPES})
WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
# Floats keep exact integer values: every expression stays within LIMIT,
# every variable within VAR_BOUND (assignments clamp to it).
LIMIT = {"f16": 1024, "f32": 1 << 23, "f64": 1 << 50, "v2f32": 1 << 20}
VAR_BOUND = {"f16": 32, "f32": 1 << 20, "f64": 1 << 40, "v2f32": 1024}
# The magnitude of the constants that need a type's full precision: f32
# integers above f16's 2^11, f64 integers above f32's 2^24.
PRECISE_CONST = {"f32": 1 << 20, "f64": 1 << 40}
ARG_F32_BOUND = 64
INDEX_MOD = 4096  # every index value is in [0, INDEX_MOD)
TABLE_SIZE = 64
ARRAY_SIZE = 8
ATOMIC_OPS = ["addi", "maxs", "mins", "maxu", "minu", "ori", "andi", "addi"]
ACC_SIZE = len(ATOMIC_OPS)


def is_float(t):
    return t in FLOAT_TYPES or t == "v2f32"


def is_vec(t):
    return t in VEC_TYPES


def is_int_vec(t):
    return t in INT_VEC_TYPES


def elem(t):
    return t[2:] if is_vec(t) else t


def lanes(t):
    return int(t[1]) if is_vec(t) else 1


class Node:
    def clone(self):
        return copy.deepcopy(self)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % kv for kv in vars(self).items()))


# ---------------------------------------------------------------- expressions
class Expr(Node):
    ty = None


class Const(Expr):
    def __init__(self, ty, val):
        self.ty, self.val = ty, val


class VarRef(Expr):
    def __init__(self, name, ty):
        self.name, self.ty = name, ty


class IdRef(Expr):
    ty = "index"

    def __init__(self):
        pass


class ArgRef(Expr):
    def __init__(self, name, ty):
        self.name, self.ty = name, ty


class IvRef(Expr):
    """The induction variable of the enclosing scf.for `uid`."""

    def __init__(self, uid, ty):
        self.uid, self.ty = uid, ty


class ValRef(Expr):
    """The value the generator of the enclosing ForEach `uid` yielded (of
    the generator's yield type), as the i32 leaf the body uses (emit.to_leaf,
    explicit at the top of the body and at each inlined yield), converted
    to ty."""

    def __init__(self, uid, ty):
        self.uid, self.ty = uid, ty


class Un(Expr):
    """neg/abs (floats), not (integers)."""

    def __init__(self, op, a, ty):
        self.op, self.a, self.ty = op, a, ty


class Bin(Expr):
    """Integer: addi subi muli andi ori xori shli shrui shrsi divui remui
    maxsi minsi maxui minui; float: addf subf mulf maximumf minimumf.
    Emission makes them well defined (masked shifts, odd divisors, index
    results reduced modulo INDEX_MOD)."""

    def __init__(self, op, a, b, ty):
        self.op, self.a, self.b, self.ty = op, a, b, ty


class Cmp(Expr):
    ty = "i1"

    def __init__(self, pred, a, b):
        self.pred, self.a, self.b = pred, a, b


class Sel(Expr):
    def __init__(self, c, a, b, ty):
        self.c, self.a, self.b, self.ty = c, a, b, ty


class Conv(Expr):
    """Any scalar/vector conversion, defined for the values the generator
    feeds it (see emit.convert)."""

    def __init__(self, a, ty):
        self.a, self.ty = a, ty


class VecSplat(Expr):
    def __init__(self, a, ty):
        self.a, self.ty = a, ty


class VecFrom(Expr):
    def __init__(self, elems, ty):
        self.elems, self.ty = elems, ty


class VecExtract(Expr):
    def __init__(self, v, pos, ty):
        self.v, self.pos, self.ty = v, pos, ty


class VecInsert(Expr):
    def __init__(self, v, s, pos, ty):
        self.v, self.s, self.pos, self.ty = v, s, pos, ty


class VecReduce(Expr):
    """vector.reduction <add> (i32 lanes wrap; f32 lanes stay in bounds)."""

    def __init__(self, v, ty):
        self.v, self.ty = v, ty


class VecShuffle(Expr):
    """vector.shuffle of two operands of one type (a.ty) into ty (the same
    element type, len(mask) lanes)."""

    def __init__(self, a, b, mask, ty):
        self.a, self.b, self.mask, self.ty = a, b, mask, ty


class VecSlice(Expr):
    """vector.extract_strided_slice: lanes [offset, offset + lanes(ty)) of v
    (a longer vector of the same element type)."""

    def __init__(self, v, offset, ty):
        self.v, self.offset, self.ty = v, offset, ty


class VecInsertSlice(Expr):
    """vector.insert_strided_slice: `part` (a shorter vector of the same
    element type) into v at lane `offset`."""

    def __init__(self, part, v, offset, ty):
        self.part, self.v, self.offset, self.ty = part, v, offset, ty


class Exp2(Expr):
    """roundeven(exp2(float(a & 15))): an exact power of two in f32 (GLSL's
    Exp2 is within 3 + 2|x| ULP of it, far below the rounding)."""
    ty = "f32"

    def __init__(self, a):
        self.a = a


class Atan2(Expr):
    """roundeven(atan2(s * m1, s * m2) * k) with s = float((a & 255) + 1):
    constants m1, m2 (never m1 == 0 with m2 < 0, whose sign of zero GLSL
    leaves open) and k picked so that the product is at least 0.1 from a
    rounding boundary (GLSL's Atan2 allows 4096 ULP)."""
    ty = "f32"

    def __init__(self, a, m1, m2, k):
        self.a, self.m1, self.m2, self.k = a, m1, m2, k


class TableLoad(Expr):
    ty = "i32"

    def __init__(self, idx):
        self.idx = idx


class TableVecLoad(Expr):
    """Consecutive table entries (four or two), one vector.load."""

    def __init__(self, idx, ty="v4i32"):
        self.idx, self.ty = idx, ty


class ArrLoad(Expr):
    def __init__(self, arr, idx, ty):
        self.arr, self.idx, self.ty = arr, idx, ty


# ----------------------------------------------------------------- statements
class Stmt(Node):
    pass


class Assign(Stmt):
    def __init__(self, var, ty, e):
        self.var, self.ty, self.e = var, ty, e


class Suspend(Stmt):
    def __init__(self, tag):
        self.tag = tag


class If(Stmt):
    def __init__(self, cond, then, els):
        self.cond, self.then, self.els = cond, then, els


class For(Stmt):
    """scf.for uid: induction of type ivty (index or i32), lb constant, ub a
    constant (int) or an i32 expression masked to [0, 7], step 1 or 2."""

    def __init__(self, uid, ivty, lb, ub, step, body):
        self.uid, self.ivty, self.lb, self.ub, self.step, self.body = (
            uid, ivty, lb, ub, step, body)


class While(Stmt):
    """scf.while with a trip counter incremented in the before region; the
    loop goes on while counter <= maxt and cond (evaluated after before)."""

    def __init__(self, maxt, before, cond, after):
        self.maxt, self.before, self.cond, self.after = maxt, before, cond, after


class Switch(Stmt):
    """scf.index_switch on (sel & 3) % (len(cases) + 1)."""

    def __init__(self, sel, cases, default):
        self.sel, self.cases, self.default = sel, cases, default


class Store(Stmt):
    def __init__(self, buf, j, e):
        self.buf, self.j, self.e = buf, j, e


class Atomic(Stmt):
    def __init__(self, cell, e):
        self.cell, self.e = cell, e


class Exchange(Stmt):
    """An atomic exchange (memref.atomic_rmw assign) of the instance's out32
    slot j with e; the old value goes to acc[0] (an atomic add)."""

    def __init__(self, j, e):
        self.j, self.e = j, e


class ArrStore(Stmt):
    def __init__(self, arr, idx, e):
        self.arr, self.idx, self.e = arr, idx, e


class Promise(Stmt):
    def __init__(self, name, ty, e):
        self.name, self.ty, self.e = name, ty, e


class Yield(Stmt):
    """coro.yield of e (of the generator's yield type)."""

    def __init__(self, e):
        self.e = e


class Await(Stmt):
    def __init__(self, callee, args):
        self.callee, self.args = callee, args


class ForEach(Stmt):
    """coro.for_each uid over the generator `gen` (a Func with generator set,
    not the entry) for the consumer's own instance: `body` runs for each
    value the generator yields (ValRef(uid)), and the loop ends early once
    `brk` (i1, evaluated after the body) holds. A generator consumed this way
    suspends only where it yields (no Suspend, no Await), also in the bodies
    of its own loops over other generators (nested generators)."""

    def __init__(self, uid, gen, args, body, brk):
        self.uid, self.gen, self.args, self.body, self.brk = (
            uid, gen, args, body, brk)


class CfLoop(Stmt):
    """A loop made of cf blocks (top level of a coroutine only): header with
    a trip counter, body with Break/Continue/ReturnIf, exit."""

    def __init__(self, maxt, body):
        self.maxt, self.body = maxt, body


class Break(Stmt):
    def __init__(self, cond):
        self.cond = cond


class Continue(Stmt):
    def __init__(self, cond):
        self.cond = cond


class ReturnIf(Stmt):
    """cf.cond_br to a block that runs `body` and then coro.return."""

    def __init__(self, cond, body):
        self.cond, self.body = cond, body


# ------------------------------------------------------------------ top level
class Var(Node):
    def __init__(self, name, ty, init):
        self.name, self.ty, self.init = name, ty, init


class Func(Node):
    """A coroutine. params: [(name, ty)] parameters of any type (the entry's are
    the program's arguments); arrays: {name: elem type} (entry:
    memref.alloca; callee: only 'a0', its memref<8xi32> parameter).
    Callees are awaited (c<n>) or, generators (yielding yield_ty), consumed
    by ForEach (g<n>)."""

    def __init__(self, name, params, is_entry):
        self.name, self.params, self.is_entry = name, params, is_entry
        self.generator = False
        self.yield_ty = "i32"
        self.vars = []
        self.arrays = {}
        self.body = []


class Program(Node):
    def __init__(self, seed):
        self.seed = seed
        self.funcs = []  # funcs[0] is the entry
        self.grid = 1
        self.k32 = 4
        self.k64 = 2
        self.args = {}  # entry scalar argument values
        self.table = []

    @property
    def entry(self):
        return self.funcs[0]

    def func(self, name):
        for f in self.funcs:
            if f.name == name:
                return f
        return None


# ------------------------------------------------------------------- walking
STMT_LISTS = {If: ["then", "els"], For: ["body"], While: ["before", "after"],
              CfLoop: ["body"], ReturnIf: ["body"], ForEach: ["body"]}


def child_lists(s):
    """The statement lists directly inside statement s."""
    out = []
    for attr in STMT_LISTS.get(type(s), []):
        lst = getattr(s, attr)
        if lst is not None:
            out.append(lst)
    if isinstance(s, Switch):
        out.extend(s.cases)
        out.append(s.default)
    return out


def walk_stmts(stmts):
    for s in stmts:
        yield s
        for lst in child_lists(s):
            yield from walk_stmts(lst)


def walk_expr(e):
    if e is None:
        return
    yield e
    for k, v in vars(e).items():
        if isinstance(v, Expr):
            yield from walk_expr(v)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, Expr):
                    yield from walk_expr(x)


def stmt_exprs(s):
    for k, v in vars(s).items():
        if isinstance(v, Expr):
            yield v
        elif k == "args":
            for x in v:
                yield x


def assigned(stmts):
    """Variables assigned anywhere in stmts (order of first assignment)."""
    seen = []
    for s in walk_stmts(stmts):
        if isinstance(s, Assign) and s.var not in seen:
            seen.append(s.var)
    return seen


def cost(prog, func=None, memo=None):
    """Upper bound of loop iterations plus suspensions of one instance."""
    memo = {} if memo is None else memo
    func = func or prog.entry
    if func.name in memo:
        return memo[func.name]

    def c(stmts):
        total = 0
        for s in stmts:
            if isinstance(s, (Suspend, Yield)):
                total += 1
            elif isinstance(s, Await):
                callee = prog.func(s.callee)
                total += 1 + (cost(prog, callee, memo) if callee else 0)
            elif isinstance(s, If):
                total += max(c(s.then), c(s.els or []))
            elif isinstance(s, For):
                ub = s.ub if isinstance(s.ub, int) else 7
                trips = max(0, (ub - s.lb + s.step - 1) // s.step)
                total += trips * (1 + c(s.body))
            elif isinstance(s, While):
                total += (s.maxt + 1) * (1 + c(s.before)) + s.maxt * c(s.after)
            elif isinstance(s, Switch):
                total += max([c(x) for x in s.cases + [s.default]])
            elif isinstance(s, CfLoop):
                total += (s.maxt + 1) * (1 + c(s.body))
            elif isinstance(s, ReturnIf):
                total += c(s.body)
            elif isinstance(s, ForEach):
                # The body runs at most once per value the generator yields.
                gen = prog.func(s.gen)
                g = cost(prog, gen, memo) if gen else 0
                total += 1 + g * (1 + c(s.body))
        return total

    memo[func.name] = c(func.body)
    return memo[func.name]

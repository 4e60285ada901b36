# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Emission of the CPU oracle of a Program (see emit.py for the modes).

The oracle is the program in upstream dialects only, run by mlir-runner, so
it has no coro.for_each: a loop over a generator becomes the generator's code
inline, renamed, with the loop body at each of its yields; once the body asks
to stop, the rest of the generator runs with its side effects guarded off.
OracleEmitter is FuncEmitter in "oracle" mode plus that inlining; the
coroutine module, the host program and the shared @main stay in emit.py.
"""

import copy

from .model import *  # noqa: F401,F403
from . import model as M
from .emit import FuncEmitter, emit_main, main_declarations


# The oracle has no coro.for_each: it inlines the generator at the loop,
# with the loop body at each of its yields (see OracleEmitter.for_each).
# These statements exist only in those inlined copies.
class InlinedYield(Stmt):
    """A yield of an inlined generator: `stmts` run unless the loop stopped."""

    def __init__(self, stop, stmts):
        self.stop, self.stmts = stop, stmts


class BindValue(Stmt):
    """The loop body's ValRef(uid) is the i32 leaf of the value of `e` (as
    the generator's yield type ty) from here on."""

    def __init__(self, uid, e, ty):
        self.uid, self.e, self.ty = uid, e, ty


class WithGuards(Stmt):
    """`stmts` with the stop flags that guard their side effects."""

    def __init__(self, guards, stmts):
        self.guards, self.stmts = guards, stmts


M.STMT_LISTS[InlinedYield] = ["stmts"]
M.STMT_LISTS[WithGuards] = ["stmts"]
SIDE_EFFECTS = (Store, Atomic, Exchange, ArrStore, Await)


class OracleEmitter(FuncEmitter):
    """A function of the oracle: generators inlined at their loops."""

    def __init__(self, prog, func):
        super().__init__(prog, func, "oracle")
        self.guards = []  # stop flags of the inlined generators
        self.inlined = 0

    def stmt(self, s):
        t = type(s)
        if self.guards and t in SIDE_EFFECTS:
            # Inlined generator code after its loop stopped has no effect.
            c = None
            for stop in self.guards:
                go = self.op("arith.cmpi eq, %s, %s : i1" % (self.env[stop], self.const("i1", 0)), "go")
                c = go if c is None else self.op("arith.andi %s, %s : i1" % (c, go), "go")
            self.emit("scf.if %s {" % c)
            self.ind += 1
            guards, self.guards = self.guards, []
            self.stmt(s)
            self.guards = guards
            self.ind -= 1
            self.emit("}")
            return
        if t is InlinedYield:
            self.stmt(If(Cmp("eq", VarRef(s.stop, "i1"), Const("i1", 0)), s.stmts, None))
        elif t is BindValue:
            # The generator's value, then the body's i32 leaf of it.
            v = self.convert(self.ex(s.e), s.e.ty, s.ty)
            self.vals[s.uid] = self.to_leaf(v, s.ty)
        elif t is WithGuards:
            guards, self.guards = self.guards, s.guards
            self.stmts(s.stmts)
            self.guards = guards
        else:
            super().stmt(s)

    def for_each(self, s):
        """The oracle's loop over a generator: the generator's code inline,
        its variables and parameters renamed, with the loop body at each of
        its yields; once the body asks to stop, the rest of the generator
        runs without side effects (and without further yields), which is
        what never resuming it again means."""
        gen = self.prog.func(s.gen)
        if gen is None or "a0" not in self.arrays:
            return
        self.inlined += 1
        prefix = "fe%d_" % self.inlined
        stop = prefix + "stop"
        uids = {}

        def uid(old):
            if old not in uids:
                self.inlined += 1
                uids[old] = -self.inlined  # never a generator uid
            return uids[old]

        def rename(x):
            """A renamed copy of generator code (statements or expression)."""
            if isinstance(x, list):
                return [rename(y) for y in x]
            if not isinstance(x, Node):
                return x
            if isinstance(x, Yield):
                return InlinedYield(stop, [BindValue(s.uid, rename(x.e), gen.yield_ty),
                                           WithGuards(list(self.guards), s.body),
                                           Assign(stop, "i1", s.brk)])
            if isinstance(x, ArgRef):
                return VarRef(prefix + x.name, x.ty)
            y = copy.copy(x)
            for k, v in vars(x).items():
                setattr(y, k, rename(v))
            if isinstance(y, VarRef):
                y.name = prefix + y.name
            elif isinstance(y, Assign):
                y.var = prefix + y.var
            elif isinstance(y, (For, ForEach, IvRef, ValRef)):
                y.uid = uid(y.uid)
            return y

        vals, _ = self.generator_args(s, gen)
        added = [stop]
        self.extra_types[stop] = "i1"
        self.env[stop] = self.const("i1", 0)
        for (pname, pty), v in zip(gen.params, vals):
            added.append(prefix + pname)
            self.extra_types[prefix + pname] = pty
            self.env[prefix + pname] = v
        for var in gen.vars:
            name = prefix + var.name
            self.extra_types[name] = var.ty
            self.env[name] = self.clamp(self.ex(rename(var.init)), var.ty)
            added.append(name)
        body = rename(gen.body)
        guards, self.guards = self.guards, self.guards + [stop]
        self.stmts(body)
        self.guards = guards
        self.vals.pop(s.uid, None)
        for name in added:
            self.env.pop(name, None)
            self.extra_types.pop(name, None)


def emit_oracle(prog):
    out = ["// coro-fuzz oracle of seed %s (upstream dialects only)" % prog.seed]
    out += main_declarations(prog)
    for f in reversed(prog.funcs):
        if f.generator and not f.is_entry:
            continue  # inlined at its loops
        out.append(OracleEmitter(prog, f).function())
    out.append(emit_main(prog))
    return "\n".join(out) + "\n"

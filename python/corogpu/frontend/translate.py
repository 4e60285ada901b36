# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The translator from restricted Python functions to coro-dialect MLIR.

Like Triton's code_generator.py, it walks the Python AST of each kernel and
builds the IR through a builder (ir.py), attaching the Python source
location to every op. Control flow becomes a CFG of `cf.br`/`cf.cond_br`
with block arguments (SSA construction after Braun et al., ir.SSA), which
`coro-normalize-control-flow` structures before the split; a generator loop
(`for v in gen(...)`) is a `coro.for_each`, whose single-block body holds
an `scf.execute_region` with the loop body's CFG.

    @coroutine                         coro.func @count(%n: i32, %out: memref<?xi32>) {
    def count(n: i32, out: Buffer[i32]):   %0 = coro.id : index loc(...)
        i = 0                              ...
        while i < n:                     ^bb1(%i: i32 loc("i"(...))):
            suspend("step")                %1 = arith.cmpi slt, %i, %n : i32
            i += 1                         cf.cond_br %1, ^bb2, ^bb3
        out[id()] = i                    ^bb2:
                                           coro.suspend "step"
                                           ...

This module holds the module translator (signatures, the kernels a module
reaches) and the function translator's core (blocks, variables, emitting
ops); the function translator's statements, expressions and calls are the
mixins of statements.py, expressions.py, values.py, calls.py and
mathcalls.py, over what shared.py holds (compile-time values, operator
tables, constant text).

Types (types.py) are fixed per variable; an int literal is i32 and a float
literal f32 unless the other operand gives the type, and must fit in it (an
explicit conversion of a constant wraps); two different non-literal types
never mix implicitly.

A variable must be assigned on every path before it is read (ir.Function
checks each read). A range loop's variable is an ordinary variable
assigned at the top of each iteration: after the loop it holds the last
value, or the one before the loop when the loop did not run, so it is
defined there only if it was before the loop. A generator loop's variable
is the for_each's block argument: after the loop it is not defined, even if
it was assigned before the loop; the variables its body assigns that were
defined before it are carried (iter_args), the others are not defined
after it.
"""

from . import types as T
from .errors import CompileError
from .ir import SSA, Function, Loc, Op, Printer, Undef, OpResult, branch
from .kernel import Translation
from .shared import (BoundInstance, Lit, PyObj, UNSUPPORTED, _a, _static_eval,
                     assigned_names, const_text)
from .calls import CallTranslator
from .expressions import ExpressionTranslator
from .mathcalls import MathCallTranslator
from .statements import StatementTranslator
from .values import ValueTranslator


def read_signature(kdef):
    src = kdef.source
    node = src.node

    def fail(n, msg):
        raise CompileError(msg, src.filename, src.line(n), src.col(n))

    a = node.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        fail(node, f"'{kdef.name}': *args, **kwargs, keyword-only and "
                   f"positional-only parameters are not supported")
    if a.defaults:
        fail(a.defaults[0], "default parameter values are not supported in a "
                            "corogpu kernel")
    params = []
    for arg in a.args:
        if arg.annotation is None:
            fail(arg, f"parameter '{arg.arg}' of '{kdef.name}' needs a type "
                      f"annotation (e.g. {arg.arg}: i32, {arg.arg}: Buffer[f32])")
        t = _static_eval(kdef, arg.annotation)
        if not isinstance(t, (T.ScalarType, T.VectorType, T.BufferType,
                              T.LocalArrayType)):
            fail(arg.annotation, f"parameter '{arg.arg}': {t!r} is not a "
                                 f"corogpu type (i32, f32, float3, Buffer[f32], ...)")
        params.append((arg.arg, t, arg))
    result = None
    if node.returns is not None:
        r = _static_eval(kdef, node.returns)
        if r is None:
            result = None
        elif kdef.kind == "coroutine":
            if not isinstance(r, T.GeneratorType):
                fail(node.returns, "a coroutine returns nothing; a generator "
                                   "may be annotated -> Generator[T]")
            if not kdef.is_generator:
                fail(node.returns, f"'{kdef.name}' is annotated as a generator "
                                   f"but has no `yield`")
            result = r
        else:
            if not isinstance(r, (T.ScalarType, T.VectorType)):
                fail(node.returns, f"a @func returns a scalar or a vector, not "
                                   f"{r!r}")
            result = r
    return params, result


# --- the module ------------------------------------------------------------------------

class ModuleTranslator:
    """Translates a kernel and everything it reaches into one module,
    giving each KernelDef a unique symbol."""

    def __init__(self, entry):
        self.entry = entry
        self.symbols = {}
        self.order = []
        self.taken = set()
        self.translators = {}

    def symbol(self, k):
        if id(k) not in self.symbols:
            base = name = k.name
            n = 1
            while name in self.taken:
                name = f"{base}_{n}"
                n += 1
            self.taken.add(name)
            self.symbols[id(k)] = name
            self.order.append(k)
        return self.symbols[id(k)]

    def translator(self, k):
        self.symbol(k)
        if id(k) not in self.translators:
            t = FunctionTranslator(self, k)
            self.translators[id(k)] = t
            t.run()
        return self.translators[id(k)]

    def yield_type(self, k, where):
        ann = k.signature()[1]
        if isinstance(ann, T.GeneratorType):
            return ann.elem
        t = self.translator(k)
        if not t.finished:
            where.error(f"the yield type of generator '{k.name}' is not known "
                        f"here (it is still being translated); annotate it: "
                        f"-> Generator[T]")
        if t.yield_type is None:
            where.error(f"cannot infer the yield type of generator '{k.name}' "
                        f"(it yields no value); annotate it: -> Generator[T]")
        return t.yield_type

    def result_type(self, k, where):
        ann = k.signature()[1]
        if ann is not None:
            return ann
        t = self.translator(k)
        if not t.finished:
            where.error(f"the result type of '{k.name}' is not known here "
                        f"(recursion); annotate it: -> T")
        return t.result_type

    def run(self):
        entry = self.symbol(self.entry)
        i = 0
        while i < len(self.order):
            self.translator(self.order[i])
            i += 1
        texts = [self.translators[id(k)].text for k in self.order]
        return Translation("\n\n".join(texts) + "\n", entry,
                           self.entry.params, self.entry)


def translate_module(kdef):
    return ModuleTranslator(kdef).run()



# --- one function ---------------------------------------------------------------------------

class FunctionTranslator(StatementTranslator, ExpressionTranslator,
                         ValueTranslator, CallTranslator, MathCallTranslator):
    def __init__(self, module, kdef):
        self.module = module
        self.kdef = kdef
        self.src = kdef.source
        self.file = self.src.filename
        self.symbol = module.symbol(kdef)
        self.is_coro = kdef.kind == "coroutine"
        self.params, result = kdef.signature()
        self.yield_type = result.elem if isinstance(result, T.GeneratorType) else None
        self.result_type = None if self.is_coro else result
        self.result_fixed = result is not None
        self.var_types = {}
        self.ssa = SSA(lambda var: self.var_types[var])
        self.loops = []
        self.hidden = 0
        node = self.src.node
        bases = []
        self.locals = {p[0] for p in self.params} | set(assigned_names(node.body, bases))
        self.locals |= {b for b in bases if b in self.locals}
        self.finished = False
        self.block = None
        self.text = None
        self.ids = {}
        self.reads = []

    # -- locations and errors

    def loc(self, node):
        if isinstance(node, Loc):
            return node
        return Loc(self.file, self.src.line(node), self.src.col(node))

    def error(self, message, node=None):
        node = node if node is not None else self._node
        raise CompileError(message, self.file, self.src.line(node),
                           self.src.col(node))

    def unsupported(self, node):
        name = type(node).__name__
        self.error(UNSUPPORTED.get(name, f"`{name}` is not supported in a "
                                         f"corogpu kernel"), node)

    # -- building

    def emit(self, fmt, operands, result_types, node, hint=None):
        op = Op(fmt, operands, result_types, self.loc(node), name_hint=hint)
        self.block.append(op)
        return op

    def emit1(self, fmt, operands, rtype, node):
        return self.emit(fmt, operands, [rtype], node).result

    def terminate(self, op):
        op.block = self.block
        self.block.term = op
        self.block = None

    def new_block(self, node):
        b = self.regions[-1].new_block()
        b.loc = self.loc(node)
        return b

    def br(self, target, node):
        self.terminate(branch(self.block, lambda p, es: f"cf.br {es[0]}",
                              [target], loc=self.loc(node)))

    def cond_br(self, cond, t, f, node):
        c = self.value(cond, T.boolean, node)
        self.terminate(branch(
            self.block, lambda p, es: f"cf.cond_br {p.v(c)}, {es[0]}, {es[1]}",
            [t, f], operands=[c], loc=self.loc(node)))

    def const(self, value, t, node):
        text = const_text(value, t)
        key = (t.name, text)
        cached = self.block.consts.get(key)
        if cached is not None:
            return cached
        op = self.emit(lambda p: f"arith.constant {text}", [], [t], node)
        op.is_const = True
        self.block.consts[key] = op.result
        return op.result

    def zero_const(self, t):
        if not T.is_value_type(t):
            raise CompileError(f"{_a(t)} variable may be used before it is "
                               f"assigned", self.file,
                               self.src.line(self.src.node), 1)
        text = const_text(False if t.kind == "bool" else 0, t)
        op = Op(lambda p: f"arith.constant {text}", [], [t],
                self.loc(self.src.node))
        return op

    def hidden_var(self, t, what):
        self.hidden += 1
        name = f"${what}#{self.hidden}"
        self.var_types[name] = t
        return name

    # -- variables

    def read_var(self, name, node):
        if name not in self.var_types:
            self.error(f"variable '{name}' is used before it is assigned", node)
        v = self.ssa.read(name, self.block)
        if isinstance(v.resolve(), Undef):
            self.error(f"variable '{name}' may be used before it is assigned "
                       f"(it is not assigned on every path to here)", node)
        self.reads.append((v, self.loc(node), name))
        return v

    def write_var(self, name, value, node):
        """Assigns a typed value (or a literal) to a variable, fixing its
        type at the first assignment."""
        if isinstance(value, Lit):
            t = self.var_types.get(name)
            lt = self.default_type(value, node)
            # A literal takes the variable's type: an int one that of any
            # int or float scalar, a float one that of a float scalar.
            fits = t is None or lt == t or isinstance(t, T.ScalarType) and (
                (lt == T.i32 and t.kind in ("sint", "uint", "index", "float"))
                or (lt == T.f32 and t.kind == "float"))
            if not fits:
                self.error(f"variable '{name}' changes type from {t} to {lt}", node)
            value = self.lit(value, t or lt, node)
        if isinstance(value, (PyObj, BoundInstance)) or value is None:
            what = "nothing" if value is None else self.describe(value)
            self.error(f"cannot assign {what} to variable '{name}'", node)
        t = self.var_types.get(name)
        if t is None:
            self.var_types[name] = value.type
        elif t != value.type:
            self.error(f"variable '{name}' changes type from {t} to "
                       f"{value.type}", node)
        r = value
        if isinstance(r, OpResult) and r.op.name_hint is None and \
                len(r.op.results) == 1 and not getattr(r.op, "is_const", False):
            r.op.name_hint = name
            if r.op.loc is not None:
                r.op.loc = r.op.loc.named(name)
        self.ssa.write(name, self.block, value)

    # -- the function

    def run(self):
        node = self.src.node
        params = [(n, t, self.loc(a).named(n)) for n, t, a in self.params]
        self.fn = Function(self.header, params, self.loc(node), self.file)
        self.fn.entry.loc = self.loc(node)
        for (n, t, a), arg in zip(self.params, self.fn.params):
            self.var_types[n] = t
            self.ssa.write(n, self.fn.entry, arg)
        self.block = self.fn.entry
        self.regions = [self.fn.body]
        self.stmts(node.body)
        if self.block is not None:
            end = node.body[-1]
            if self.is_coro:
                self.terminate(Op(lambda p: "coro.return", (), (), self.loc(end)))
            elif self.result_type is None:
                self.result_fixed = True
                self.terminate(Op(lambda p: "func.return", (), (), self.loc(end)))
            else:
                self.error(f"'{self.kdef.name}' must return {_a(self.result_type)} "
                           f"value at its end", end)
        if self.is_coro and self.kdef.is_generator and self.yield_type is None:
            self.error(f"cannot infer the yield type of generator "
                       f"'{self.kdef.name}' (no `yield` with a value is "
                       f"reached); annotate it: -> Generator[T]", node)
        self.fn.finish(self.zero_const, self.reads)
        self.text = Printer().function(self.fn)
        self.finished = True

    def header(self, p):
        args = ", ".join(p.arg_decl(a) for a in self.fn.params)
        if self.is_coro:
            text = f"coro.func @{self.symbol}({args})"
            if self.kdef.is_generator:
                text += f" yields {self.yield_type.mlir}"
            return text
        text = f"func.func @{self.symbol}({args})"
        if self.result_type is not None:
            text += f" -> {self.result_type.mlir}"
        return text

    # -- statements

    def stmts(self, body):
        for s in body:
            if self.block is None:
                return          # unreachable: after return, break, continue
            self._node = s
            m = getattr(self, "stmt_" + type(s).__name__, None)
            if m is None:
                self.unsupported(s)
            m(s)

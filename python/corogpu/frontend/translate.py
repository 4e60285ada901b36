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

Types (types.py) are fixed per variable; an int literal is i32 and a float
literal f32 unless the other operand gives the type; two different
non-literal types never mix implicitly.
"""

import ast
import builtins
import re
import math as pymath
import numbers

from . import dsl
from . import types as T
from .errors import CompileError
from .ir import (SSA, Alias, Function, Loc, Op, Printer, Region,
                 Undef, Value, OpResult, branch, escape)
from .kernel import KernelDef, Translation


# --- compile-time values ------------------------------------------------------

class Lit:
    """A Python number (int, float, bool) not yet given a type."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class PyObj:
    """A Python object used at compile time: a module, a type, a kernel,
    a DSL function, a string."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


class BoundInstance:
    """`gen[i]`: a generator and the instance index its loop runs."""

    def __init__(self, kernel, instance):
        self.kernel = kernel
        self.instance = instance


# Python's math module and builtins that map to DSL functions.
PY_ALIASES = {
    pymath.sqrt: "sqrt", pymath.exp: "exp", pymath.log: "log",
    pymath.log2: "log2", pymath.sin: "sin", pymath.cos: "cos",
    pymath.tan: "tan", pymath.atan2: "atan2", pymath.pow: "pow",
    pymath.floor: "floor", pymath.ceil: "ceil", pymath.fabs: "abs",
    builtins.min: "min", builtins.max: "max", builtins.abs: "abs",
    builtins.len: "len",
}
if hasattr(pymath, "exp2"):
    PY_ALIASES[pymath.exp2] = "exp2"

# Builtins without side effects (a short-circuit `and`/`or` or a
# conditional expression over them may evaluate both sides).
PURE_BUILTINS = {
    "id", "sqrt", "rsqrt", "exp", "exp2", "log", "log2", "sin", "cos",
    "tan", "atan2", "pow", "abs", "floor", "ceil", "fract", "min", "max",
    "clamp", "select", "fma", "dot", "cross", "normalize", "length", "len",
}

UNSUPPORTED = {
    "Lambda": "`lambda` is not supported in a corogpu kernel",
    "ListComp": "list comprehensions are not supported in a corogpu kernel",
    "SetComp": "set comprehensions are not supported in a corogpu kernel",
    "DictComp": "dict comprehensions are not supported in a corogpu kernel",
    "GeneratorExp": "generator expressions are not supported in a corogpu kernel",
    "List": "lists are not supported in a corogpu kernel (use local_array)",
    "Dict": "dicts are not supported in a corogpu kernel",
    "Set": "sets are not supported in a corogpu kernel",
    "Tuple": "tuples are not supported in a corogpu kernel (only `a, b = b, a`)",
    "JoinedStr": "f-strings are not supported in a corogpu kernel",
    "FormattedValue": "f-strings are not supported in a corogpu kernel",
    "Starred": "`*` unpacking is not supported in a corogpu kernel",
    "Await": "`await` is not supported in a corogpu kernel (call a coroutine to await it)",
    "NamedExpr": "`:=` is not supported in a corogpu kernel",
    "Slice": "slices are not supported in a corogpu kernel",
    "YieldFrom": "`yield from` is not supported in a corogpu kernel",
    "With": "`with` statements are not supported in a corogpu kernel",
    "AsyncWith": "`async with` is not supported in a corogpu kernel",
    "AsyncFor": "`async for` is not supported in a corogpu kernel",
    "AsyncFunctionDef": "nested functions are not supported in a corogpu kernel",
    "Try": "`try` statements are not supported in a corogpu kernel",
    "TryStar": "`try` statements are not supported in a corogpu kernel",
    "Raise": "`raise` is not supported in a corogpu kernel",
    "Assert": "`assert` is not supported in a corogpu kernel",
    "Global": "`global` is not supported in a corogpu kernel",
    "Nonlocal": "`nonlocal` is not supported in a corogpu kernel",
    "Import": "`import` is not supported in a corogpu kernel (import at module level)",
    "ImportFrom": "`import` is not supported in a corogpu kernel (import at module level)",
    "FunctionDef": "nested functions are not supported in a corogpu kernel (use @corogpu.func at module level)",
    "ClassDef": "classes are not supported in a corogpu kernel",
    "Delete": "`del` is not supported in a corogpu kernel",
    "Match": "`match` statements are not supported in a corogpu kernel",
    "Yield": "`yield` is supported only as a statement (`yield v`)",
}

CMP_INT = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
CMP_FLOAT = {ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge",
             ast.Eq: "oeq", ast.NotEq: "une"}
OP_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
             ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
             ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
             ast.LShift: "<<", ast.RShift: ">>", ast.MatMult: "@",
             ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
             ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not",
             ast.In: "in", ast.NotIn: "not in"}
SWIZZLE = {"x": 0, "y": 1, "z": 2, "w": 3, "r": 0, "g": 1, "b": 2, "a": 3}


def _a(t):
    """`t` with its indefinite article: "an i32", "a u32", "a float3"."""
    name = str(t)
    return ("an " if re.match(r"i|f\d|index", name) else "a ") + name


def _bool_vector(t):
    return T.vector_type(T.boolean, t.count) if isinstance(t, T.VectorType) else T.boolean


def float_text(value, t):
    """An MLIR float literal (hex for infinities and NaN)."""
    if pymath.isfinite(value):
        text = repr(float(value))
        mant, _, exp = text.partition("e")
        if "." not in mant:
            mant += ".0"
        return mant + ("e" + exp if exp else "")
    bits = {16: (0x7C00, 0xFC00, 0x7E00), 32: (0x7F800000, 0xFF800000, 0x7FC00000),
            64: (0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000)}[t.bits]
    if pymath.isnan(value):
        return hex(bits[2])
    return hex(bits[0] if value > 0 else bits[1])


def scalar_text(value, t):
    if t.is_bool:
        return "true" if value else "false"
    if t.is_float:
        return float_text(value, t)
    bits = t.bits
    v = int(value)
    if v >= 1 << (bits - 1):
        v -= 1 << bits
    return str(v)


def const_text(value, t):
    """The operand of arith.constant for `value` (a number, or a list for
    a vector) of type `t`."""
    if isinstance(t, T.VectorType):
        if not isinstance(value, (list, tuple)):
            return f"dense<{scalar_text(value, t.elem)}> : {t.mlir}"
        elems = ", ".join(scalar_text(v, t.elem) for v in value)
        return f"dense<[{elems}]> : {t.mlir}"
    if t.is_bool:
        return scalar_text(value, t)
    return f"{scalar_text(value, t)} : {t.mlir}"


# --- syntactic scans --------------------------------------------------------------

def _target_names(target, out, bases):
    if isinstance(target, ast.Name):
        out.append(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for e in target.elts:
            _target_names(e, out, bases)
    elif isinstance(target, (ast.Attribute, ast.Subscript)) and \
            isinstance(target.value, ast.Name):
        # v.x = ... and v[0] = ... reassign v when it is a vector (an
        # element of a buffer or a local array is memory).
        bases.append(target.value.id)


def assigned_names(stmts, bases=None):
    """The variables a list of statements assigns, in order of first
    assignment (for loop targets included); `bases` gets the variables
    whose elements or components are assigned."""
    out = []
    bases = [] if bases is None else bases
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    _target_names(t, out, bases)
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
                _target_names(n.target, out, bases)
            elif isinstance(n, ast.For):
                _target_names(n.target, out, bases)
            elif isinstance(n, ast.NamedExpr):
                _target_names(n.target, out, bases)
    seen = set()
    return [n for n in out if not (n in seen or seen.add(n))]


def contains_return(stmts):
    return any(isinstance(n, ast.Return) for s in stmts for n in ast.walk(s))


# --- signatures and compile-time evaluation ------------------------------------------

def _namespace_lookup(pyfunc, name):
    """(found, value) of a free name of `pyfunc`: closure, globals,
    builtins."""
    code = pyfunc.__code__
    if pyfunc.__closure__ and name in code.co_freevars:
        cell = pyfunc.__closure__[code.co_freevars.index(name)]
        try:
            return True, cell.cell_contents
        except ValueError:
            return False, None
    g = pyfunc.__globals__
    if name in g:
        return True, g[name]
    b = g.get("__builtins__", builtins)
    b = b if isinstance(b, dict) else vars(b)
    if name in b:
        return True, b[name]
    return False, None


def _static_eval(kdef, node):
    """Evaluates an annotation or a constant expression (names, attributes,
    subscripts, tuples, constants) in the kernel's namespace."""
    src = kdef.source

    def fail(n, msg):
        raise CompileError(msg, src.filename, src.line(n), src.col(n))

    def ev(n):
        if isinstance(n, ast.Constant):
            if isinstance(n.value, str) and n is node:
                try:
                    inner = ast.parse(n.value, mode="eval").body
                except SyntaxError:
                    fail(n, f"cannot parse the annotation {n.value!r}")
                ast.copy_location(inner, n)
                for m in ast.walk(inner):
                    m.lineno, m.col_offset = n.lineno, n.col_offset
                return ev(inner)
            return n.value
        if isinstance(n, ast.Name):
            found, value = _namespace_lookup(kdef.pyfunc, n.id)
            if not found:
                fail(n, f"name '{n.id}' is not defined")
            return value
        if isinstance(n, ast.Attribute):
            base = ev(n.value)
            try:
                return getattr(base, n.attr)
            except AttributeError:
                fail(n, f"'{n.attr}' is not an attribute of {base!r}")
        if isinstance(n, ast.Subscript):
            base = ev(n.value)
            key = ev(n.slice)
            try:
                return base[key]
            except Exception as exc:  # noqa: BLE001 - reported as located
                fail(n, str(exc))
        if isinstance(n, ast.Tuple):
            return tuple(ev(e) for e in n.elts)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        fail(n, f"cannot evaluate this {type(n).__name__} at compile time")

    return ev(node)


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


class Loop:
    def __init__(self, kind, brk=None, cont=None, go=None, ret=None):
        self.kind = kind       # "cfg" or "foreach"
        self.brk = brk         # cfg: blocks; foreach: brk is the region's exit
        self.cont = cont
        self.go = go           # foreach: hidden variables
        self.ret = ret


# --- one function ---------------------------------------------------------------------------

class FunctionTranslator:
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

    def stmt_Pass(self, s):
        pass

    def stmt_Expr(self, s):
        v = s.value
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            return                                   # a docstring
        if isinstance(v, ast.Yield):
            return self.do_yield(v)
        if isinstance(v, ast.Call):
            return self.call(v, stmt=True)
        self.expr(v)

    def stmt_Assign(self, s):
        if isinstance(s.value, (ast.Yield, ast.YieldFrom)):
            self.error("the value of `yield` is not supported; write `yield v` "
                       "as a statement", s.value)
        targets = s.targets
        if len(targets) == 1 and isinstance(targets[0], ast.Tuple):
            t = targets[0]
            if not isinstance(s.value, ast.Tuple) or len(s.value.elts) != len(t.elts):
                self.error("tuple assignment needs a tuple of as many values "
                           "on the right (a, b = b, a)", s)
            values = [self.expr(e) for e in s.value.elts]
            for tgt, v, e in zip(t.elts, values, s.value.elts):
                self.assign(tgt, v, e)
            return
        value = self.expr(s.value)
        for t in targets:
            self.assign(t, value, s)

    def stmt_AnnAssign(self, s):
        if not isinstance(s.target, ast.Name):
            self.error("annotated assignment needs a variable name", s.target)
        t = _static_eval(self.kdef, s.annotation)
        if not T.is_value_type(t):
            self.error(f"{t!r} is not a scalar or vector type", s.annotation)
        name = s.target.id
        old = self.var_types.get(name)
        if old is not None and old != t:
            self.error(f"variable '{name}' changes type from {old} to {t}", s)
        self.var_types[name] = t
        if s.value is not None:
            v = self.expr(s.value)
            self.write_var(name, self.value(v, t, s.value), s)

    def stmt_AugAssign(self, s):
        tgt = s.target
        if isinstance(tgt, ast.Name):
            cur = self.expr(tgt)
            new = self.binop(s.op, cur, self.expr(s.value), s)
            return self.assign(tgt, new, s)
        if isinstance(tgt, ast.Subscript):
            base = self.expr(tgt.value)
            if isinstance(base, Value) and isinstance(base.type, (T.BufferType, T.LocalArrayType)):
                idx = self.indices(base, tgt.slice, tgt)
                cur = self.load(base, idx, tgt)
                new = self.binop(s.op, cur, self.expr(s.value), s)
                return self.store(base, idx, new, s)
        cur = self.expr(tgt)
        new = self.binop(s.op, cur, self.expr(s.value), s)
        self.assign(tgt, new, s)

    def assign(self, tgt, value, node):
        if isinstance(tgt, ast.Name):
            if tgt.id not in self.locals:
                self.error(f"cannot assign to '{tgt.id}'", tgt)
            return self.write_var(tgt.id, value, node)
        if isinstance(tgt, ast.Subscript):
            base = self.expr(tgt.value)
            if isinstance(base, Value) and isinstance(base.type, (T.BufferType, T.LocalArrayType)):
                return self.store(base, self.indices(base, tgt.slice, tgt), value, node)
            if isinstance(base, Value) and isinstance(base.type, T.VectorType) \
                    and isinstance(tgt.value, ast.Name):
                new = self.vector_insert(base, self.expr(tgt.slice), value, tgt)
                return self.write_var(tgt.value.id, new, node)
            self.error(f"cannot assign to an element of {self.describe(base)}", tgt)
        if isinstance(tgt, ast.Attribute):
            base = self.expr(tgt.value)
            if isinstance(base, Value) and isinstance(base.type, T.VectorType) \
                    and isinstance(tgt.value, ast.Name):
                lanes = self.swizzle_lanes(base.type, tgt.attr, tgt)
                if len(lanes) == 1:
                    new = self.vector_insert(base, Lit(lanes[0]), value, tgt)
                else:
                    v = self.value(value, T.vector_type(base.type.elem, len(lanes)), node)
                    new = base
                    for k, lane in enumerate(lanes):
                        comp = self.vector_extract(v, Lit(k), tgt)
                        new = self.vector_insert(new, Lit(lane), comp, tgt)
                return self.write_var(tgt.value.id, new, node)
            self.error(f"cannot assign to attribute '{tgt.attr}'", tgt)
        self.unsupported(tgt)

    def stmt_If(self, s):
        c = self.truth(self.expr(s.test), s.test)
        if isinstance(c, Lit):           # `if DEBUG:` with a constant
            self.stmts(s.body if c.value else s.orelse)
            return
        then_b = self.new_block(s)
        else_b = self.new_block(s.orelse[0]) if s.orelse else None
        merge = self.new_block(s)
        else_b = else_b or merge
        self.cond_br(c, then_b, else_b, s)
        self.ssa.seal(then_b)
        self.block = then_b
        self.stmts(s.body)
        if self.block is not None:
            self.br(merge, s)
        if s.orelse:
            self.ssa.seal(else_b)
            self.block = else_b
            self.stmts(s.orelse)
            if self.block is not None:
                self.br(merge, s)
        self.ssa.seal(merge)
        self.block = merge if merge.preds else None

    def stmt_While(self, s):
        if s.orelse:
            self.error("`else` on loops is not supported", s.orelse[0])
        header = self.new_block(s)
        self.br(header, s)
        self.block = header
        c = self.truth(self.expr(s.test), s.test)
        if isinstance(c, Lit) and not c.value:
            self.ssa.seal(header)        # `while False:` never runs its body
            return
        body = self.new_block(s)
        exit_b = self.new_block(s)
        if isinstance(c, Lit):
            self.br(body, s)
        else:
            self.cond_br(c, body, exit_b, s)
        self.ssa.seal(body)
        self.loops.append(Loop("cfg", brk=exit_b, cont=header))
        self.block = body
        self.stmts(s.body)
        if self.block is not None:
            self.br(header, s)
        self.loops.pop()
        self.ssa.seal(header)
        self.ssa.seal(exit_b)
        self.block = exit_b if exit_b.preds else None

    def stmt_For(self, s):
        if s.orelse:
            self.error("`else` on loops is not supported", s.orelse[0])
        if not isinstance(s.target, ast.Name):
            self.error("the target of a for loop must be a variable name", s.target)
        it = s.iter
        if not isinstance(it, ast.Call):
            self.error("a for loop iterates over range(...) or a generator "
                       "call gen(...)", it)
        f = self.expr(it.func)
        if isinstance(f, PyObj) and f.obj is builtins.range:
            return self.for_range(s, it)
        if isinstance(f, BoundInstance):
            return self.for_generator(s, f.kernel, f.instance, it)
        if isinstance(f, PyObj) and isinstance(f.obj, KernelDef):
            if not f.obj.is_generator:
                self.error(f"'{f.obj.name}' is not a generator (it has no "
                           f"`yield`); a for loop iterates over a generator "
                           f"or range()", it)
            return self.for_generator(s, f.obj, None, it)
        self.error("a for loop iterates over range(...) or a generator call "
                   "gen(...)", it)

    def for_range(self, s, call):
        if call.keywords or not 1 <= len(call.args) <= 3:
            self.error("range() takes 1 to 3 positional arguments", call)
        args = [self.expr(a) for a in call.args]
        if len(args) == 1:
            start, stop, step = Lit(0), args[0], Lit(1)
        elif len(args) == 2:
            (start, stop), step = args, Lit(1)
        else:
            start, stop, step = args
        if not isinstance(step, Lit) or not isinstance(step.value, int) or \
                isinstance(step.value, bool) or step.value == 0:
            self.error("the step of range() must be a nonzero integer constant",
                       call.args[2] if len(call.args) == 3 else call)
        typed = [a for a in (start, stop) if isinstance(a, Value)]
        t = typed[0].type if typed else T.i32
        for a, n in zip((start, stop), call.args[-2:] if len(args) > 1 else call.args):
            if isinstance(a, Value) and a.type != t:
                self.error(f"range() bounds have different types: {t} and "
                           f"{a.type}", call)
        if not (isinstance(t, T.ScalarType) and t.is_int):
            self.error(f"range() takes integers, not {t}", call)
        if step.value < 0 and t.kind == "uint":
            self.error("a u32 range() cannot count down", call)
        start = self.value(start, t, call)
        stop = self.value(stop, t, call)
        var = s.target.id
        if var in self.var_types and self.var_types[var] != t:
            self.error(f"variable '{var}' changes type from "
                       f"{self.var_types[var]} to {t}", s.target)
        counter = self.hidden_var(t, var)
        self.ssa.write(counter, self.block, start)
        header = self.new_block(s)
        self.br(header, s)
        self.block = header
        i = self.ssa.read(counter, header)
        pred = ("u" if t.kind == "uint" else "s") + ("lt" if step.value > 0 else "gt")
        c = self.emit1(lambda p: f"arith.cmpi {pred}, {p.v(i)}, {p.v(stop)} : {t.mlir}",
                       [i, stop], T.boolean, s)
        body = self.new_block(s)
        exit_b = self.new_block(s)
        self.cond_br(c, body, exit_b, s)
        self.ssa.seal(body)
        latch = self.new_block(s)
        self.loops.append(Loop("cfg", brk=exit_b, cont=latch))
        self.block = body
        self.write_var(var, i, s.target)
        self.stmts(s.body)
        if self.block is not None:
            self.br(latch, s)
        self.loops.pop()
        self.ssa.seal(latch)
        if latch.preds:
            self.block = latch
            cur = self.ssa.read(counter, latch)
            inc = self.const(step.value, t, s)
            nxt = self.emit1(lambda p: f"arith.addi {p.v(cur)}, {p.v(inc)} : {t.mlir}",
                             [cur, inc], t, s)
            self.ssa.write(counter, latch, nxt)
            self.br(header, s)
        self.ssa.seal(header)
        self.ssa.seal(exit_b)
        self.block = exit_b if exit_b.preds else None

    def for_generator(self, s, gen, instance, call):
        """`for v in gen(args)`: a coro.for_each whose body block holds an
        scf.execute_region with the loop body's CFG; it yields whether to
        go on (false after `break` or `return`), whether the body returned
        (when it can), and the variables the body assigns that were
        defined before the loop (its iter_args). Variables first assigned
        in the body, and the loop variable, are not defined after it."""
        if not self.is_coro:
            self.error("generator loops are only supported in a @coroutine", s)
        elem = self.module.yield_type(gen, self)
        args = self.call_args(gen, call)
        if instance is None:
            instance = self.b_id(ast.copy_location(ast.Call(args=[], keywords=[]), call), False)
        var = s.target.id
        if var in self.var_types and self.var_types[var] != elem:
            self.error(f"variable '{var}' changes type from "
                       f"{self.var_types[var]} to {elem}", s.target)
        bases = []
        assigned = assigned_names(s.body, bases)
        assigned += [b for b in bases if b not in assigned and
                     isinstance(self.var_types.get(b), T.VectorType)]
        carried = [v for v in assigned
                   if v in self.var_types and v != var and v in self.locals
                   and T.is_value_type(self.var_types[v])]
        has_ret = contains_return(s.body)
        ret_var = self.hidden_var(T.boolean, "returned") if has_ret else None
        go_var = self.hidden_var(T.boolean, "go")
        loop_vars = ([ret_var] if has_ret else []) + carried
        inits = []
        for v in loop_vars:
            if v == ret_var:
                inits.append(self.const(False, T.boolean, s))
                continue
            init = self.ssa.read(v, self.block)
            if isinstance(init.resolve(), Undef):
                init = self.zero_value(self.var_types[v], s)
            inits.append(init)
        types = [self.var_types[v] for v in loop_vars]
        outer = self.block
        loc = self.loc(s)

        body_region = Region()
        b0 = body_region.new_block(parent=outer)
        b0.sealed = True
        b0.loc = loc
        v_arg = b0.add_arg(elem, None, self.loc(s.target).named(var), var)
        loop_args = [b0.add_arg(t, None, loc.named(v) if not v.startswith("$") else loc,
                                v.lstrip("$"))
                     for v, t in zip(loop_vars, types)]
        exec_region = Region()
        e0 = exec_region.new_block(parent=b0)
        e0.sealed = True
        e0.loc = loc
        exit_b = exec_region.new_block()
        exit_b.loc = loc
        self.var_types.setdefault(var, elem)
        self.block = b0
        self.ssa.write(var, b0, v_arg)
        for v, a in zip(loop_vars, loop_args):
            self.ssa.write(v, b0, a)

        self.loops.append(Loop("foreach", brk=exit_b, go=go_var, ret=ret_var))
        self.regions.append(exec_region)
        self.block = e0
        self.stmts(s.body)
        if self.block is not None:
            self.ssa.write(go_var, self.block, self.const(True, T.boolean, s))
            self.br(exit_b, s)
        self.regions.pop()
        self.loops.pop()
        self.ssa.seal(exit_b)
        if not exit_b.preds:
            self.error("the body of a generator loop never reaches its end", s)
        self.block = exit_b
        go = self.ssa.read(go_var, exit_b)
        outs = [self.ssa.read(v, exit_b) for v in loop_vars]
        yvals = [go] + outs
        ytypes = ", ".join(t.mlir for t in [T.boolean] + types)
        self.terminate(Op(lambda p: f"scf.yield {p.vs(yvals)} : {ytypes}",
                          yvals, (), loc))

        self.block = b0
        ex = self.emit(lambda p: f"scf.execute_region -> ({ytypes}) "
                                 f"{p.nested(exec_region)}",
                       [], [T.boolean] + types, s)
        ex.regions = [exec_region]
        ex.inline_straight = True
        fy = ex.results
        ftypes = ", ".join(t.mlir for t in types)
        self.terminate(Op(
            lambda p: f"coro.for_each.yield {p.v(fy[0])}"
                      + (f", {p.vs(fy[1:])} : {ftypes}" if types else ""),
            fy, (), loc))

        self.block = outer
        sym = self.module.symbol(gen)
        atypes = ", ".join(t.mlir for _, t in gen.params)

        def fmt(p):
            text = f"coro.for_each @{sym}[{p.v(instance)}]("
            if args:
                text += f"{p.vs(args)} : {atypes}"
            text += ")"
            if types:
                text += f" iter_args({p.vs(inits)} : {ftypes}) -> ({ftypes})"
            return text + " " + p.nested(body_region, entry_args=True)

        fe = self.emit(fmt, [instance] + args + inits, types, s)
        fe.regions = [body_region]
        for v, r in zip(loop_vars, fe.results):
            self.ssa.write(v, self.block, r)
        for v in assigned + [var]:
            if v not in loop_vars and v in self.var_types:
                self.ssa.write(v, self.block, Undef(self.var_types[v], v))
        if has_ret:
            ret = fe.results[0]
            rb = self.new_block(s)
            cont = self.new_block(s)
            self.cond_br(ret, rb, cont, s)
            self.ssa.seal(rb)
            self.ssa.seal(cont)
            self.block = rb
            self.do_return(s, None)
            self.block = cont

    def stmt_Break(self, s):
        if not self.loops:
            self.error("`break` outside a loop", s)
        loop = self.loops[-1]
        if loop.kind == "foreach":
            self.ssa.write(loop.go, self.block, self.const(False, T.boolean, s))
        self.br(loop.brk, s)

    def stmt_Continue(self, s):
        if not self.loops:
            self.error("`continue` outside a loop", s)
        loop = self.loops[-1]
        if loop.kind == "foreach":
            self.ssa.write(loop.go, self.block, self.const(True, T.boolean, s))
            return self.br(loop.brk, s)
        self.br(loop.cont, s)

    def stmt_Return(self, s):
        self.do_return(s, s.value)

    def do_return(self, s, value_node):
        if self.is_coro:
            if value_node is not None:
                self.error("a coroutine returns no value (use promise() to "
                           "publish one, or yield in a generator)", value_node)
            for loop in reversed(self.loops):
                if loop.kind == "foreach":
                    self.ssa.write(loop.ret, self.block, self.const(True, T.boolean, s))
                    self.ssa.write(loop.go, self.block, self.const(False, T.boolean, s))
                    return self.br(loop.brk, s)
            return self.terminate(Op(lambda p: "coro.return", (), (), self.loc(s)))
        if value_node is None:
            if self.result_type is not None:
                self.error(f"'{self.kdef.name}' must return a "
                           f"{self.result_type} value", s)
            self.result_fixed = True
            return self.terminate(Op(lambda p: "func.return", (), (), self.loc(s)))
        v = self.expr(value_node)
        if self.result_type is None:
            if self.result_fixed:
                self.error(f"'{self.kdef.name}' returns nothing here but a "
                           f"value elsewhere", s)
            if isinstance(v, Lit):
                v = self.lit(v, self.default_type(v, value_node), value_node)
            self.result_type = self.value(v, None, value_node).type
            self.result_fixed = True
        v = self.value(v, self.result_type, value_node)
        rt = self.result_type
        self.terminate(Op(lambda p: f"func.return {p.v(v)} : {rt.mlir}",
                          [v], (), self.loc(s)))

    def do_yield(self, node):
        if not self.is_coro:
            self.error("`yield` is only allowed in a @coroutine (a generator)", node)
        if node.value is None:
            self.error("`yield` needs a value", node)
        v = self.expr(node.value)
        if self.yield_type is None:
            if isinstance(v, Lit):
                v = self.lit(v, self.default_type(v, node.value), node.value)
            v = self.value(v, None, node.value)
            if not T.is_value_type(v.type):
                self.error(f"a generator yields scalars or vectors, not {v.type}", node)
            self.yield_type = v.type
        v = self.value(v, self.yield_type, node.value)
        yt = self.yield_type
        self.emit(lambda p: f"coro.yield {p.v(v)} : {yt.mlir}", [v], [], node)

    # -- expressions

    def expr(self, node):
        m = getattr(self, "expr_" + type(node).__name__, None)
        if m is None:
            self.unsupported(node)
        return m(node)

    def expr_Constant(self, node):
        v = node.value
        if isinstance(v, (bool, int, float)):
            return Lit(v)
        if isinstance(v, str) or v is None:
            return PyObj(v)
        self.error(f"constant {v!r} is not supported in a corogpu kernel", node)

    def expr_Name(self, node):
        if node.id in self.locals:
            return self.read_var(node.id, node)
        found, value = _namespace_lookup(self.kdef.pyfunc, node.id)
        if not found:
            self.error(f"name '{node.id}' is not defined", node)
        return self.wrap(value, node)

    def wrap(self, value, node):
        """A Python object from the kernel's scope: numbers become
        literals (NumPy scalars typed constants), the rest compile-time
        objects."""
        if isinstance(value, (bool, int, float)):
            return Lit(value)
        try:
            import numpy
        except ImportError:       # pragma: no cover
            numpy = None
        if numpy is not None and isinstance(value, numpy.generic):
            for t in T.SCALARS:
                if t is not T.index and value.dtype == t.dtype:
                    return self.lit(Lit(value.item()), t, node, explicit=True)
            self.error(f"NumPy scalars of {value.dtype} are not supported", node)
        if isinstance(value, numbers.Number):
            self.error(f"{type(value).__name__} numbers are not supported", node)
        return PyObj(value)

    def expr_Attribute(self, node):
        base = self.expr(node.value)
        if isinstance(base, PyObj):
            try:
                return self.wrap(getattr(base.obj, node.attr), node)
            except AttributeError:
                self.error(f"{self.describe(base)} has no attribute "
                           f"'{node.attr}'", node)
        if isinstance(base, Value) and isinstance(base.type, T.VectorType):
            lanes = self.swizzle_lanes(base.type, node.attr, node)
            if len(lanes) == 1:
                return self.vector_extract(base, Lit(lanes[0]), node)
            vt = T.vector_type(base.type.elem, len(lanes))
            lt = ", ".join(str(x) for x in lanes)
            return self.emit1(
                lambda p: f"vector.shuffle {p.v(base)}, {p.v(base)} [{lt}] : "
                          f"{base.type.mlir}, {base.type.mlir}", [base], vt, node)
        self.error(f"{self.describe(base)} has no attribute '{node.attr}'", node)

    def swizzle_lanes(self, vt, attr, node):
        lanes = [SWIZZLE.get(c) for c in attr]
        if not 1 <= len(lanes) <= 4 or None in lanes or \
                any(k >= vt.count for k in lanes):
            self.error(f"'{attr}' is not a component of {vt} (use x, y, z, w)", node)
        return lanes

    def expr_Subscript(self, node):
        base = self.expr(node.value)
        if isinstance(base, PyObj):
            if isinstance(base.obj, KernelDef):
                inst = self.to_index(self.expr(node.slice), node.slice)
                return BoundInstance(base.obj, inst)
            self.error(f"cannot index {self.describe(base)} in a kernel", node)
        if isinstance(base, Value):
            if isinstance(base.type, (T.BufferType, T.LocalArrayType)):
                return self.load(base, self.indices(base, node.slice, node), node)
            if isinstance(base.type, T.VectorType):
                return self.vector_extract(base, self.expr(node.slice), node)
        self.error(f"cannot index {self.describe(base)}", node)

    def expr_Call(self, node):
        v = self.call(node, stmt=False)
        if v is None:
            self.error(f"{ast.unparse(node.func)}() returns no value", node)
        return v

    def expr_Tuple(self, node):
        self.unsupported(node)

    def expr_UnaryOp(self, node):
        v = self.expr(node.operand)
        op = node.op
        if isinstance(v, Lit):
            x = v.value
            if isinstance(op, ast.Not):
                return Lit(not x)
            if isinstance(op, ast.USub):
                return Lit(-x)
            if isinstance(op, ast.UAdd):
                return Lit(+x)
            if isinstance(op, ast.Invert):
                if isinstance(x, bool):
                    return Lit(not x)
                if isinstance(x, int):
                    return Lit(~x)
            self.error("`~` needs an integer", node)
        v = self.value(v, None, node)
        t = v.type
        if not T.is_value_type(t):
            sym = {ast.Not: "not", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(op)]
            self.error(f"`{sym}` is not defined on {t}", node)
        if isinstance(op, ast.Not):
            c = self.truth(v, node)
            tr = self.const(True, T.boolean, node)
            return self.emit1(lambda p: f"arith.xori {p.v(c)}, {p.v(tr)} : i1",
                              [c, tr], T.boolean, node)
        if isinstance(op, ast.UAdd):
            return v
        if isinstance(op, ast.USub):
            if t.kind == "float":
                return self.emit1(lambda p: f"arith.negf {p.v(v)} : {t.mlir}", [v], t, node)
            if t.kind == "bool":
                self.error("`-` on a boolean", node)
            z = self.const(0, t, node)
            return self.emit1(lambda p: f"arith.subi {p.v(z)}, {p.v(v)} : {t.mlir}",
                              [z, v], t, node)
        if isinstance(op, ast.Invert):
            if t.kind == "float":
                self.error("`~` needs an integer or a boolean", node)
            ones = self.const(True if t.kind == "bool" else -1, t, node)
            return self.emit1(lambda p: f"arith.xori {p.v(v)}, {p.v(ones)} : {t.mlir}",
                              [v, ones], t, node)
        self.unsupported(node)

    def expr_BinOp(self, node):
        return self.binop(node.op, self.expr(node.left), self.expr(node.right), node)

    def fold(self, op, a, b, node):
        import operator
        fns = {ast.Add: operator.add, ast.Sub: operator.sub,
               ast.Mult: operator.mul, ast.Div: operator.truediv,
               ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
               ast.Pow: operator.pow, ast.BitAnd: operator.and_,
               ast.BitOr: operator.or_, ast.BitXor: operator.xor,
               ast.LShift: operator.lshift, ast.RShift: operator.rshift}
        fn = fns.get(type(op))
        if fn is None:
            self.error(f"`{OP_SYMBOL.get(type(op), '?')}` is not supported", node)
        try:
            return Lit(fn(a, b))
        except (ArithmeticError, TypeError, ValueError) as exc:
            self.error(f"cannot compute {a!r} {OP_SYMBOL[type(op)]} {b!r}: {exc}", node)

    def binop(self, op, a, b, node):
        sym = OP_SYMBOL.get(type(op), "?")
        positive_divisor = isinstance(b, Lit) and b.value > 0
        if isinstance(a, Lit) and isinstance(b, Lit):
            return self.fold(op, a.value, b.value, node)
        if isinstance(op, ast.Pow):
            return self.power(a, b, node)
        if isinstance(op, ast.MatMult):
            self.error("`@` is not supported (use dot())", node)
        a, b = self.unify(a, b, node, sym)
        t = a.type
        k = t.kind
        m = t.mlir

        def ar(name, x=a, y=b, rt=t):
            return self.emit1(lambda p: f"arith.{name} {p.v(x)}, {p.v(y)} : {rt.mlir}",
                              [x, y], rt, node)

        if isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            if k == "float":
                self.error(f"`{sym}` needs integers or booleans, not {t}", node)
            return ar({ast.BitAnd: "andi", ast.BitOr: "ori", ast.BitXor: "xori"}[type(op)])
        if k == "bool":
            self.error(f"`{sym}` is not defined on booleans", node)
        if isinstance(op, (ast.LShift, ast.RShift)):
            if k == "float":
                self.error(f"`{sym}` needs integers, not {t}", node)
            if isinstance(op, ast.LShift):
                return ar("shli")
            return ar("shrui" if k == "uint" else "shrsi")
        f = k == "float"
        if isinstance(op, ast.Add):
            return ar("addf" if f else "addi")
        if isinstance(op, ast.Sub):
            return ar("subf" if f else "subi")
        if isinstance(op, ast.Mult):
            return ar("mulf" if f else "muli")
        if isinstance(op, ast.Div):
            if not f:
                self.error(f"`/` on integers ({t}): use `//` for integer "
                           f"division, or convert to a float type first "
                           f"(e.g. f32(x) / f32(y))", node)
            return ar("divf")
        if isinstance(op, ast.FloorDiv):
            if f:
                q = ar("divf")
                return self.emit1(lambda p: f"math.floor {p.v(q)} : {m}", [q], t, node)
            return ar("divui" if k == "uint" else "floordivsi")
        if isinstance(op, ast.Mod):
            if k == "uint":
                return ar("remui")
            # Python's remainder has the divisor's sign: r = a rem b, and
            # r + b where r != 0 and r, b differ in sign.
            r = ar("remf" if f else "remsi")
            z = self.zero_value(t, node)
            bt = _bool_vector(t)
            if positive_divisor and not f:
                # A positive constant divisor: fix the negative remainders.
                neg = self.emit1(lambda p: f"arith.cmpi slt, {p.v(r)}, {p.v(z)} : {m}",
                                 [r, z], bt, node)
                fixed = ar("addi", r, b)
                return self.emit1(
                    lambda p: f"arith.select {p.v(neg)}, {p.v(fixed)}, {p.v(r)} : "
                              f"{bt.mlir + ', ' if isinstance(t, T.VectorType) else ''}{m}",
                    [neg, fixed, r], t, node)
            if f:
                def cmp(pred, x, y):
                    return self.emit1(lambda p: f"arith.cmpf {pred}, {p.v(x)}, {p.v(y)} : {m}",
                                      [x, y], bt, node)
                nz, rneg, bneg = cmp("une", r, z), cmp("olt", r, z), cmp("olt", b, z)
            else:
                def cmp(pred, x, y):
                    return self.emit1(lambda p: f"arith.cmpi {pred}, {p.v(x)}, {p.v(y)} : {m}",
                                      [x, y], bt, node)
                nz, rneg, bneg = cmp("ne", r, z), cmp("slt", r, z), cmp("slt", b, z)
            diff = ar("xori", rneg, bneg, bt)
            fix = self.emit1(lambda p: f"arith.andi {p.v(nz)}, {p.v(diff)} : {bt.mlir}",
                             [nz, diff], bt, node)
            fixed = ar("addf" if f else "addi", r, b)
            return self.emit1(
                lambda p: f"arith.select {p.v(fix)}, {p.v(fixed)}, {p.v(r)} : "
                          f"{bt.mlir + ', ' if isinstance(t, T.VectorType) else ''}{m}",
                [fix, fixed, r], t, node)
        self.error(f"`{sym}` is not supported", node)

    def power(self, a, b, node):
        if isinstance(b, Lit) and isinstance(b.value, int) and not isinstance(b.value, bool) \
                and 0 <= b.value <= 16:
            a = self.value(a, None, node)
            if not T.is_value_type(a.type) or a.type.kind == "bool":
                self.error(f"`**` on {a.type}", node)
            if b.value == 0:
                return self.lit(Lit(1), a.type, node, explicit=True)
            result = a
            mul = "mulf" if a.type.kind == "float" else "muli"
            for _ in range(b.value - 1):
                x = result
                result = self.emit1(lambda p, x=x: f"arith.{mul} {p.v(x)}, {p.v(a)} : {a.type.mlir}",
                                    [x, a], a.type, node)
            return result
        a, b = self.unify(a, b, node, "**")
        if a.type.kind != "float":
            self.error(f"`**` on {a.type} needs a constant exponent from 0 to "
                       f"16; convert to a float type for pow()", node)
        return self.emit1(lambda p: f"math.powf {p.v(a)}, {p.v(b)} : {a.type.mlir}",
                          [a, b], a.type, node)

    def expr_Compare(self, node):
        left = self.expr(node.left)
        result = None
        for op, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node)
            c = self.compare(op, left, right, node)
            if result is None:
                result = c
            else:
                result = self.logic(result, c, True, node)
            left = right
        return result

    def compare(self, op, a, b, node):
        sym = OP_SYMBOL.get(type(op), "?")
        if isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
            self.error(f"`{sym}` is not supported in a corogpu kernel", node)
        if isinstance(a, Lit) and isinstance(b, Lit):
            import operator
            fn = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
                  ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}
            return Lit(fn[type(op)](a.value, b.value))
        a, b = self.unify(a, b, node, sym)
        t = a.type
        if isinstance(t, T.VectorType):
            self.error(f"`{sym}` on vectors is not supported; compare components", node)
        if t.kind == "float":
            pred = CMP_FLOAT[type(op)]
            return self.emit1(lambda p: f"arith.cmpf {pred}, {p.v(a)}, {p.v(b)} : {t.mlir}",
                              [a, b], T.boolean, node)
        if isinstance(op, ast.Eq):
            pred = "eq"
        elif isinstance(op, ast.NotEq):
            pred = "ne"
        else:
            if t.kind == "bool":
                self.error(f"`{sym}` on booleans", node)
            pred = ("u" if t.kind == "uint" else "s") + CMP_INT[type(op)]
        return self.emit1(lambda p: f"arith.cmpi {pred}, {p.v(a)}, {p.v(b)} : {t.mlir}",
                          [a, b], T.boolean, node)

    def logic(self, a, b, is_and, node):
        """Both operands evaluated: arith.andi / arith.ori."""
        if isinstance(a, Lit) and isinstance(b, Lit):
            return Lit((a.value and b.value) if is_and else (a.value or b.value))
        a = self.value(a, T.boolean, node)
        b = self.value(b, T.boolean, node)
        name = "andi" if is_and else "ori"
        return self.emit1(lambda p: f"arith.{name} {p.v(a)}, {p.v(b)} : i1",
                          [a, b], T.boolean, node)

    def expr_BoolOp(self, node):
        """`and`/`or` on truth values (booleans; ints and floats compare to
        zero), giving a boolean. Operands without side effects are all
        evaluated (arith.andi/ori); otherwise the evaluation short-circuits
        through branches, as in Python."""
        is_and = isinstance(node.op, ast.And)
        if all(self.pure(v) for v in node.values[1:]):
            result = None
            for v in node.values:
                t = self.truth(self.expr(v), v)
                result = t if result is None else self.logic(result, t, is_and, node)
            return result
        h = self.hidden_var(T.boolean, "cond")
        merge = None
        last = len(node.values) - 1
        for k, v in enumerate(node.values):
            t = self.truth(self.expr(v), v)
            if isinstance(t, Lit):
                if bool(t.value) == is_and and k < last:
                    continue        # `True and x`, `False or x`: x decides
                # A literal that decides (or the last operand): the result.
                self.ssa.write(h, self.block, self.const(bool(t.value), T.boolean, v))
                break
            self.ssa.write(h, self.block, t)
            if k == last:
                break
            if merge is None:
                merge = self.new_block(node)
            nxt = self.new_block(v)
            if is_and:
                self.cond_br(t, nxt, merge, v)
            else:
                self.cond_br(t, merge, nxt, v)
            self.ssa.seal(nxt)
            self.block = nxt
        if merge is None:
            return self.ssa.read(h, self.block)
        self.br(merge, node)
        self.ssa.seal(merge)
        self.block = merge
        return self.ssa.read(h, merge)

    def expr_IfExp(self, node):
        c = self.truth(self.expr(node.test), node.test)
        if isinstance(c, Lit):
            return self.expr(node.body if c.value else node.orelse)
        if self.pure(node.body) and self.pure(node.orelse):
            a, b = self.unify(self.expr(node.body), self.expr(node.orelse), node, "if-else")
            return self.select(c, a, b, node)
        then_b = self.new_block(node.body)
        else_b = self.new_block(node.orelse)
        merge = self.new_block(node)
        self.cond_br(c, then_b, else_b, node)
        self.ssa.seal(then_b)
        self.ssa.seal(else_b)
        self.block = then_b
        a = self.expr(node.body)
        a_end = self.block
        self.block = else_b
        b = self.expr(node.orelse)
        b_end = self.block
        if isinstance(a, Lit) and isinstance(b, Lit):
            t = T.f32 if isinstance(a.value, float) or isinstance(b.value, float) \
                else self.default_type(a, node)
        else:
            t = (a if isinstance(a, Value) else b).type
        h = self.hidden_var(t, "ifexp")
        for v, end, n in ((a, a_end, node.body), (b, b_end, node.orelse)):
            self.block = end
            self.ssa.write(h, end, self.value(v, t, n))
            self.br(merge, node)
        self.ssa.seal(merge)
        self.block = merge
        return self.ssa.read(h, merge)

    def select(self, c, a, b, node):
        t = a.type
        return self.emit1(lambda p: f"arith.select {p.v(c)}, {p.v(a)}, {p.v(b)} : {t.mlir}",
                          [c, a, b], t, node)

    def pure(self, node):
        """Whether evaluating `node` has no side effects and cannot fault
        (no calls but pure builtins, no memory reads)."""
        for n in ast.walk(node):
            if isinstance(n, (ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Await)):
                return False
            if isinstance(n, ast.Subscript):
                base = n.value
                if not (isinstance(base, ast.Name) and base.id in self.locals and
                        isinstance(self.var_types.get(base.id), T.VectorType)):
                    return False
            if isinstance(n, ast.Call):
                obj = self.static_callee(n.func)
                name = self.builtin_name(obj)
                if not (name in PURE_BUILTINS or isinstance(obj, (T.ScalarType, T.VectorType))
                        or obj in (int, float, bool)):
                    return False
        return True

    def static_callee(self, node):
        if isinstance(node, ast.Name) and node.id not in self.locals:
            found, value = _namespace_lookup(self.kdef.pyfunc, node.id)
            return value if found else None
        if isinstance(node, ast.Attribute):
            base = self.static_callee(node.value)
            return getattr(base, node.attr, None) if base is not None else None
        return None

    # -- values and types

    def describe(self, v):
        if isinstance(v, PyObj):
            o = v.obj
            if isinstance(o, KernelDef):
                return f"{o.kind} '{o.name}'"
            if isinstance(o, str):
                return f"the string {o!r}"
            if o is None:
                return "None"
            return f"{type(o).__name__} {getattr(o, '__name__', o)!r}"
        if isinstance(v, BoundInstance):
            return f"generator instance '{v.kernel.name}[...]'"
        if isinstance(v, Lit):
            return f"the constant {v.value!r}"
        if isinstance(v, Value):
            return f"{_a(v.type)} value"
        return "nothing"

    def default_type(self, lit, node):
        v = lit.value
        if isinstance(v, bool):
            return T.boolean
        if isinstance(v, int):
            return T.i32
        return T.f32

    def lit(self, v, t, node, explicit=False):
        """The constant of type `t` for literal `v`."""
        x = v.value
        if isinstance(t, T.VectorType):
            e = self.lit_value(x, t.elem, node, explicit)
            return self.const(e, t, node)
        if not isinstance(t, T.ScalarType):
            self.error(f"cannot use {x!r} as {t}", node)
        return self.const(self.lit_value(x, t, node, explicit), t, node)

    def lit_value(self, x, t, node, explicit):
        if t.kind == "bool":
            if isinstance(x, bool) or explicit:
                return bool(x)
            self.error(f"{x!r} is not a boolean (write True or False, or "
                       f"compare: x != 0)", node)
        if isinstance(x, bool) and not explicit:
            self.error(f"the boolean {x!r} cannot be used as {t}", node)
        if t.kind == "float":
            return float(x)
        if isinstance(x, float):
            if not explicit:
                self.error(f"the float constant {x!r} cannot be used as {t}; "
                           f"convert explicitly ({t}(...))", node)
            if not pymath.isfinite(x):
                self.error(f"{x!r} has no {t} value", node)
            x = int(x)
        x = int(x)
        bits = 32 if t.bits == 32 else 64
        if not -(1 << (bits - 1)) <= x < (1 << bits):
            self.error(f"the constant {x} does not fit in {t}", node)
        return x

    def zero_value(self, t, node):
        if not T.is_value_type(t):
            self.error(f"{_a(t)} variable is not defined on every path here", node)
        return self.const(False if t.kind == "bool" else 0, t, node)

    def value(self, v, t, node):
        """`v` as a Value of type `t` (literals converted; `t` None: any
        value type)."""
        if isinstance(v, Lit):
            return self.lit(v, t or self.default_type(v, node), node)
        if isinstance(v, Value):
            if t is not None and v.type != t:
                self.error(f"expected {_a(t)} value, got {v.type}", node)
            return v
        self.error(f"expected a value, got {self.describe(v)}", node)

    def unify(self, a, b, node, sym):
        """The two operands of a binary operator, of one type: a literal
        takes the other operand's type, a scalar is broadcast to a vector
        of its type, other mixes are errors."""
        for x in (a, b):
            if not isinstance(x, (Lit, Value)):
                self.error(f"`{sym}` is not defined on {self.describe(x)}", node)
            if isinstance(x, Value) and not T.is_value_type(x.type):
                self.error(f"`{sym}` is not defined on {x.type}", node)
        if isinstance(a, Lit) and isinstance(b, Lit):
            t = T.f32 if isinstance(a.value, float) or isinstance(b.value, float) \
                else self.default_type(a, node)
            return self.lit(a, t, node), self.lit(b, t, node)
        if isinstance(a, Lit):
            return self.lit(a, b.type, node), b
        if isinstance(b, Lit):
            return a, self.lit(b, a.type, node)
        if a.type == b.type:
            return a, b
        if isinstance(a.type, T.VectorType) and a.type.elem == b.type:
            return a, self.broadcast(b, a.type, node)
        if isinstance(b.type, T.VectorType) and b.type.elem == a.type:
            return self.broadcast(a, b.type, node), b
        self.error(f"operands of `{sym}` have different types: {a.type} and "
                   f"{b.type} (convert one explicitly, e.g. {b.type}(x))", node)

    def broadcast(self, s, vt, node):
        return self.emit1(lambda p: f"vector.broadcast {p.v(s)} : {s.type.mlir} to {vt.mlir}",
                          [s], vt, node)

    def truth(self, v, node):
        """A condition: booleans as they are, numbers compared with zero."""
        if isinstance(v, Lit):
            return Lit(bool(v.value))
        v = self.value(v, None, node)
        t = v.type
        if t == T.boolean:
            return v
        if isinstance(t, T.ScalarType):
            z = self.const(0, t, node)
            if t.kind == "float":
                return self.emit1(lambda p: f"arith.cmpf une, {p.v(v)}, {p.v(z)} : {t.mlir}",
                                  [v, z], T.boolean, node)
            return self.emit1(lambda p: f"arith.cmpi ne, {p.v(v)}, {p.v(z)} : {t.mlir}",
                              [v, z], T.boolean, node)
        self.error(f"{_a(t)} value is not a condition", node)

    def to_index(self, v, node):
        if isinstance(v, Lit):
            if not isinstance(v.value, int) or isinstance(v.value, bool):
                self.error(f"an index must be an integer, not {v.value!r}", node)
            return self.const(v.value, T.index, node)
        if isinstance(v, Value) and isinstance(v.type, T.ScalarType):
            if v.type == T.index:
                return v
            if v.type.is_int:
                op = "index_castui" if v.type.kind == "uint" else "index_cast"
                return self.emit1(lambda p: f"arith.{op} {p.v(v)} : {v.type.mlir} to index",
                                  [v], T.index, node)
        self.error(f"an index must be an integer, not {self.describe(v)}", node)

    def convert(self, v, t, node):
        """An explicit conversion `t(v)` between scalars or between vectors
        of one length."""
        if isinstance(v, Lit):
            return self.lit(v, t, node, explicit=True)
        v = self.value(v, None, node)
        s = v.type
        if s == t:
            return v
        if isinstance(t, T.VectorType) != isinstance(s, T.VectorType) or (
                isinstance(t, T.VectorType) and t.count != s.count):
            self.error(f"cannot convert {s} to {t}", node)
        if not T.is_value_type(s):
            self.error(f"cannot convert {s} to {t}", node)
        se, te = s.elem, t.elem
        if se.mlir == te.mlir:
            return Alias(t, v)

        def cast(name, x, src, dst):
            return self.emit1(lambda p: f"arith.{name} {p.v(x)} : {src.mlir} to {dst.mlir}",
                              [x], dst, node)

        def like(elem):
            return T.vector_type(elem, s.count) if isinstance(s, T.VectorType) else elem

        if te.kind == "bool":
            z = self.zero_value(s, node)
            pred = "arith.cmpf une" if se.kind == "float" else "arith.cmpi ne"
            return self.emit1(lambda p: f"{pred}, {p.v(v)}, {p.v(z)} : {s.mlir}",
                              [v, z], t, node)
        if se.kind == "bool":
            if te.kind == "float":
                return cast("uitofp", v, s, t)
            if te.kind == "index":
                return cast("index_castui", v, s, t)
            return cast("extui", v, s, t)
        if se.is_int and te.is_int:
            if te.kind == "index":
                return cast("index_castui" if se.kind == "uint" else "index_cast", v, s, t)
            if se.kind == "index":
                return cast("index_castui" if te.kind == "uint" else "index_cast", v, s, t)
            if te.bits > se.bits:
                return cast("extui" if se.kind == "uint" else "extsi", v, s, t)
            if te.bits < se.bits:
                return cast("trunci", v, s, t)
            return Alias(t, v)
        if se.is_int and te.is_float:
            if se.kind == "index":
                v = cast("index_cast", v, s, like(T.i64))
                s = v.type
                se = T.i64
            return cast("uitofp" if se.kind == "uint" else "sitofp", v, s, t)
        if se.is_float and te.is_int:
            if te.kind == "index":
                w = cast("fptosi", v, s, like(T.i64))
                return cast("index_cast", w, w.type, t)
            return cast("fptoui" if te.kind == "uint" else "fptosi", v, s, t)
        if se.is_float and te.is_float:
            return cast("extf" if te.bits > se.bits else "truncf", v, s, t)
        self.error(f"cannot convert {s} to {t}", node)

    # -- memory

    def indices(self, base, slice_node, node):
        shape = base.type.shape if isinstance(base.type, T.LocalArrayType) else (None,)
        elts = slice_node.elts if isinstance(slice_node, ast.Tuple) else [slice_node]
        if len(elts) != len(shape):
            self.error(f"{base.type} takes {len(shape)} "
                       f"ind{'ex' if len(shape) == 1 else 'ices'}, got {len(elts)}", node)
        return [self.to_index(self.expr(e), e) for e in elts]

    def load(self, base, idx, node):
        t = base.type
        return self.emit1(lambda p: f"memref.load {p.v(base)}[{p.vs(idx)}] : {t.mlir}",
                          [base] + idx, t.elem, node)

    def store(self, base, idx, value, node):
        t = base.type
        v = self.value(value, t.elem, node)
        self.emit(lambda p: f"memref.store {p.v(v)}, {p.v(base)}[{p.vs(idx)}] : {t.mlir}",
                  [v, base] + idx, [], node)

    def vector_extract(self, v, lane, node):
        t = v.type
        if isinstance(lane, Lit):
            k = lane.value
            if not isinstance(k, int) or not 0 <= k < t.count:
                self.error(f"lane {k!r} is out of range for {t}", node)
            return self.emit1(lambda p: f"vector.extract {p.v(v)}[{k}] : "
                                        f"{t.elem.mlir} from {t.mlir}", [v], t.elem, node)
        i = self.to_index(lane, node)
        return self.emit1(lambda p: f"vector.extract {p.v(v)}[{p.v(i)}] : "
                                    f"{t.elem.mlir} from {t.mlir}", [v, i], t.elem, node)

    def vector_insert(self, v, lane, s, node):
        t = v.type
        s = self.value(s, t.elem, node)
        if isinstance(lane, Lit):
            k = lane.value
            if not isinstance(k, int) or not 0 <= k < t.count:
                self.error(f"lane {k!r} is out of range for {t}", node)
            return self.emit1(lambda p: f"vector.insert {p.v(s)}, {p.v(v)}[{k}] : "
                                        f"{t.elem.mlir} into {t.mlir}", [s, v], t, node)
        i = self.to_index(lane, node)
        return self.emit1(lambda p: f"vector.insert {p.v(s)}, {p.v(v)}[{p.v(i)}] : "
                                    f"{t.elem.mlir} into {t.mlir}", [s, v, i], t, node)

    # -- calls

    def builtin_name(self, obj):
        name = getattr(obj, "_corogpu_builtin", None)
        if name is not None and dsl.BUILTINS.get(name) is obj:
            return name
        try:
            return PY_ALIASES.get(obj)
        except TypeError:
            return None

    def call(self, node, stmt):
        f = self.expr(node.func)
        for a in node.args:
            if isinstance(a, ast.Starred):
                self.unsupported(a)
        if isinstance(f, BoundInstance):
            self.error(f"a generator is iterated with a for loop: "
                       f"for v in {f.kernel.name}[...](...)", node)
        if not isinstance(f, PyObj):
            self.error(f"{self.describe(f)} is not callable", node)
        obj = f.obj
        name = self.builtin_name(obj)
        if name is not None:
            return getattr(self, "b_" + name)(node, stmt)
        if isinstance(obj, T.ScalarType):
            return self.b_convert(node, obj)
        if isinstance(obj, T.VectorType):
            return self.construct_vector(node, obj)
        if obj is int:
            return self.b_convert(node, T.i32)
        if obj is float:
            return self.b_convert(node, T.f32)
        if obj is bool:
            return self.b_convert(node, T.boolean)
        if isinstance(obj, KernelDef):
            return self.call_kernel(obj, node, stmt)
        if obj is builtins.range:
            self.error("range() is only supported as the iterable of a for loop", node)
        if obj is builtins.id:
            self.error("the built-in id() is not supported; did you mean "
                       "corogpu.id() (import it from corogpu)?", node)
        if obj is builtins.print:
            self.error("print() is not supported in a corogpu kernel", node)
        self.error(f"calling {self.describe(f)} is not supported in a corogpu "
                   f"kernel", node)

    def args(self, node, name, lo, hi=None, keywords=()):
        hi = lo if hi is None else hi
        for k in node.keywords:
            if k.arg not in keywords:
                self.error(f"{name}() got an unexpected keyword argument "
                           f"'{k.arg}'", k)
        if not lo <= len(node.args) <= hi:
            count = f"{lo}" if lo == hi else f"{lo} to {hi}"
            self.error(f"{name}() takes {count} argument{'s' if hi != 1 else ''}, "
                       f"got {len(node.args)}", node)
        return node.args

    def keyword(self, node, name):
        for k in node.keywords:
            if k.arg == name:
                return k.value
        return None

    def call_args(self, k, node):
        """The arguments of a call to kernel `k`, in its parameters' types."""
        params = k.params
        if node.keywords:
            self.error(f"keyword arguments are not supported in calls to "
                       f"'{k.name}'", node.keywords[0])
        if len(node.args) != len(params):
            self.error(f"'{k.name}' takes {len(params)} argument"
                       f"{'s' if len(params) != 1 else ''}, got {len(node.args)}", node)
        out = []
        for (pname, pt), a in zip(params, node.args):
            v = self.expr(a)
            if isinstance(v, Lit):
                if not T.is_value_type(pt):
                    self.error(f"argument '{pname}' of '{k.name}' is {_a(pt)}", a)
                v = self.lit(v, pt, a)
            elif not isinstance(v, Value) or v.type != pt:
                self.error(f"argument '{pname}' of '{k.name}' is {_a(pt)}, got "
                           f"{self.describe(v)}", a)
            out.append(v)
        return out

    def call_kernel(self, k, node, stmt):
        sym = self.module.symbol(k)
        if k.kind == "func":
            rt = self.module.result_type(k, self)
            args = self.call_args(k, node)
            types = ", ".join(t.mlir for _, t in k.params)
            if rt is None:
                if not stmt:
                    self.error(f"function '{k.name}' returns no value", node)
                self.emit(lambda p: f"func.call @{sym}({p.vs(args)}) : ({types}) -> ()",
                          args, [], node)
                return None
            return self.emit1(lambda p: f"func.call @{sym}({p.vs(args)}) : ({types}) -> {rt.mlir}",
                              args, rt, node)
        if not stmt:
            if k.is_generator:
                self.error(f"generator '{k.name}' is iterated with a for loop: "
                           f"for v in {k.name}(...)", node)
            self.error(f"coroutine '{k.name}' returns no value; call it as a "
                       f"statement to await it", node)
        if k.is_generator:
            self.error(f"a generator cannot be awaited (its values would be "
                       f"lost); iterate it: for v in {k.name}(...)", node)
        if not self.is_coro:
            self.error(f"coroutine '{k.name}' can only be awaited from a "
                       f"@coroutine, not from a @func", node)
        args = self.call_args(k, node)
        types = ", ".join(t.mlir for _, t in k.params)
        self.emit(lambda p: f"coro.await @{sym}({p.vs(args)}) : ({types}) -> ()",
                  args, [], node)
        return None

    def need_coro(self, node, what):
        if not self.is_coro:
            self.error(f"{what}() can only be used in a @coroutine, not in a "
                       f"@func (it would suspend a callable)", node)

    def str_arg(self, a, what):
        v = self.expr(a)
        if not (isinstance(v, PyObj) and isinstance(v.obj, str)):
            self.error(f"{what} must be a string constant", a)
        return v.obj

    def kernel_arg(self, a, what):
        v = self.expr(a)
        if not (isinstance(v, PyObj) and isinstance(v.obj, KernelDef)
                and v.obj.kind == "coroutine"):
            self.error(f"{what} must be a @coroutine", a)
        return v.obj

    def handle_arg(self, a):
        v = self.expr(a)
        if not (isinstance(v, Value) and isinstance(v.type, T.HandleType)):
            self.error(f"expected a handle (from create() or load_handle()), "
                       f"got {self.describe(v)}", a)
        return v

    # coroutine builtins

    def b_id(self, node, stmt):
        """coro.id, once per function, at the top of its entry block (it
        is the same everywhere)."""
        args = self.args(node, "id", 0, 1)
        dim = None
        if args:
            d = self.expr(args[0])
            if not (isinstance(d, Lit) and d.value in (0, 1, 2)) or isinstance(d.value, bool):
                self.error("id() takes a constant dimension 0, 1 or 2", args[0])
            dim = d.value
        if dim not in self.ids:
            text = "coro.id : index" if dim is None else f"coro.id {dim} : index"
            op = Op(lambda p: text, [], [T.index], self.loc(node))
            op.block = self.fn.entry
            self.fn.entry.ops.insert(len(self.ids), op)
            self.ids[dim] = op.result
        return self.ids[dim]

    def b_suspend(self, node, stmt):
        args = self.args(node, "suspend", 0, 1)
        self.need_coro(node, "suspend")
        if args:
            tag = escape(self.str_arg(args[0], "the tag of suspend()"))
            self.emit(lambda p: f'coro.suspend "{tag}"', [], [], node)
        else:
            self.emit(lambda p: "coro.suspend", [], [], node)

    def b_promise(self, node, stmt):
        a = self.args(node, "promise", 2)
        self.need_coro(node, "promise")
        name = escape(self.str_arg(a[0], "the name of a promise"))
        v = self.value(self.expr(a[1]), None, a[1])
        if not T.is_value_type(v.type):
            self.error(f"a promise holds a scalar or a vector, not {v.type}", a[1])
        self.emit(lambda p: f'coro.promise "{name}", {p.v(v)} : {v.type.mlir}', [v], [], node)

    # handles

    def handle_type(self, k):
        return T.HandleType(k, self.module.symbol(k))

    def b_create(self, node, stmt):
        a = self.args(node, "create", 2)
        k = self.kernel_arg(a[0], "the first argument of create()")
        i = self.to_index(self.expr(a[1]), a[1])
        ht = self.handle_type(k)
        return self.emit1(lambda p: f"coro.handle.create @{ht.symbol}[{p.v(i)}] : {ht.mlir}",
                          [i], ht, node)

    def b_resume(self, node, stmt):
        if not node.args:
            self.error("resume() takes a handle and the coroutine's arguments", node)
        self.args(node, "resume", 1, len(node.args), keywords=("at", "token"))
        h = self.handle_arg(node.args[0])
        k = h.type.kernel
        fake = ast.Call(func=node.func, args=node.args[1:], keywords=[])
        ast.copy_location(fake, node)
        args = self.call_args(k, fake)
        at, tok = self.keyword(node, "at"), self.keyword(node, "token")
        if at is not None and tok is not None:
            self.error("resume() takes `at` or `token`, not both", node)
        sel = ""
        ops = [h]
        if at is not None:
            sel = f' at "{escape(self.str_arg(at, "`at`"))}"'
        if tok is not None:
            tv = self.value(self.expr(tok), T.i32, tok)
            ops.append(tv)
        types = ", ".join(t.mlir for _, t in k.params)
        ht = h.type

        def fmt(p):
            s = f"[{p.v(ops[1])}]" if tok is not None else ""
            return (f"coro.handle.resume {p.v(h)}{s}{sel}({p.vs(args)}) : "
                    f"{ht.mlir}, ({types}) -> ()")

        self.emit(fmt, ops + args, [], node)

    def _handle_query(self, node, name, op, rt):
        a = self.args(node, name, 1)
        h = self.handle_arg(a[0])
        return self.emit1(lambda p: f"coro.handle.{op} {p.v(h)} : {h.type.mlir}",
                          [h], rt, node)

    def b_done(self, node, stmt):
        return self._handle_query(node, "done", "done", T.boolean)

    def b_target(self, node, stmt):
        return self._handle_query(node, "target", "target", T.i32)

    def b_handle_id(self, node, stmt):
        return self._handle_query(node, "handle_id", "id", T.index)

    def b_handle_promise(self, node, stmt):
        a = self.args(node, "handle_promise", 3)
        h = self.handle_arg(a[0])
        name = escape(self.str_arg(a[1], "the promise name"))
        t = self.expr(a[2])
        if not (isinstance(t, PyObj) and T.is_value_type(t.obj)):
            self.error("the third argument of handle_promise() is the field's "
                       "type (i32, f32, ...)", a[2])
        t = t.obj
        return self.emit1(lambda p: f'coro.handle.promise {p.v(h)}["{name}"] : '
                                    f'{h.type.mlir} -> {t.mlir}', [h], t, node)

    def _frames(self, a):
        v = self.expr(a)
        if not (isinstance(v, Value) and isinstance(v.type, T.BufferType)
                and v.type.elem.mlir == "i32"):
            self.error("a buffer of frames is a Buffer[i32] (or Buffer[u32])", a)
        return v

    def _aos(self, node):
        a = self.keyword(node, "aos")
        if a is None:
            return False
        v = self.expr(a)
        if not isinstance(v, Lit):
            self.error("`aos` must be a constant", a)
        return bool(v.value)

    def b_store_handle(self, node, stmt):
        a = self.args(node, "store_handle", 4, keywords=("aos",))
        h = self.handle_arg(a[0])
        buf = self._frames(a[1])
        i = self.to_index(self.expr(a[2]), a[2])
        n = self.to_index(self.expr(a[3]), a[3])
        aos = " aos" if self._aos(node) else ""
        self.emit(lambda p: f"coro.handle.store {p.v(h)}, {p.v(buf)}[{p.v(i)}] of "
                            f"{p.v(n)}{aos} : {h.type.mlir}, {buf.type.mlir}",
                  [h, buf, i, n], [], node)

    def b_load_handle(self, node, stmt):
        a = self.args(node, "load_handle", 4, keywords=("aos",))
        k = self.kernel_arg(a[0], "the first argument of load_handle()")
        buf = self._frames(a[1])
        i = self.to_index(self.expr(a[2]), a[2])
        n = self.to_index(self.expr(a[3]), a[3])
        aos = " aos" if self._aos(node) else ""
        ht = self.handle_type(k)
        return self.emit1(lambda p: f"coro.handle.load @{ht.symbol} {p.v(buf)}[{p.v(i)}] "
                                    f"of {p.v(n)}{aos} : {buf.type.mlir} -> {ht.mlir}",
                          [buf, i, n], ht, node)

    def b_frame_words(self, node, stmt):
        a = self.args(node, "frame_words", 1)
        k = self.kernel_arg(a[0], "the argument of frame_words()")
        sym = self.module.symbol(k)
        return self.emit1(lambda p: f"coro.handle.frame_words @{sym} : index",
                          [], T.index, node)

    # memory

    def b_local_array(self, node, stmt):
        a = self.args(node, "local_array", 2, keywords=("fill",))
        t = self.expr(a[0])
        if not (isinstance(t, PyObj) and T.is_value_type(t.obj)):
            self.error("the first argument of local_array() is the element "
                       "type (i32, f32, float3, ...)", a[0])
        try:
            shape = _static_eval(self.kdef, a[1]) if not isinstance(a[1], ast.Name) \
                or a[1].id not in self.locals else None
        except CompileError:
            shape = None
        if isinstance(shape, int) and not isinstance(shape, bool):
            shape = (shape,)
        if not (isinstance(shape, tuple) and shape and
                all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape)):
            self.error("the shape of local_array() must be a positive integer "
                       "constant or a tuple of them", a[1])
        at = T.local_array_type(t.obj, shape)
        arr = self.emit1(lambda p: f"memref.alloca() : {at.mlir}", [], at, node)
        fill = self.keyword(node, "fill")
        fill = self.expr(fill) if fill is not None else Lit(0)
        if not (isinstance(fill, PyObj) and fill.obj is None):
            self.fill_array(arr, self.value(fill, at.elem, node), node)
        return arr

    def fill_array(self, arr, value, node):
        """Stores `value` into every element of a local array: an scf.for
        nest (the body has no control flow, so no CFG is needed)."""
        at = arr.type
        c0 = self.const(0, T.index, node)
        c1 = self.const(1, T.index, node)
        bounds = [self.const(d, T.index, node) for d in at.shape]
        outer = self.block
        region = None
        ivs = []
        for depth, ub in enumerate(bounds):
            r = Region()
            b = r.new_block()
            b.sealed = True
            iv = b.add_arg(T.index, None, None, "k")
            ivs.append(iv)
            op = Op(None, [c0, ub, c1], (), self.loc(node))
            op.regions = [r]
            op.fmt = (lambda iv, ub, r: lambda p:
                      f"scf.for {p.v(iv)} = {p.v(c0)} to {p.v(ub)} step {p.v(c1)} "
                      f"{p.nested(r)}")(iv, ub, r)
            self.block.append(op)
            if region is not None:
                self.block.term = Op(lambda p: "scf.yield", (), (), self.loc(node))
            self.block = b
            region = r
        idx = list(ivs)
        self.emit(lambda p: f"memref.store {p.v(value)}, {p.v(arr)}[{p.vs(idx)}] : {at.mlir}",
                  [value, arr] + idx, [], node)
        self.block.term = Op(lambda p: "scf.yield", (), (), self.loc(node))
        self.block = outer

    def _atomic(self, node, name, kinds):
        a = self.args(node, name, 3)
        buf = self.expr(a[0])
        if not (isinstance(buf, Value) and isinstance(buf.type, (T.BufferType, T.LocalArrayType))):
            self.error(f"the first argument of {name}() is a buffer", a[0])
        idx = self.indices(buf, a[1], a[1])
        t = buf.type.elem
        v = self.value(self.expr(a[2]), t, a[2])
        kind = kinds.get(t.kind)
        if kind is None:
            self.error(f"{name}() is not defined on {t} buffers", node)
        bt = buf.type
        return self.emit1(lambda p: f"memref.atomic_rmw {kind} {p.v(v)}, {p.v(buf)}"
                                    f"[{p.vs(idx)}] : ({t.mlir}, {bt.mlir}) -> {t.mlir}",
                          [v, buf] + idx, t, node)

    def b_atomic_add(self, node, stmt):
        return self._atomic(node, "atomic_add", {"sint": "addi", "uint": "addi",
                                                 "float": "addf"})

    def b_atomic_min(self, node, stmt):
        return self._atomic(node, "atomic_min", {"sint": "mins", "uint": "minu",
                                                 "float": "minimumf"})

    def b_atomic_max(self, node, stmt):
        return self._atomic(node, "atomic_max", {"sint": "maxs", "uint": "maxu",
                                                 "float": "maximumf"})

    def b_atomic_exchange(self, node, stmt):
        return self._atomic(node, "atomic_exchange", {"sint": "assign", "uint": "assign",
                                                      "float": "assign"})

    def b_atomic_and(self, node, stmt):
        return self._atomic(node, "atomic_and", {"sint": "andi", "uint": "andi"})

    def b_atomic_or(self, node, stmt):
        return self._atomic(node, "atomic_or", {"sint": "ori", "uint": "ori"})

    def b_len(self, node, stmt):
        a = self.args(node, "len", 1)
        buf = self.expr(a[0])
        if isinstance(buf, Value) and isinstance(buf.type, T.LocalArrayType):
            return Lit(buf.type.shape[0])
        if isinstance(buf, Value) and isinstance(buf.type, T.VectorType):
            return Lit(buf.type.count)
        if isinstance(buf, Value) and isinstance(buf.type, T.BufferType):
            # memref.dim would do, but the SPIR-V pipeline cannot lower it.
            self.error("len() of a buffer is not supported (the Vulkan "
                       "pipeline cannot lower memref.dim); pass the length "
                       "as an argument", node)
        self.error(f"len() of {self.describe(buf)}", a[0])

    # conversions and vectors

    def b_convert(self, node, t):
        a = self.args(node, t.name, 1)
        return self.convert(self.expr(a[0]), t, a[0])

    def construct_vector(self, node, vt):
        if node.keywords:
            self.error(f"{vt.name}() takes no keyword arguments", node.keywords[0])
        if not node.args:
            self.error(f"{vt.name}() takes 1 or {vt.count} components", node)
        vals = [self.expr(a) for a in node.args]
        if len(vals) == 1:
            v = vals[0]
            if isinstance(v, Lit):
                return self.lit(v, vt, node.args[0], explicit=True)
            if isinstance(v, Value) and isinstance(v.type, T.VectorType):
                return self.convert(v, vt, node.args[0])
            s = self.convert(v, vt.elem, node.args[0])
            return self.broadcast(s, vt, node)
        comps = []
        for v, a in zip(vals, node.args):
            if isinstance(v, Value) and isinstance(v.type, T.VectorType):
                for k in range(v.type.count):
                    comps.append(self.convert(self.vector_extract(v, Lit(k), a), vt.elem, a))
            elif isinstance(v, Lit):
                comps.append(Lit(self.lit_value(v.value, vt.elem, a, True)))
            else:
                comps.append(self.convert(v, vt.elem, a))
        if len(comps) != vt.count:
            self.error(f"{vt.name}() takes {vt.count} components, got {len(comps)}", node)
        if all(isinstance(c, Lit) for c in comps):
            return self.const([c.value for c in comps], vt, node)
        comps = [self.lit(c, vt.elem, node, explicit=True) if isinstance(c, Lit) else c
                 for c in comps]
        return self.emit1(lambda p: f"vector.from_elements {p.vs(comps)} : {vt.mlir}",
                          comps, vt, node)

    # math

    def _float_arg(self, node, a, name):
        v = self.expr(a)
        if isinstance(v, Lit):
            v = self.lit(v, T.f32, a)
        v = self.value(v, None, a)
        if not (T.is_value_type(v.type) and v.type.kind == "float"):
            self.error(f"{name}() takes a float (f16, f32, f64) or a float "
                       f"vector, not {v.type} (convert with f32(x))", a)
        return v

    def _unary_math(self, node, name, op):
        a = self.args(node, name, 1)
        x = self._float_arg(node, a[0], name)
        return self.emit1(lambda p: f"math.{op} {p.v(x)} : {x.type.mlir}", [x], x.type, node)

    def b_sqrt(self, node, stmt):
        return self._unary_math(node, "sqrt", "sqrt")

    def b_rsqrt(self, node, stmt):
        return self._unary_math(node, "rsqrt", "rsqrt")

    def b_exp(self, node, stmt):
        return self._unary_math(node, "exp", "exp")

    def b_exp2(self, node, stmt):
        # exp(x ln 2): the SPIR-V pipeline has no lowering of math.exp2
        # (upstream's MathToSPIRV lacks it).
        a = self.args(node, "exp2", 1)
        x = self._float_arg(node, a[0], "exp2")
        t = x.type
        ln2 = self.const(pymath.log(2.0), t, node)
        y = self.emit1(lambda p: f"arith.mulf {p.v(x)}, {p.v(ln2)} : {t.mlir}",
                       [x, ln2], t, node)
        return self.emit1(lambda p: f"math.exp {p.v(y)} : {t.mlir}", [y], t, node)

    def b_log(self, node, stmt):
        return self._unary_math(node, "log", "log")

    def b_log2(self, node, stmt):
        return self._unary_math(node, "log2", "log2")

    def b_sin(self, node, stmt):
        return self._unary_math(node, "sin", "sin")

    def b_cos(self, node, stmt):
        return self._unary_math(node, "cos", "cos")

    def b_tan(self, node, stmt):
        return self._unary_math(node, "tan", "tan")

    def b_floor(self, node, stmt):
        return self._unary_math(node, "floor", "floor")

    def b_ceil(self, node, stmt):
        return self._unary_math(node, "ceil", "ceil")

    def b_fract(self, node, stmt):
        a = self.args(node, "fract", 1)
        x = self._float_arg(node, a[0], "fract")
        fl = self.emit1(lambda p: f"math.floor {p.v(x)} : {x.type.mlir}", [x], x.type, node)
        return self.emit1(lambda p: f"arith.subf {p.v(x)}, {p.v(fl)} : {x.type.mlir}",
                          [x, fl], x.type, node)

    def _binary_float(self, node, name, op):
        a = self.args(node, name, 2)
        x, y = self.unify(self.expr(a[0]), self.expr(a[1]), node, name + "()")
        if isinstance(x, Lit):
            x, y = self.unify(self.lit(x, T.f32, a[0]), y, node, name + "()")
        if x.type.kind != "float":
            self.error(f"{name}() takes floats, not {x.type}", node)
        return self.emit1(lambda p: f"math.{op} {p.v(x)}, {p.v(y)} : {x.type.mlir}",
                          [x, y], x.type, node)

    def b_atan2(self, node, stmt):
        """atan(y / x) corrected by quadrant with selects: the SPIR-V
        pipeline has no lowering of math.atan2 (upstream's MathToSPIRV
        lacks it), but has one of math.atan."""
        a = self.args(node, "atan2", 2)
        y, x = self.unify(self.expr(a[0]), self.expr(a[1]), node, "atan2()")
        if isinstance(y, Lit):
            y, x = self.unify(self.lit(y, T.f32, a[0]), x, node, "atan2()")
        t = y.type
        if t.kind != "float":
            self.error(f"atan2() takes floats, not {t}", node)
        m = t.mlir
        bt = _bool_vector(t)

        def ar(op, u, v, rt=t):
            return self.emit1(lambda p: f"{op} {p.v(u)}, {p.v(v)} : {m}", [u, v], rt, node)

        def sel(c, u, v):
            return self.emit1(lambda p: f"arith.select {p.v(c)}, {p.v(u)}, {p.v(v)} : "
                                        f"{bt.mlir + ', ' if isinstance(t, T.VectorType) else ''}{m}",
                              [c, u, v], t, node)

        q = ar("arith.divf", y, x)
        at = self.emit1(lambda p: f"math.atan {p.v(q)} : {m}", [q], t, node)
        zero = self.zero_value(t, node)
        pi, half = self.const(pymath.pi, t, node), self.const(pymath.pi / 2, t, node)
        npi, nhalf = self.const(-pymath.pi, t, node), self.const(-pymath.pi / 2, t, node)
        xneg = ar("arith.cmpf olt,", x, zero, bt)
        yneg = ar("arith.cmpf olt,", y, zero, bt)
        xzero = ar("arith.cmpf oeq,", x, zero, bt)
        yzero = ar("arith.cmpf oeq,", y, zero, bt)
        shifted = ar("arith.addf", at, sel(yneg, npi, pi))
        r = sel(xneg, shifted, at)
        axis = sel(yzero, zero, sel(yneg, nhalf, half))
        return sel(xzero, axis, r)

    def b_pow(self, node, stmt):
        return self._binary_float(node, "pow", "powf")

    def b_fma(self, node, stmt):
        a = self.args(node, "fma", 3)
        vals = [self.expr(x) for x in a]
        typed = [v for v in vals if isinstance(v, Value)]
        t = typed[0].type if typed else T.f32
        for v, n in zip(vals, a):
            if isinstance(v, Value) and v.type != t:
                self.error(f"fma() operands have different types: {t} and {v.type}", n)
        vals = [self.value(v, t, n) for v, n in zip(vals, a)]
        if t.kind != "float":
            self.error(f"fma() takes floats, not {t}", node)
        return self.emit1(lambda p: f"math.fma {p.vs(vals)} : {t.mlir}", vals, t, node)

    def b_abs(self, node, stmt):
        a = self.args(node, "abs", 1)
        v = self.expr(a[0])
        if isinstance(v, Lit):
            return Lit(builtins.abs(v.value))
        v = self.value(v, None, a[0])
        t = v.type
        if not T.is_value_type(t) or t.kind == "bool":
            self.error(f"abs() of {t}", a[0])
        if t.kind == "uint":
            return v
        op = "math.absf" if t.kind == "float" else "math.absi"
        return self.emit1(lambda p: f"{op} {p.v(v)} : {t.mlir}", [v], t, node)

    def _minmax(self, node, name, is_min):
        if len(node.args) < 2 or node.keywords:
            self.error(f"{name}() takes two or more arguments", node)
        result = self.expr(node.args[0])
        for a in node.args[1:]:
            b = self.expr(a)
            if isinstance(result, Lit) and isinstance(b, Lit):
                result = Lit(builtins.min(result.value, b.value) if is_min
                             else builtins.max(result.value, b.value))
                continue
            x, y = self.unify(result, b, node, name + "()")
            k = x.type.kind
            if k == "bool":
                self.error(f"{name}() of booleans", node)
            op = {"float": "minimumf" if is_min else "maximumf",
                  "uint": "minui" if is_min else "maxui"}.get(
                k, "minsi" if is_min else "maxsi")
            t = x.type
            result = self.emit1(lambda p, x=x, y=y: f"arith.{op} {p.v(x)}, {p.v(y)} : {t.mlir}",
                                [x, y], t, node)
        return result

    def b_min(self, node, stmt):
        return self._minmax(node, "min", True)

    def b_max(self, node, stmt):
        return self._minmax(node, "max", False)

    def b_clamp(self, node, stmt):
        a = self.args(node, "clamp", 3)
        lo_node = ast.Call(func=node.func, args=[a[0], a[1]], keywords=[])
        ast.copy_location(lo_node, node)
        x = self._minmax(lo_node, "clamp", False)
        hi = self.expr(a[2])
        x, hi = self.unify(x, hi, node, "clamp()") if not (isinstance(x, Lit) and isinstance(hi, Lit)) else (x, hi)
        if isinstance(x, Lit):
            return Lit(builtins.min(x.value, hi.value))
        k = x.type.kind
        op = {"float": "minimumf", "uint": "minui"}.get(k, "minsi")
        t = x.type
        return self.emit1(lambda p: f"arith.{op} {p.v(x)}, {p.v(hi)} : {t.mlir}",
                          [x, hi], t, node)

    def b_select(self, node, stmt):
        a = self.args(node, "select", 3)
        c = self.truth(self.expr(a[0]), a[0])
        x, y = self.expr(a[1]), self.expr(a[2])
        if isinstance(x, Lit) and isinstance(y, Lit):
            t = T.f32 if isinstance(y.value, float) else self.default_type(x, a[1])
            x = self.lit(x, t, a[1])
        x, y = self.unify(x, y, node, "select()")
        if isinstance(c, Lit):
            return x if c.value else y
        return self.select(c, x, y, node)

    def _vec_args(self, node, name, n):
        a = self.args(node, name, n)
        vals = [self.value(self.expr(x), None, x) for x in a]
        for v, x in zip(vals, a):
            if not isinstance(v.type, T.VectorType):
                self.error(f"{name}() takes vectors, not {v.type}", x)
            if v.type != vals[0].type:
                self.error(f"{name}() operands have different types: "
                           f"{vals[0].type} and {v.type}", x)
        return vals

    def _dot(self, x, y, node):
        t = x.type
        f = t.kind == "float"
        m = self.emit1(lambda p: f"arith.{'mulf' if f else 'muli'} {p.v(x)}, {p.v(y)} : {t.mlir}",
                       [x, y], t, node)
        return self.emit1(lambda p: f"vector.reduction <add>, {p.v(m)} : {t.mlir} "
                                    f"into {t.elem.mlir}", [m], t.elem, node)

    def b_dot(self, node, stmt):
        x, y = self._vec_args(node, "dot", 2)
        return self._dot(x, y, node)

    def b_length(self, node, stmt):
        (x,) = self._vec_args(node, "length", 1)
        if x.type.kind != "float":
            self.error(f"length() takes float vectors, not {x.type}", node)
        d = self._dot(x, x, node)
        return self.emit1(lambda p: f"math.sqrt {p.v(d)} : {d.type.mlir}", [d], d.type, node)

    def b_normalize(self, node, stmt):
        (x,) = self._vec_args(node, "normalize", 1)
        if x.type.kind != "float":
            self.error(f"normalize() takes float vectors, not {x.type}", node)
        d = self._dot(x, x, node)
        r = self.emit1(lambda p: f"math.rsqrt {p.v(d)} : {d.type.mlir}", [d], d.type, node)
        rb = self.broadcast(r, x.type, node)
        return self.emit1(lambda p: f"arith.mulf {p.v(x)}, {p.v(rb)} : {x.type.mlir}",
                          [x, rb], x.type, node)

    def b_cross(self, node, stmt):
        x, y = self._vec_args(node, "cross", 2)
        t = x.type
        if t.count != 3:
            self.error(f"cross() takes 3-vectors, not {t}", node)
        f = t.kind == "float"

        def sh(v, lanes):
            return self.emit1(lambda p: f"vector.shuffle {p.v(v)}, {p.v(v)} [{lanes}] : "
                                        f"{t.mlir}, {t.mlir}", [v], t, node)

        def ar(op, a, b):
            return self.emit1(lambda p: f"arith.{op}{'f' if f else 'i'} {p.v(a)}, {p.v(b)} : "
                                        f"{t.mlir}", [a, b], t, node)

        l = ar("mul", sh(x, "1, 2, 0"), sh(y, "2, 0, 1"))
        r = ar("mul", sh(x, "2, 0, 1"), sh(y, "1, 2, 0"))
        return ar("sub", l, r)

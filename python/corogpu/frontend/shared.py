# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the translator's parts share: compile-time values (Python numbers
and objects before they get a type), the operator and unsupported-construct
tables, MLIR constant text, syntactic scans and compile-time evaluation of
names."""

import ast
import builtins
import math as pymath
import re

from . import types as T
from .errors import CompileError


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

class Loop:
    def __init__(self, kind, brk=None, cont=None, go=None, ret=None):
        self.kind = kind       # "cfg" or "foreach"
        self.brk = brk         # cfg: blocks; foreach: brk is the region's exit
        self.cont = cont
        self.go = go           # foreach: hidden variables
        self.ret = ret



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

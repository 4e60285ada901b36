# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Values and their types: what a compile-time value is called in errors,
the type a literal takes and whether it fits, unification of two operands,
broadcast, truth, indices, conversions, and memory and vector lane
accesses.

A mixin of translate.FunctionTranslator."""

import ast
import math as pymath

from . import types as T
from .ir import Alias, Value
from .kernel import KernelDef
from .shared import BoundInstance, Lit, PyObj, _a


class ValueTranslator:
    """Typing rules, conversions and accesses of values."""

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
        if explicit:
            # A conversion of a constant, `u32(-1)`, `i32(0xFFFFFFFF)`,
            # takes any value of either signedness and wraps it, as the
            # conversion of a variable would (const_text writes the bits).
            lo, hi = -(1 << (bits - 1)), 1 << bits
        elif t.kind == "uint":
            lo, hi = 0, 1 << bits
        else:
            lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)
        if not lo <= x < hi:
            self.error(f"the constant {x} does not fit in {t} (from {lo} to "
                       f"{hi - 1}){self.wider(x, t)}", node)
        return x

    def wider(self, x, t):
        """What to write for the literal `x` that does not fit in `t`."""
        fits = [u for u in (T.i32, T.u32, T.i64) if u != t and
                (0 if u.kind == "uint" else -(1 << (u.bits - 1))) <= x <
                (1 << u.bits if u.kind == "uint" else 1 << (u.bits - 1))]
        ways = []
        if fits:
            ways.append(" or ".join(f"{u}({x})" for u in fits) +
                        " (with the other operands of that type)")
        if t.bits == 32 and -(1 << 31) <= x < (1 << 32):
            ways.append(f"{t}({x}) to wrap it")
        if not ways:
            return "; it fits no integer type of corogpu"
        return "; write " + ", or ".join(ways)

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
            return self.const(self.lit_value(v.value, T.index, node, False), T.index, node)
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

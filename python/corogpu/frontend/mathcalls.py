# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The math functions kernels call (dsl.py): `math` dialect ops on floats
and vectors of floats, min/max/abs/clamp/select on integers too, and the
vector functions dot, cross, normalize and length.

A mixin of translate.FunctionTranslator, called by calls.CallTranslator's
dispatch (`b_<name>`)."""

import ast
import builtins
import math as pymath

from . import types as T
from .ir import Value
from .shared import Lit, _bool_vector


class MathCallTranslator:
    """The math functions of dsl.py."""

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
        # exp(x ln 2), written before the SPIR-V pipeline lowered math.exp2
        # (coro-spirv-convert-gpu does now); kept so that results stay as
        # they were.
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
        """atan(y / x) corrected by quadrant with selects, written before
        the SPIR-V pipeline lowered math.atan2 (coro-spirv-expand-math does
        now, for f16 and f32); kept so that results stay as they were."""
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

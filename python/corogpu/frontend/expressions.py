# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Expressions: constants, names, attributes and swizzles, subscripts,
operators, comparisons, `and`/`or` and conditional expressions, and which
expressions are pure (may be evaluated when not chosen); their typing
rules and conversions are values.py's.

A mixin of translate.FunctionTranslator."""

import ast
import numbers

from . import types as T
from .ir import Value
from .kernel import KernelDef
from .shared import (BoundInstance, CMP_FLOAT, CMP_INT, Lit, OP_SYMBOL,
                     PURE_BUILTINS, PyObj, SWIZZLE, _bool_vector,
                     _namespace_lookup)


class ExpressionTranslator:
    """Expressions: constants, names, attributes and swizzles, subscripts,"""

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
        """A comparison, or a chain `a < b < c` (`a < b and b < c`, with
        `b` evaluated once). A chain whose later operands are without side
        effects compares all (arith.andi); otherwise it short-circuits
        through branches, as in Python: `c` is evaluated only where
        `a < b`."""
        left = self.expr(node.left)
        if all(self.pure(c) for c in node.comparators[1:]):
            result = None
            for op, right_node in zip(node.ops, node.comparators):
                right = self.expr(right_node)
                c = self.compare(op, left, right, node)
                result = c if result is None else self.logic(result, c, True, node)
                left = right
            return result
        def links(left):
            for k, (op, right_node) in enumerate(zip(node.ops,
                                                     node.comparators)):
                right = self.expr(right_node)
                following = node.comparators[k + 1] \
                    if k + 1 < len(node.ops) else None
                yield self.compare(op, left, right, node), node, following
                left = right

        return self.short_circuit(node, links(left), len(node.ops), True)

    def short_circuit(self, node, links, count, is_and):
        """The `count` truth values `links` yields joined by `and` (is_and)
        or `or` as Python evaluates them: a value that decides ends the
        evaluation, branching to the join. `links` is a generator, so each
        value is computed in the block the previous one branched to; it
        yields (value or Lit, the node of its constant and branch, the node
        of the block that computes the next)."""
        h = self.hidden_var(T.boolean, "cond")
        merge = None
        for k, (t, at, following) in enumerate(links):
            last = k == count - 1
            if isinstance(t, Lit):
                if bool(t.value) == is_and and not last:
                    continue        # `True and x`, `False or x`: x decides
                # A literal that decides (or the last value): the result.
                self.ssa.write(h, self.block,
                               self.const(bool(t.value), T.boolean, at))
                break
            self.ssa.write(h, self.block, t)
            if last:
                break
            if merge is None:
                merge = self.new_block(node)
            nxt = self.new_block(following)
            if is_and:
                self.cond_br(t, nxt, merge, at)
            else:
                self.cond_br(t, merge, nxt, at)
            self.ssa.seal(nxt)
            self.block = nxt
        if merge is None:
            return self.ssa.read(h, self.block)
        self.br(merge, node)
        self.ssa.seal(merge)
        self.block = merge
        return self.ssa.read(h, merge)

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
        links = ((self.truth(self.expr(v), v), v, v) for v in node.values)
        return self.short_circuit(node, links, len(node.values), is_and)

    def expr_IfExp(self, node):
        c = self.truth(self.expr(node.test), node.test)
        if isinstance(c, Lit):
            return self.expr(node.body if c.value else node.orelse)
        if self.pure(node.body, selected=True) and self.pure(node.orelse, selected=True):
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

    def pure(self, node, selected=False):
        """Whether evaluating `node` where Python would not has no side
        effects and cannot fault: no calls but pure builtins, no memory
        reads, no integer `//` or `%` but by a constant other than 0 and
        -1 (a division by zero, or the overflow of the least value by -1,
        is undefined behaviour). A shift by a variable amount (poison when
        the amount is not less than the width) is pure only where the
        value is `selected` (arith.select, which passes the chosen operand
        only), not where it is combined by arith.andi/ori."""
        for n in ast.walk(node):
            if isinstance(n, (ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Await)):
                return False
            if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod)):
                d = self.static_number(n.right)
                safe = isinstance(d, (int, float)) and d not in (0, -1)
                if not (safe or self.static_float(n)):
                    return False
            if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.LShift, ast.RShift)) \
                    and not selected:
                d = self.static_number(n.right)
                if not (isinstance(d, int) and 0 <= d < 32):
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

    def static_number(self, node):
        """The value of `node` when it is a number known before the
        translation (a constant, a negated one, a number of the kernel's
        scope), else None."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.static_number(node.operand)
            return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
        v = node.value if isinstance(node, ast.Constant) else self.static_callee(node)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return v
        return None

    def static_float(self, node):
        """Whether `node` is known to be of a float type (scalar or vector)
        before it is translated: a float constant, a float variable, a
        conversion to a float type, an element of a float buffer, or an
        operation on one of them; False when unknown."""
        number = self.static_number(node)
        if number is not None:
            return isinstance(number, float)
        if isinstance(node, ast.Name):
            t = self.var_types.get(node.id) if node.id in self.locals else None
            if isinstance(t, (T.BufferType, T.LocalArrayType)):
                t = t.elem
            return isinstance(t, (T.ScalarType, T.VectorType)) and t.kind == "float"
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, (ast.LShift, ast.RShift, ast.BitAnd,
                                    ast.BitOr, ast.BitXor)):
                return False
            return self.static_float(node.left) or self.static_float(node.right)
        if isinstance(node, ast.UnaryOp):
            return self.static_float(node.operand)
        if isinstance(node, ast.IfExp):
            return self.static_float(node.body) or self.static_float(node.orelse)
        if isinstance(node, ast.Subscript):
            return self.static_float(node.value)
        if isinstance(node, ast.Call):
            obj = self.static_callee(node.func)
            if isinstance(obj, (T.ScalarType, T.VectorType)):
                return obj.kind == "float"
            if obj is float:
                return True
            if self.builtin_name(obj) in ("min", "max", "abs", "clamp", "fma",
                                          "floor", "ceil", "fract", "sqrt"):
                return any(self.static_float(a) for a in node.args)
            return False
        if isinstance(node, ast.Attribute):        # a swizzle of a float vector
            return self.static_float(node.value)
        return False

    def static_callee(self, node):
        if isinstance(node, ast.Name) and node.id not in self.locals:
            found, value = _namespace_lookup(self.kdef.pyfunc, node.id)
            return value if found else None
        if isinstance(node, ast.Attribute):
            base = self.static_callee(node.value)
            return getattr(base, node.attr, None) if base is not None else None
        return None

    # -- values and types

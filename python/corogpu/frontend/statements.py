# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Statements: assignments, if/while/for (ranges and generator loops),
break, continue, return and yield, as CFG blocks with block arguments.

A mixin of translate.FunctionTranslator, whose core (blocks, variables,
emit) it uses."""

import ast
import builtins

from . import types as T
from .ir import Alias, Op, Region, Undef, Value
from .kernel import KernelDef
from .shared import (BoundInstance, Lit, Loop, PyObj, _static_eval,
                     assigned_names, contains_return)


class StatementTranslator:
    """Statements: assignments, if/while/for (ranges and generator loops),"""

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
        self.lit_value(step.value, t, call.args[2] if len(call.args) == 3 else call, False)
        # The counter must not wrap past the end of its type: a step of
        # more than 1 may, when no constant `stop` keeps it below the top
        # (above the bottom when counting down), and then the latch
        # stops the loop where `counter + step` wrapped.
        bits = 32 if t.bits == 32 or t.kind == "index" else 64   # index: 32 on SPIR-V
        top = (1 << bits) - 1 if t.kind == "uint" else (1 << (bits - 1)) - 1
        bottom = -(1 << (bits - 1))
        if step.value > 0:
            may_wrap = step.value > 1 and not (
                isinstance(stop, Lit) and stop.value <= top - step.value + 1)
        else:
            may_wrap = step.value < -1 and not (
                isinstance(stop, Lit) and stop.value >= bottom - step.value - 1)
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
            if may_wrap:
                # Wrapped (nxt < cur counting up, nxt > cur counting down):
                # go on from `stop`, where the header stops.
                wpred = pred[0] + ("lt" if step.value > 0 else "gt")
                added = nxt
                wrapped = self.emit1(
                    lambda p: f"arith.cmpi {wpred}, {p.v(added)}, {p.v(cur)} : {t.mlir}",
                    [added, cur], T.boolean, s)
                nxt = self.select(wrapped, stop, added, s)
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
        assigned before the loop (its iter_args; their reads go through
        the definite-assignment check, ir.Function.joins). Variables first
        assigned in the body, and the loop variable (even if assigned
        before the loop), are not defined after it."""
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
        # The value before the loop of each carried variable, through a
        # guard: it may be undefined (or a phi that may be), which is
        # fine while the body and the code after the loop do not read it
        # before assigning it (ir.Function.joins).
        inits = [self.const(False, T.boolean, s) if v == ret_var else
                 Alias(self.var_types[v], self.ssa.read(v, self.block))
                 for v in loop_vars]
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
        # A variable undefined at the end of the body on every path (the
        # variable of a nested generator loop) is not carried: the body's
        # reads of it before assigning it see an undefined value.
        for k in reversed(range(len(loop_vars))):
            if isinstance(outs[k].resolve(), Undef):
                b0.args.remove(loop_args[k])
                loop_args[k].repl = Undef(types[k], loop_vars[k])
                for lst in (loop_vars, inits, types, loop_args, outs):
                    del lst[k]
        outs = [o if v == ret_var else Alias(t, o)
                for v, t, o in zip(loop_vars, types, outs)]
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
        for k, v in enumerate(loop_vars):
            if v != ret_var:
                self.fn.joins.append(([loop_args[k], fe.results[k]],
                                      [inits[k], outs[k]]))
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

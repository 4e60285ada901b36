# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Calls: kernels (awaits and helpers) and the DSL functions (dsl.py):
coroutine ops, handles, local arrays, atomics, conversions and vector
constructors (the math functions: mathcalls.py).

A mixin of translate.FunctionTranslator."""

import ast
import builtins

from . import dsl
from . import types as T
from .errors import CompileError
from .ir import Op, Region, Value, escape
from .kernel import KernelDef
from .shared import (BoundInstance, Lit, PY_ALIASES, PyObj, _a,
                     _static_eval)


class CallTranslator:
    """Calls of kernels and of the DSL functions other than math."""

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

    def need_coro(self, node, what, why="it would suspend a callable"):
        if not self.is_coro:
            self.error(f"{what}() can only be used in a @coroutine, not in a "
                       f"@func ({why})", node)

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
        if not self.is_coro:
            # coro.id must be inside a coro.func (InCoroutine): a @func is
            # a func.func, even when it is inlined into a coroutine.
            self.error("id() is available in coroutines only; pass the index "
                       "as an argument", node)
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
        self.need_coro(node, "promise", "a promise is a field of a coroutine's frame")
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

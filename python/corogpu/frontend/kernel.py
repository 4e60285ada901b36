# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The decorators `coroutine` and `func`, and what they return: a
KernelDef, which knows its Python function, its kind and parameters, and
translates (once, cached) to an MLIR module holding it and every coroutine
and function it reaches."""

import ast
import functools
import inspect
import os

from .errors import CompileError


class Translation:
    """The MLIR module of a kernel: `text` (this kernel plus every coroutine
    and function it reaches), `entry` (its symbol name), `params` (the
    entry's (name, type) list)."""

    def __init__(self, text, entry, params, kernel):
        self.text = text
        self.entry = entry
        self.params = params
        self.kernel = kernel

    def __str__(self):
        return self.text


class SourceInfo:
    """Where a kernel's source is: the absolute file name, the line of its
    first source line (decorators included), the indentation removed from
    its lines, and its ast.FunctionDef."""

    def __init__(self, pyfunc):
        name = getattr(pyfunc, "__name__", "?")
        try:
            filename = inspect.getsourcefile(pyfunc) or inspect.getfile(pyfunc)
            lines, first = inspect.getsourcelines(pyfunc)
        except (OSError, TypeError) as exc:
            code = getattr(pyfunc, "__code__", None)
            raise CompileError(
                f"cannot read the source of '{name}' ({exc}); corogpu kernels "
                f"must be defined in a file",
                code.co_filename if code else "<unknown>",
                code.co_firstlineno if code else 0, 1) from None
        self.filename = os.path.abspath(filename)
        self.first_line = first
        indent = len(lines[0]) - len(lines[0].lstrip())
        self.indent = indent
        stripped = [ln[indent:] if ln[:indent].strip() == "" else ln.lstrip()
                    for ln in lines]
        source = "".join(stripped)
        try:
            tree = ast.parse(source)
        except SyntaxError as exc:
            raise CompileError(f"cannot parse '{name}': {exc.msg}",
                               self.filename,
                               (exc.lineno or 1) + first - 1,
                               (exc.offset or 1) + indent) from None
        if not tree.body or not isinstance(tree.body[0], ast.FunctionDef):
            if name == "<lambda>":
                message = ("`lambda` is not supported as a corogpu kernel; "
                           "define it with `def`")
            else:
                message = "only functions defined with `def` can be kernels"
            raise CompileError(message, self.filename, first, indent + 1)
        self.node = tree.body[0]

    def line(self, node):
        return node.lineno + self.first_line - 1

    def col(self, node):
        return node.col_offset + self.indent + 1


class KernelDef:
    """A Python function decorated with @coroutine or @func.

    name: the Python function's __name__ (the MLIR symbol, made unique in a
    module if two kernels share it); pyfunc: the function; kind:
    "coroutine" or "func"; is_generator: whether it yields; params: its
    (name, type) list; translate(): the Translation, cached.

    `kernel[i](args)` inside a kernel names the instance a generator loop
    runs (`for v in gen[i](args)`; default: the current one).

    Calling a KernelDef from Python goes to `KernelDef.launcher(kernel,
    *args, **kwargs)` when the package sets one (the runner); without one
    it is an error."""

    launcher = None

    def __init__(self, pyfunc, kind):
        if not callable(pyfunc) or not hasattr(pyfunc, "__code__"):
            raise TypeError(f"@{kind} applies to a Python function, not "
                            f"{type(pyfunc).__name__}")
        functools.update_wrapper(self, pyfunc)
        self.pyfunc = pyfunc
        self.kind = kind
        self.name = pyfunc.__name__
        self.is_generator = bool(pyfunc.__code__.co_flags & inspect.CO_GENERATOR)
        self._source = None
        self._signature = None
        self._translation = None

    # The source and the signature are read when first needed.
    @property
    def source(self):
        if self._source is None:
            self._source = SourceInfo(self.pyfunc)
        return self._source

    def signature(self):
        """(params, result): params a list of (name, type, ast.arg),
        result the annotated return type (or None)."""
        if self._signature is None:
            from .translate import read_signature
            self._signature = read_signature(self)
        return self._signature

    @property
    def params(self):
        return [(n, t) for n, t, _ in self.signature()[0]]

    def translate(self):
        if self._translation is None:
            from .translate import translate_module
            self._translation = translate_module(self)
        return self._translation

    def mlir(self):
        """The MLIR module text (translate().text)."""
        return self.translate().text

    def __getitem__(self, instance):
        raise RuntimeError(f"{self.name}[...] selects a generator instance "
                           f"inside a kernel only")

    def __call__(self, *args, **kwargs):
        if KernelDef.launcher is not None:
            return KernelDef.launcher(self, *args, **kwargs)
        raise RuntimeError(
            f"{self.kind} '{self.name}' is a corogpu kernel: it runs on the "
            f"device through corogpu's runner, or is called from another "
            f"kernel; it cannot be called as plain Python")

    def __repr__(self):
        return f"<corogpu {self.kind} {self.name}>"


def coroutine(fn):
    """Decorator: the function becomes a `coro.func` (a generator if it
    contains `yield`)."""
    if isinstance(fn, KernelDef):
        raise TypeError(f"'{fn.name}' is already a corogpu {fn.kind}")
    return KernelDef(fn, "coroutine")


def func(fn):
    """Decorator: the function becomes a `func.func` helper that kernels
    call (inlined before the split; it may not suspend)."""
    if isinstance(fn, KernelDef):
        raise TypeError(f"'{fn.name}' is already a corogpu {fn.kind}")
    return KernelDef(fn, "func")

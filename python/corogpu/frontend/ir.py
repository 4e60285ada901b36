# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A small in-memory IR for building MLIR text: values, ops, blocks with
arguments, regions, and the SSA construction of Braun et al., "Simple and
Efficient Construction of Static Single Assignment Form" (CC 2013).

Python variables become block arguments, never memory: `write(var, block,
value)` records a definition, `read(var, block)` finds the reaching one,
adding a block argument (a phi) where control flow merges. Blocks are
sealed once all their predecessors are known; a loop header is sealed
after its back edge, and the phis asked of it before that are completed
then. After a function is built, `finish()` drops unreachable blocks,
trivial phis (all incoming values the same) and dead ones (used only by
other dead phis), so that what lives across a suspension is exactly the
live SSA values the program computes:

    x = 0                       ^bb0:  %x = arith.constant 0 : i32
    while x < n:                       cf.br ^bb1(%x : i32)
        suspend()               ^bb1(%x_1: i32):   // the only phi
        x += 1                         ...
                                       coro.suspend
                                       %x_2 = arith.addi %x_1, %c1 : i32
                                       cf.br ^bb1(%x_2 : i32)

Ops keep a formatting function that prints their custom syntax; values are
named at print time (Python variable names where known, else numbers).
"""

from .errors import CompileError


def escape(text):
    """An MLIR string literal's contents: backslash, quote and
    non-printable characters as \\XX."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\' or code < 0x20 or code == 0x7F:
            out.append("\\%02X" % code)
        else:
            out.append(ch)
    return "".join(out)


class Loc:
    """A source location: file, 1-based line and column, and optionally
    the name of the variable the op defines (a NameLoc, which frame reports
    use as the field's name)."""

    __slots__ = ("file", "line", "col", "name")

    def __init__(self, file, line, col, name=None):
        self.file = file
        self.line = line
        self.col = col
        self.name = name

    def named(self, name):
        return Loc(self.file, self.line, self.col, name)

    def __str__(self):
        inner = f'"{escape(self.file)}":{self.line}:{self.col}'
        if self.name:
            return f'loc("{escape(self.name)}"({inner}))'
        return f"loc({inner})"


# --- values --------------------------------------------------------------------

class Value:
    """An SSA value with a front-end type (types.py). `repl` is set when
    the value was replaced by another (a trivial phi removed)."""

    def __init__(self, type, name=None):
        self.type = type
        self.repl = None
        self.name = name

    def resolve(self):
        v = self
        while True:
            if v.repl is not None:
                v = v.repl
            elif isinstance(v, Alias):
                v = v.base
            else:
                return v


class OpResult(Value):
    def __init__(self, type, op, index, name=None):
        super().__init__(type, name)
        self.op = op
        self.index = index


class BlockArg(Value):
    """A block argument; `var` names the variable of a phi (None for the
    explicit arguments of function and loop-body entry blocks)."""

    def __init__(self, type, block, var=None, loc=None, name=None):
        super().__init__(type, name)
        self.block = block
        self.var = var
        self.loc = loc


class Undef(Value):
    """No definition of `var` reaches here."""

    def __init__(self, type, var):
        super().__init__(type)
        self.var = var


class Alias(Value):
    """The same MLIR value under another front-end type (i32 as u32)."""

    def __init__(self, type, base):
        super().__init__(type)
        self.base = base


# --- ops, blocks, regions ------------------------------------------------------

class Op:
    """An op: its operands (for use analysis), results, regions, location,
    and `fmt(printer)`, which returns its text without the results and the
    location."""

    def __init__(self, fmt, operands=(), result_types=(), loc=None,
                 regions=(), name_hint=None):
        self.fmt = fmt
        self.operands = list(operands)
        self.results = [OpResult(t, self, i, None)
                        for i, t in enumerate(result_types)]
        self.loc = loc
        self.regions = list(regions)
        self.name_hint = name_hint
        self.edges = []          # branch terminators: their successor edges
        self.block = None

    @property
    def result(self):
        return self.results[0]


class Edge:
    """A control-flow edge from `src`'s terminator to `target`, with the
    value passed to each of the target's phis (keyed by the BlockArg)."""

    def __init__(self, src, target):
        self.src = src
        self.target = target
        self.args = {}


class Block:
    def __init__(self, region, parent=None):
        self.region = region
        self.parent = parent      # for a region's entry: the enclosing block
        self.args = []
        self.ops = []
        self.term = None
        self.preds = []
        self.sealed = False
        self.incomplete = {}
        self.defs = {}
        self.consts = {}
        self.loc = None

    def append(self, op):
        assert self.term is None, "append after terminator"
        op.block = self
        self.ops.append(op)
        return op

    def add_arg(self, type, var=None, loc=None, name=None):
        arg = BlockArg(type, self, var, loc, name)
        self.args.append(arg)
        return arg


class Region:
    def __init__(self):
        self.blocks = []

    def new_block(self, parent=None):
        b = Block(self, parent)
        self.blocks.append(b)
        return b

    @property
    def entry(self):
        return self.blocks[0]


# --- SSA construction ------------------------------------------------------------

class SSA:
    """Braun et al.'s algorithm over the blocks of one function.
    `var_type(var)` gives a variable's type for the phis it needs."""

    def __init__(self, var_type):
        self.var_type = var_type

    def write(self, var, block, value):
        block.defs[var] = value

    def read(self, var, block):
        if var in block.defs:
            return block.defs[var]
        return self._read_recursive(var, block)

    def _phi(self, var, block):
        # Hidden variables ("$i#3": the counter of a loop over i) are named
        # after what they hold.
        name = var.lstrip("$").split("#")[0]
        loc = block.loc.named(name) if block.loc is not None else None
        return block.add_arg(self.var_type(var), var, loc, name=name)

    def _read_recursive(self, var, block):
        if not block.sealed:
            val = self._phi(var, block)
            block.incomplete[var] = val
        elif not block.preds:
            if block.parent is not None:
                val = self.read(var, block.parent)
            else:
                val = Undef(self.var_type(var), var)
        elif len(block.preds) == 1:
            val = self.read(var, block.preds[0].src)
        else:
            val = self._phi(var, block)
            self.write(var, block, val)
            self._add_operands(var, val)
        self.write(var, block, val)
        return val

    def _add_operands(self, var, phi):
        for edge in phi.block.preds:
            edge.args[phi] = self.read(var, edge.src)

    def seal(self, block):
        if block.sealed:
            return
        block.sealed = True
        # Completing a phi may ask this block for other variables; those
        # are now read through the sealed block, so the list cannot grow.
        for var, phi in list(block.incomplete.items()):
            self._add_operands(var, phi)
        block.incomplete = {}


def branch(src, targets_fmt, targets, operands=(), loc=None):
    """A branch terminator from `src` to `targets` (blocks), printed by
    `targets_fmt(printer, [edge text])`."""
    op = Op(None, operands, (), loc)
    for t in targets:
        e = Edge(src, t)
        op.edges.append(e)
        t.preds.append(e)
    op.fmt = lambda p: targets_fmt(p, [p.edge(e) for e in op.edges])
    return op


# --- the function ------------------------------------------------------------------

def walk_blocks(region):
    for b in region.blocks:
        yield b
        for op in b.ops + ([b.term] if b.term else []):
            for r in op.regions:
                yield from walk_blocks(r)


def walk_ops(region):
    for b in walk_blocks(region):
        yield from b.ops
        if b.term:
            yield b.term


class Function:
    """A coro.func or func.func under construction."""

    def __init__(self, header_fmt, params, loc, filename):
        self.header_fmt = header_fmt   # (printer) -> text before " {"
        self.body = Region()
        self.entry = self.body.new_block()
        self.entry.sealed = True
        self.params = [self.entry.add_arg(t, None, l, n) for n, t, l in params]
        self.loc = loc
        self.filename = filename
        # The values a generator loop carries: (values, guards). `values`
        # (the body's argument and the coro.for_each result of a variable)
        # hold one of the incoming values the Alias `guards` wrap (the
        # value before the loop, the value at the end of the body); like a
        # phi, they may be undefined when an incoming one may be.
        self.joins = []
        self._zeros = {}

    # -- cleanup

    def finish(self, zero_const, reads=()):
        """Drops unreachable blocks; checks that every read of a variable
        (`reads`: (value, Loc, name)) sees a definition on every path
        (definite assignment); drops trivial and dead phis; and gives the
        phis of undefined incoming values that remain a zero
        (`zero_const(type) -> op`, placed first in the entry block)."""
        self._drop_unreachable(self.body)
        maybe_undef = self._check_definite(reads)
        self._settle_joins(zero_const, maybe_undef)
        self._remove_trivial_phis()
        self._remove_dead_phis()
        self._inline_straight_regions()
        self._check_undefined()
        self._materialize_undefs(zero_const)

    def _drop_unreachable(self, region):
        if not region.blocks:
            return
        seen = set()
        work = [region.entry]
        while work:
            b = work.pop()
            if id(b) in seen:
                continue
            seen.add(id(b))
            if b.term:
                work.extend(e.target for e in b.term.edges)
        dead = [b for b in region.blocks if id(b) not in seen]
        for b in dead:
            if b.term:
                for e in b.term.edges:
                    if e in e.target.preds:
                        e.target.preds.remove(e)
        region.blocks = [b for b in region.blocks if id(b) in seen]
        for b in region.blocks:
            for op in b.ops + ([b.term] if b.term else []):
                for r in op.regions:
                    self._drop_unreachable(r)

    def _check_definite(self, reads):
        """Raises at the first read of a value that may be undefined;
        returns the ids of the phis and joins that may be."""
        maybe_undef = set()

        def undefined(v):
            v = v.resolve()
            return isinstance(v, Undef) or id(v) in maybe_undef

        changed = True
        while changed:
            changed = False
            for phi in self._phis():
                if id(phi) in maybe_undef:
                    continue
                for e in phi.block.preds:
                    if undefined(e.args[phi]):
                        maybe_undef.add(id(phi))
                        changed = True
                        break
            for values, guards in self.joins:
                if id(values[0]) not in maybe_undef and \
                        any(undefined(g) for g in guards):
                    maybe_undef.update(id(v) for v in values)
                    changed = True
        bad = [(loc.line, loc.col, loc, name) for value, loc, name in reads
               if isinstance(value.resolve(), Undef) or id(value.resolve()) in maybe_undef]
        if bad:
            _, _, loc, name = min(bad, key=lambda b: (b[0], b[1]))
            raise CompileError(
                f"variable '{name}' may be used before it is assigned (it is "
                f"not assigned on every path to here)", loc.file, loc.line, loc.col)
        return maybe_undef

    def _zero(self, t, zero_const):
        if t.mlir not in self._zeros:
            op = zero_const(t)
            op.block = self.entry
            self.entry.ops.insert(0, op)
            self._zeros[t.mlir] = op.result
        return self._zeros[t.mlir]

    def _settle_joins(self, zero_const, maybe_undef):
        """A generator loop's value that may be undefined is never read
        (_check_definite): what flows into it (an undefined value, or a
        phi that may be undefined, whose removal as trivial could leave a
        value that does not dominate the loop) becomes a zero."""
        for values, guards in self.joins:
            for g in guards:
                v = g.resolve()
                if isinstance(v, Undef) or id(v) in maybe_undef:
                    g.repl = self._zero(g.type, zero_const)

    def _phis(self):
        for b in walk_blocks(self.body):
            for a in b.args:
                if a.var is not None:
                    yield a

    def _remove_trivial_phis(self):
        changed = True
        while changed:
            changed = False
            for b in walk_blocks(self.body):
                for a in list(b.args):
                    if a.var is None:
                        continue
                    same = None
                    trivial = True
                    for e in b.preds:
                        v = e.args[a].resolve()
                        if v is a or isinstance(v, Undef):
                            continue
                        if same is None:
                            same = v
                        elif same is not v:
                            trivial = False
                            break
                    if not trivial:
                        continue
                    a.repl = same if same is not None else Undef(a.type, a.var)
                    b.args.remove(a)
                    changed = True

    def _remove_dead_phis(self):
        live = set()
        work = []
        for op in walk_ops(self.body):
            for v in op.operands:
                r = v.resolve()
                if isinstance(r, BlockArg) and r.var is not None and id(r) not in live:
                    live.add(id(r))
                    work.append(r)
        while work:
            phi = work.pop()
            for e in phi.block.preds:
                r = e.args[phi].resolve()
                if isinstance(r, BlockArg) and r.var is not None and id(r) not in live:
                    live.add(id(r))
                    work.append(r)
        for b in walk_blocks(self.body):
            b.args = [a for a in b.args if a.var is None or id(a) in live]

    def _inline_straight_regions(self):
        """Replaces each op marked `inline_straight` (an scf.execute_region
        around a loop body) whose region is one straight path, entry then
        exit, by that path's ops, its results by what the path yields."""
        for b in list(walk_blocks(self.body)):
            for op in list(b.ops):
                if not getattr(op, "inline_straight", False):
                    continue
                blocks = op.regions[0].blocks
                if len(blocks) != 2 or blocks[1].args:
                    continue
                entry, exit_b = blocks
                if len(entry.term.edges) != 1 or entry.term.edges[0].target is not exit_b:
                    continue
                moved = entry.ops + exit_b.ops
                for m in moved:
                    m.block = b
                for r, v in zip(op.results, exit_b.term.operands):
                    r.repl = v
                at = b.ops.index(op)
                b.ops[at:at + 1] = moved

    def _check_undefined(self):
        for op in walk_ops(self.body):
            for v in op.operands:
                r = v.resolve()
                if isinstance(r, Undef):
                    loc = op.loc
                    raise CompileError(
                        f"variable '{r.var}' may be used before it is assigned",
                        loc.file if loc else self.filename,
                        loc.line if loc else 0, loc.col if loc else 0)

    def _materialize_undefs(self, zero_const):
        for b in walk_blocks(self.body):
            for e in b.preds:
                for a in b.args:
                    r = e.args[a].resolve()
                    if isinstance(r, Undef):
                        e.args[a] = self._zero(a.type, zero_const)


# --- printing --------------------------------------------------------------------------

class Printer:
    """Names values and blocks and prints a function's text."""

    def __init__(self):
        self.names = {}
        self.used = set()
        self.counter = 0
        self.block_names = {}
        self.op_names = {}

    def _fresh(self, hint):
        if hint:
            base = "".join(c if c.isalnum() or c in "_$." else "_" for c in hint)
            if base[0].isdigit():
                base = "_" + base
            name = base
            k = 1
            while name in self.used:
                name = f"{base}_{k}"
                k += 1
        else:
            while str(self.counter) in self.used:
                self.counter += 1
            name = str(self.counter)
            self.counter += 1
        self.used.add(name)
        return name

    def _op_name(self, op):
        if id(op) not in self.op_names:
            self.op_names[id(op)] = self._fresh(op.name_hint)
        return self.op_names[id(op)]

    def v(self, value):
        r = value.resolve()
        if isinstance(r, OpResult):
            base = self._op_name(r.op)
            if len(r.op.results) > 1:
                return f"%{base}#{r.index}"
            return f"%{base}"
        if isinstance(r, Undef):
            raise AssertionError(f"undefined value of {r.var} printed")
        if id(r) not in self.names:
            self.names[id(r)] = self._fresh(r.name)
        return f"%{self.names[id(r)]}"

    def vs(self, values):
        return ", ".join(self.v(x) for x in values)

    def block(self, b):
        if id(b) not in self.block_names:
            self.block_names[id(b)] = f"^bb{len(self.block_names)}"
        return self.block_names[id(b)]

    def edge(self, e):
        vals = [e.args[a] for a in e.target.args]
        name = self.block(e.target)
        if not vals:
            return name
        types = ", ".join(a.type.mlir for a in e.target.args)
        return f"{name}({self.vs(vals)} : {types})"

    def arg_decl(self, a):
        text = f"{self.v(a)}: {a.type.mlir}"
        if a.loc is not None:
            text += f" {a.loc}"
        return text

    def op(self, op, indent):
        saved = getattr(self, "_indent", 0)
        self._indent = indent
        text = op.fmt(self)
        self._indent = saved
        if op.results:
            base = self._op_name(op)
            if len(op.results) > 1:
                text = f"%{base}:{len(op.results)} = {text}"
            else:
                text = f"%{base} = {text}"
        if op.loc is not None:
            text += f" {op.loc}"
        return " " * indent + text

    def nested(self, region, entry_args=False):
        """A region of the op being printed, braces included."""
        indent = self._indent
        body = self.region(region, indent + 2, entry_args)
        self._indent = indent
        return "{\n" + body + "\n" + " " * indent + "}"

    def region(self, region, indent, entry_args=False):
        """The text of a region between its braces, one line per op; the
        entry block's label is printed only when it has arguments and
        `entry_args` asks for them (loop bodies)."""
        lines = []
        for i, b in enumerate(region.blocks):
            if i > 0 or (entry_args and b.args):
                args = ", ".join(self.arg_decl(a) for a in b.args)
                label = self.block(b) + (f"({args})" if args else "")
                lines.append(" " * (indent - 2) + label + ":")
            for op in b.ops:
                lines.append(self.op(op, indent))
            if b.term is not None:
                lines.append(self.op(b.term, indent))
        return "\n".join(lines)

    def function(self, fn):
        # Name blocks in order first, so that labels read top to bottom.
        for b in walk_blocks(fn.body):
            self.block(b)
        header = fn.header_fmt(self)
        body = self.region(fn.body, 2)
        return f"{header} {{\n{body}\n}} {fn.loc}"

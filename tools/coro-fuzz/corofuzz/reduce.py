# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Greedy AST-level reduction of a failing program.

A candidate edit is applied to a copy of the program; it is kept when the
copy still fails with the same class and stage under the same
configuration and its emitted MLIR is smaller (or its grid is). Every edit
keeps the program valid by construction (see model.py).
"""

import copy
import hashlib
import time

from . import emit
from .model import (Expr, Assign, Await, Break, CfLoop, Const, Continue, For, If,
                    ReturnIf, Switch, While, child_lists, is_vec, lanes,
                    stmt_exprs, walk_stmts)


def all_lists(prog):
    """Every statement list of the program, outermost first, deterministic."""
    out = []
    for f in prog.funcs:
        todo = [f.body]
        while todo:
            lst = todo.pop(0)
            out.append(lst)
            for s in lst:
                todo.extend(child_lists(s))
    return out


def all_stmts(prog):
    return [(li, i) for li, lst in enumerate(all_lists(prog)) for i in range(len(lst))]


def const_like(e):
    if is_vec(e.ty):
        return Const(e.ty, [1] * lanes(e.ty))
    return Const(e.ty, 1 if e.ty != "i1" else 0)


def size(prog):
    return len(emit.emit_coro(prog).splitlines())


def candidates(prog):
    """(description, edit) pairs; edit(copy) returns False if it does not apply."""
    # Grid.
    for g in sorted({1, 2, prog.grid // 2, prog.grid - 1}):
        if 1 <= g < prog.grid:
            yield "grid=%d" % g, (lambda p, g=g: setattr(p, "grid", g) or True)
    # Callees.
    for f in prog.funcs[1:]:
        def drop(p, name=f.name):
            p.funcs = [x for x in p.funcs if x.name != name]
            for lst in all_lists(p):
                lst[:] = [s for s in lst if not (isinstance(s, Await) and s.callee == name)]
            return True
        yield "drop callee @%s" % f.name, drop
    lists = all_lists(prog)
    # Chunk deletion, larger chunks first.
    for li, lst in enumerate(lists):
        n = len(lst)
        size_ = n
        while size_ >= 1:
            for start in range(0, n - size_ + 1, size_):
                def delete(p, li=li, start=start, k=size_):
                    lst2 = all_lists(p)[li]
                    del lst2[start:start + k]
                    return True
                yield "delete %d statements at list %d [%d]" % (size_, li, start), delete
            size_ //= 2
    # Unwrapping and simplifying control structures.
    for li, lst in enumerate(lists):
        for i, s in enumerate(lst):
            for k, _ in enumerate(child_lists(s)):
                def unwrap(p, li=li, i=i, k=k):
                    lst2 = all_lists(p)[li]
                    body = child_lists(lst2[i])[k]
                    lst2[i:i + 1] = body
                    return True
                yield "unwrap %s (%d) at list %d [%d]" % (type(s).__name__, k, li, i), unwrap
            if isinstance(s, If) and s.els is not None:
                def drop_else(p, li=li, i=i):
                    all_lists(p)[li][i].els = None
                    return True
                yield "drop else at list %d [%d]" % (li, i), drop_else
            if isinstance(s, For):
                def trips(p, li=li, i=i):
                    st = all_lists(p)[li][i]
                    if isinstance(st.ub, int) and st.ub <= st.lb + st.step:
                        return False
                    st.ub = st.lb + st.step
                    return True
                yield "one trip for at list %d [%d]" % (li, i), trips
            if isinstance(s, (While, CfLoop)) and s.maxt > 1:
                def trips2(p, li=li, i=i):
                    all_lists(p)[li][i].maxt = 1
                    return True
                yield "one trip loop at list %d [%d]" % (li, i), trips2
            if isinstance(s, Switch) and len(s.cases) > 1:
                def fewer(p, li=li, i=i):
                    all_lists(p)[li][i].cases.pop()
                    return True
                yield "fewer cases at list %d [%d]" % (li, i), fewer
    # Variables.
    for fi, f in enumerate(prog.funcs):
        for v in f.vars:
            def dropvar(p, fi=fi, name=v.name):
                fn = p.funcs[fi]
                fn.vars = [x for x in fn.vars if x.name != name]
                for lst in all_lists(p):
                    lst[:] = [s for s in lst if not (isinstance(s, Assign) and s.var == name)]
                return True
            yield "drop variable %s of @%s" % (v.name, f.name), dropvar
        for vi, v in enumerate(f.vars):
            if not isinstance(v.init, Const):
                def cinit(p, fi=fi, vi=vi):
                    var = p.funcs[fi].vars[vi]
                    var.init = const_like(var.init)
                    return True
                yield "constant init of %s" % v.name, cinit
        for arr in sorted(f.arrays):
            if f.is_entry:
                def droparr(p, fi=fi, arr=arr):
                    del p.funcs[fi].arrays[arr]
                    return True
                yield "drop array %s" % arr, droparr
    # Expressions: a constant, or an operand of the same type.
    yield from expr_candidates(prog)


def expr_slots(obj):
    """(attribute, index or None) of the expressions held directly by obj."""
    out = []
    for k, v in vars(obj).items():
        if isinstance(v, Expr):
            out.append((k, None))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, Expr):
                    out.append((k, i))
    return out


def get_slot(obj, slot):
    k, i = slot
    return getattr(obj, k) if i is None else getattr(obj, k)[i]


def set_slot(obj, slot, val):
    k, i = slot
    if i is None:
        setattr(obj, k, val)
    else:
        getattr(obj, k)[i] = val


def expr_sites(holder):
    """Every (parent, slot) of an expression under holder (a statement or a
    variable), depth first; the same order in a copy."""
    out = []

    def visit(parent):
        for slot in expr_slots(parent):
            out.append((parent, slot))
            visit(get_slot(parent, slot))
    visit(holder)
    return out


def holders(prog):
    hs = []
    for f in prog.funcs:
        hs.extend(f.vars)
    for lst in all_lists(prog):
        hs.extend(lst)
    return hs


def expr_candidates(prog):
    for hi, h in enumerate(holders(prog)):
        for si, (parent, slot) in enumerate(expr_sites(h)):
            e = get_slot(parent, slot)
            if isinstance(e, Const):
                continue
            opts = [("constant", None)]
            for ci, cs in enumerate(expr_slots(e)):
                if getattr(get_slot(e, cs), "ty", None) == e.ty:
                    opts.append(("operand %d" % ci, cs))
            for name, cs in opts:
                def edit(p, hi=hi, si=si, cs=cs):
                    par, sl = expr_sites(holders(p)[hi])[si]
                    old = get_slot(par, sl)
                    set_slot(par, sl, const_like(old) if cs is None else get_slot(old, cs))
                    return True
                yield "expression %d.%d -> %s" % (hi, si, name), edit


def reduce(prog, still_fails, time_limit=600, log=print):
    """Greedy fixpoint: applies the first candidate that keeps the failure,
    then starts over. still_fails(prog) -> bool."""
    start = time.time()
    cur = prog
    cur_size = size(cur)
    seen = set()
    tests = 0
    progress = True
    while progress and time.time() - start < time_limit:
        progress = False
        for desc, edit in candidates(cur):
            if time.time() - start >= time_limit:
                break
            cand = copy.deepcopy(cur)
            if edit(cand) is False:
                continue
            text = emit.emit_coro(cand)
            h = hashlib.sha1(text.encode()).hexdigest()
            if h in seen:
                continue
            seen.add(h)
            n = len(text.splitlines())
            if n > cur_size or (n == cur_size and cand.grid >= cur.grid):
                continue
            tests += 1
            if still_fails(cand):
                log("  reduce: %s -> %d lines, grid %d" % (desc, n, cand.grid))
                cur, cur_size = cand, n
                progress = True
                break
    log("  reduce: %d tests, %.0f s, %d lines" % (tests, time.time() - start, cur_size))
    return cur

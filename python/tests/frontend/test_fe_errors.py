# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Python outside the subset: each case is a CompileError with the message
and the line of the construct (the line that ends in its marker comment),
never a Python traceback from inside the translator."""

import importlib
import inspect
import re

import pytest

from corogpu.frontend import (Buffer, CompileError, Generator, coroutine, f32,
                              float3, func, i32, id, suspend, u32)

cg = importlib.import_module("corogpu.frontend")

THIS = inspect.getsourcefile(lambda: None)


def line_of(marker):
    with open(THIS) as f:
        lines = [n for n, text in enumerate(f, 1) if text.rstrip().endswith(f"# {marker}")]
    assert len(lines) == 1, marker
    return lines[0]


def expect_error(kernel, marker, message):
    with pytest.raises(CompileError) as info:
        kernel.translate()
    e = info.value
    assert re.search(message, e.message), e.message
    assert e.filename == THIS
    assert e.line == line_of(marker), str(e)
    # A compiler-style message: file:line:col: error: ..., the line, a caret.
    text = str(e)
    first, source, caret = text.split("\n")
    assert first == f"{THIS}:{e.line}:{e.col}: error: {e.message}"
    assert caret.index("^") == e.col - 1
    return e


def test_lambda():
    @coroutine
    def k(out: Buffer[f32]):
        f = lambda x: x  # E1
        out[id()] = 1.0
    expect_error(k, "E1", r"`lambda` is not supported in a corogpu kernel")


def test_list_comprehension():
    @coroutine
    def k(out: Buffer[f32]):
        xs = [i for i in range(3)]  # E2
    expect_error(k, "E2", r"list comprehensions are not supported")


def test_type_change():
    @coroutine
    def k(out: Buffer[f32]):
        x = 1
        x = 2.5  # E3
    e = expect_error(k, "E3", r"variable 'x' changes type from i32 to f32")
    assert e.col == 9


def test_mixed_types():
    @coroutine
    def k(n: i32, out: Buffer[f32]):
        x = f32(n)
        out[id()] = x + n  # E4
    expect_error(k, "E4", r"operands of `\+` have different types: f32 and i32")


def test_int_true_division():
    @coroutine
    def k(n: i32, out: Buffer[i32]):
        out[id()] = n / 2  # E5
    expect_error(k, "E5", r"`/` on integers \(i32\): use `//`")


def test_float_literal_as_int():
    @coroutine
    def k(n: i32, out: Buffer[i32]):
        out[id()] = n + 1.5  # E6
    expect_error(k, "E6", r"the float constant 1.5 cannot be used as i32")


def test_undefined_name():
    @coroutine
    def k(out: Buffer[i32]):
        out[id()] = nowhere  # E7
    expect_error(k, "E7", r"name 'nowhere' is not defined")


def test_used_before_assignment():
    @coroutine
    def k(n: i32, out: Buffer[i32]):
        if n > 0:
            y = 1
        out[id()] = y  # E8
    expect_error(k, "E8", r"variable 'y' may be used before it is assigned")


def test_suspend_in_func():
    @func
    def helper(x: f32) -> f32:
        suspend("no")  # E9
        return x
    expect_error(helper, "E9", r"suspend\(\) can only be used in a @coroutine")


def test_coroutine_returns_value():
    @coroutine
    def k(out: Buffer[i32]):
        return 1  # E10
    expect_error(k, "E10", r"a coroutine returns no value")


def test_missing_annotation():
    @coroutine
    def k(n, out: Buffer[i32]):  # E11
        out[id()] = n
    expect_error(k, "E11", r"parameter 'n' of 'k' needs a type annotation")


def test_bad_annotation():
    @coroutine
    def k(n: int, out: Buffer[i32]):  # E12
        out[id()] = n
    expect_error(k, "E12", r"is not a corogpu type")


def test_unsupported_statements():
    @coroutine
    def k(out: Buffer[i32]):
        with open("x"):  # E13
            pass
    expect_error(k, "E13", r"`with` statements are not supported")

    @coroutine
    def k2(out: Buffer[i32]):
        try:  # E14
            pass
        except Exception:
            pass
    expect_error(k2, "E14", r"`try` statements are not supported")


def test_print_and_builtin_id():
    @coroutine
    def k(out: Buffer[i32]):
        print(1)  # E15
    expect_error(k, "E15", r"print\(\) is not supported")

    import builtins

    @coroutine
    def k2(out: Buffer[i32]):
        out[0] = builtins.id(out)  # E16
    expect_error(k2, "E16", r"did you mean corogpu.id\(\)")


def test_range_step_must_be_constant():
    @coroutine
    def k(n: i32, out: Buffer[i32]):
        for j in range(0, 10, n):  # E17
            out[j] = 1
    expect_error(k, "E17", r"the step of range\(\) must be a nonzero integer constant")


def test_generator_awaited():
    @coroutine
    def gen(n: i32):
        yield n

    @coroutine
    def k(out: Buffer[i32]):
        gen(3)  # E18
    expect_error(k, "E18", r"a generator cannot be awaited")


def test_vector_component():
    @coroutine
    def k(out: Buffer[f32]):
        v = float3(1.0)
        out[id()] = v.w  # E19
    expect_error(k, "E19", r"'w' is not a component of float3")


def test_wrong_argument_count():
    @func
    def two(a: f32, b: f32) -> f32:
        return a + b

    @coroutine
    def k(out: Buffer[f32]):
        out[id()] = two(1.0)  # E20
    expect_error(k, "E20", r"'two' takes 2 arguments, got 1")


def test_yield_type_mismatch():
    @coroutine
    def gen(n: i32) -> Generator[f32]:
        yield n  # E21
    expect_error(gen, "E21", r"expected an f32 value, got i32")


def test_tuple_and_dict():
    @coroutine
    def k(out: Buffer[f32]):
        t = (1, 2)  # E22
    expect_error(k, "E22", r"tuples are not supported")

    @coroutine
    def k2(out: Buffer[f32]):
        d = {}  # E23
    expect_error(k2, "E23", r"dicts are not supported")


def test_buffer_len():
    @coroutine
    def k(out: Buffer[f32]):
        n = len(out)  # E24
    expect_error(k, "E24", r"len\(\) of a buffer is not supported")


def test_func_missing_return():
    @func
    def f(x: f32) -> f32:
        if x > 0.0:
            return x
        x = x + 1.0  # E25
    expect_error(f, "E25", r"'f' must return an f32 value at its end")


def test_vector_compare():
    @coroutine
    def k(out: Buffer[f32]):
        a = float3(1.0)
        if a < a:  # E26
            out[0] = 1.0
    expect_error(k, "E26", r"`<` on vectors is not supported")


def test_loop_else_and_break_outside():
    @coroutine
    def k(out: Buffer[f32]):
        while True:
            break
        else:
            pass  # E27
    expect_error(k, "E27", r"`else` on loops is not supported")


def test_integer_too_big():
    @coroutine
    def k(out: Buffer[i32]):
        out[id()] = 1 << 40  # E28
    expect_error(k, "E28", r"the constant 1099511627776 does not fit in i32")


def test_unsigned_mix():
    @coroutine
    def k(a: u32, out: Buffer[i32]):
        out[id()] = a + i32(1)  # E29
    expect_error(k, "E29", r"different types: u32 and i32")


def test_plain_python_calls():
    with pytest.raises(RuntimeError, match=r"corogpu.sqrt\(\) can only be called inside"):
        cg.sqrt(2.0)
    with pytest.raises(RuntimeError, match=r"can only be called inside"):
        cg.f32(2)

    @coroutine
    def k(out: Buffer[i32]):
        out[id()] = 1
    if cg.KernelDef.launcher is None:
        with pytest.raises(RuntimeError, match="cannot be called as plain Python"):
            k(out=None)


def test_lambda_decorated():
    with pytest.raises(CompileError, match="`lambda` is not supported"):
        coroutine(lambda out: None).translate()


def test_literal_out_of_range():
    @coroutine
    def k(out: Buffer[i32]):
        i = i32(id())
        out[i] = i + 3000000000  # E30
    e = expect_error(k, "E30", r"the constant 3000000000 does not fit in i32 "
                               r"\(from -2147483648 to 2147483647\)")
    assert "u32(3000000000)" in e.message and "i64(3000000000)" in e.message

    @coroutine
    def k(out: Buffer[i32]):
        for j in range(3000000000):  # E31
            out[j] = 0
    expect_error(k, "E31", r"the constant 3000000000 does not fit in i32")

    @coroutine
    def k(out: Buffer[u32]):
        out[id()] = u32(id()) + -1  # E32
    e = expect_error(k, "E32", r"the constant -1 does not fit in u32 \(from 0 "
                               r"to 4294967295\)")
    assert "u32(-1) to wrap it" in e.message

    @coroutine
    def k(out: Buffer[i32]):
        n = 2147483647 + 1  # E33
        out[id()] = n
    expect_error(k, "E33", r"the constant 2147483648 does not fit in i32")

    @coroutine
    def k(out: Buffer[i32]):
        for j in range(0, 100, 3000000000):  # E34
            out[j] = 0
    expect_error(k, "E34", r"the constant 3000000000 does not fit in i32")

    # Explicit conversions of constants wrap, as those of variables do.
    @coroutine
    def k(out: Buffer[u32], s: Buffer[i32]):
        out[id()] = u32(-1) + u32(4294967295)
        s[id()] = i32(0xFFFFFFFF) + i32(2147483648)
    text = k.mlir()
    assert "arith.constant -1 : i32" in text and "arith.constant -2147483648 : i32" in text


def test_id_in_func():
    @func
    def helper(x: f32) -> f32:
        return x + f32(id())  # E35

    @coroutine
    def k(out: Buffer[f32]):
        out[id()] = helper(1.0)
    expect_error(k, "E35", r"id\(\) is available in coroutines only; pass the "
                           r"index as an argument")

    @func
    def helper2(x: f32) -> f32:
        cg.promise("x", x)  # E36
        return x

    @coroutine
    def k(out: Buffer[f32]):
        out[id()] = helper2(1.0)
    expect_error(k, "E36", r"promise\(\) can only be used in a @coroutine")


def test_maybe_undefined_variable_carried_by_generator_loop():
    @coroutine
    def upto(n: i32) -> Generator[i32]:
        j = 0
        while j < n:
            yield j
            j += 1

    @coroutine
    def k(out: Buffer[i32]):
        i = i32(id())
        if i > 2:
            t = 5
        for g in upto(2):
            t = t + g  # E37
        out[i] = 0
    expect_error(k, "E37", r"variable 't' may be used before it is assigned")

    @coroutine
    def k(out: Buffer[i32]):
        i = i32(id())
        h = 100
        for g in upto(i):
            x = h  # E38
            for h in upto(g):
                pass
        out[i] = 0
    expect_error(k, "E38", r"variable 'h' may be used before it is assigned")

    @coroutine
    def k(out: Buffer[i32]):
        i = i32(id())
        if i > 2:
            t = 5
        for g in upto(2):
            t = g
        out[i] = t  # E39
    expect_error(k, "E39", r"variable 't' may be used before it is assigned")

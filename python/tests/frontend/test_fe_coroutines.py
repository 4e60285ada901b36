# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generators and their loops, awaits and handles: translated, verified,
run under every scheduler and compared with plain Python."""

import numpy as np

from corogpu.frontend import (Buffer, Generator, LocalArray, coroutine,
                              create, done, f32, frame_words, func, handle_id,
                              handle_promise, i32, id, index, load_handle,
                              local_array,
                              promise, resume, store_handle, suspend, target)

N = 37


# --- generators ----------------------------------------------------------------

@coroutine
def squares(n: i32, out: Buffer[i32]):
    i = id()
    count = 0
    for k in range(i32(i % 7) + n):
        yield k * k
        count += 1
    out[i] = count


@coroutine
def sum_squares(n: i32, limit: i32, out: Buffer[i32], sums: Buffer[i32]):
    i = id()
    total = 0
    taken = 0
    for v in squares(n, out):
        if total > limit:
            break
        suspend("taken")
        total += v
        taken += 1
    sums[i * 2] = total
    sums[i * 2 + 1] = taken


def squares_ref(i, n):
    return [k * k for k in range(i % 7 + n)]


def test_generator_loop_with_break(tools):
    out, sums = tools.run_all(sum_squares, N, 3, 50, np.zeros(N, np.int32),
                              np.zeros(2 * N, np.int32))
    for i in range(N):
        total = taken = 0
        broke = False
        for v in squares_ref(i, 3):
            if total > 50:
                broke = True
                break
            total += v
            taken += 1
        assert sums[2 * i:2 * i + 2].tolist() == [total, taken], i
        assert out[i] == (0 if broke else len(squares_ref(i, 3))), i
    text = sum_squares.mlir()
    assert "coro.for_each @squares[" in text
    assert "coro.func @squares(%n: i32" in text and "yields i32" in text


@coroutine
def evens(n: i32, out: Buffer[i32]) -> Generator[i32]:
    for v in squares(n, out):
        if v % 2 == 1:
            continue
        yield v


@coroutine
def first_big(n: i32, out: Buffer[i32], res: Buffer[i32]):
    i = id()
    seen = 0
    for v in evens(n, out):
        seen += 1
        if v > 30:
            res[i] = v * 100 + seen
            return
        suspend("even")
    res[i] = -seen


def test_nested_generators_and_return_in_loop(tools):
    out, res = tools.run_all(first_big, N, 3, np.zeros(N, np.int32),
                             np.zeros(N, np.int32))
    for i in range(N):
        seen = 0
        want = None
        for v in [x for x in squares_ref(i, 3) if x % 2 == 0]:
            seen += 1
            if v > 30:
                want = v * 100 + seen
                break
        assert res[i] == (want if want is not None else -seen), i


@coroutine
def nested_sums(n: i32, out: Buffer[i32], sums: Buffer[i32]):
    i = id()
    total = 0
    for a in squares(n, out):
        for b in squares[i + 1](n, out):
            suspend("inner")
            total += a * b
    sums[i] = total


def test_generator_instance_and_nesting(tools):
    out, sums = tools.run_all(nested_sums, N, 3, np.zeros(N + 1, np.int32),
                              np.zeros(N, np.int32))
    for i in range(N):
        assert sums[i] == sum(squares_ref(i, 3)) * sum(squares_ref(i + 1, 3)), i


@coroutine
def floats_gen(x: f32):
    v = x
    while v < 10.0:
        yield v
        v = v * 2.0 + 1.0


@coroutine
def float_consumer(x: f32, out: Buffer[f32]):
    i = id()
    acc = 0.0
    for v in floats_gen(x + f32(i % 3)):
        acc += v
    out[i] = acc


def test_float_generator(tools):
    (out,) = tools.run_all(float_consumer, N, 0.5, np.zeros(N, np.float32))
    for i in range(N):
        v, acc = 0.5 + i % 3, 0.0
        while v < 10:
            acc += v
            v = v * 2 + 1
        assert out[i] == acc


# --- awaits --------------------------------------------------------------------------

@coroutine
def tick(cell: LocalArray[f32, 2]):
    suspend("tick")
    cell[1] += 1.0


@coroutine
def accumulate(start: f32, step: f32, limit: f32, cell: LocalArray[f32, 2]):
    acc = start
    k = 0
    while k < 8 and acc <= limit:
        tick(cell)
        acc += step
        k += 1
    cell[0] += acc
    if acc > limit:
        cell[1] += 1000.0
        return


@coroutine
def await_chain(limit: f32, out: Buffer[f32]):
    i = id()
    cell = local_array(f32, 2)
    step = f32(i % 7)
    start = f32(i)
    suspend("begin")
    accumulate(start, step, limit, cell)
    accumulate(start * 0.5, step + 2.0, limit, cell)
    suspend("end")
    out[i * 2] = cell[0]
    out[i * 2 + 1] = cell[1]


def await_ref(i, limit):
    cell = [0.0, 0.0]

    def acc_(start, step):
        acc, k = start, 0
        while k < 8 and acc <= limit:
            cell[1] += 1
            acc += step
            k += 1
        cell[0] += acc
        if acc > limit:
            cell[1] += 1000

    acc_(float(i), float(i % 7))
    acc_(i * 0.5, i % 7 + 2.0)
    return cell


def test_await_chain(tools):
    (out,) = tools.run_all(await_chain, N, 40.0, np.zeros(2 * N, np.float32))
    assert out.reshape(N, 2).tolist() == [await_ref(i, 40.0) for i in range(N)]
    text = await_chain.mlir()
    assert "coro.await @accumulate(" in text and "coro.await @tick(" in text


# --- handles ---------------------------------------------------------------------------

@coroutine
def steps(scale: f32, out: Buffer[f32]):
    i = id()
    if i % 2 == 0:
        suspend("even")
    else:
        suspend("odd")
    n = 0
    for k in range(index(0), i % 5 + 1):
        n += 1
        promise("n", n)
        suspend("more")
    out[i] = f32(i32(i)) * scale + f32(n * 10)


@coroutine
def listing4(scale: f32, out: Buffer[f32], info: Buffer[i32]):
    i = id()
    h = create(steps, i)
    resume(h, scale, out)
    runs = 1
    while not done(h):
        resume(h, scale, out)
        runs += 1
    info[i * 3] = runs
    info[i * 3 + 1] = handle_promise(h, "n", i32)
    info[i * 3 + 2] = i32(handle_id(h))


@coroutine
def by_tag(scale: f32, out: Buffer[f32], info: Buffer[i32]):
    i = id()
    h = create(steps, i)
    resume(h, scale, out, at="entry")
    info[i] = target(h)
    if i % 2 == 0:
        resume(h, scale, out, at="even")
    else:
        resume(h, scale, out, at="odd")
    while not done(h):
        resume(h, scale, out, token=target(h))


@coroutine
def entry_half(count: i32, scale: f32, out: Buffer[f32], frames: Buffer[i32]):
    i = id()
    h = create(steps, i)
    resume(h, scale, out)
    store_handle(h, frames, i, count)


@coroutine
def rest_half(count: i32, scale: f32, out: Buffer[f32], frames: Buffer[i32]):
    i = id()
    h = load_handle(steps, frames, i, count)
    while not done(h):
        resume(h, scale, out)


def test_handles(tools):
    want = np.array([2.0 * i + 10 * (i % 5 + 1) for i in range(N)], np.float32)
    out, info = tools.run_all(listing4, N, 2.0, np.zeros(N, np.float32),
                              np.zeros(3 * N, np.int32))
    np.testing.assert_array_equal(out, want)
    assert info.reshape(N, 3).tolist() == [[i % 5 + 3, i % 5 + 1, i] for i in range(N)]
    out, info = tools.run_all(by_tag, N, 2.0, np.zeros(N, np.float32),
                              np.zeros(N, np.int32))
    np.testing.assert_array_equal(out, want)
    assert len(set(info[0::2].tolist())) == 1 and len(set(info[1::2].tolist())) == 1
    assert info[0] != info[1]


@coroutine
def words_of(out: Buffer[i32]):
    out[id()] = i32(frame_words(steps))


def test_handles_in_a_buffer(tools):
    (words,) = tools.run_kernel(words_of, 1, np.zeros(1, np.int32))
    words = int(words[0])
    assert words >= 3
    frames = np.zeros(N * words, np.int32)
    out = np.zeros(N, np.float32)
    (out, frames) = tools.run_kernel(entry_half, N, N, 2.0, out, frames)
    (out, frames) = tools.run_kernel(rest_half, N, N, 2.0, out, frames)
    np.testing.assert_array_equal(
        out, [2.0 * i + 10 * (i % 5 + 1) for i in range(N)])


@func
def collatz_steps(x: i32) -> i32:
    steps = 0
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
        if steps > 100:
            return -1
    return steps


@coroutine
def helpers_in_loop_body(n: i32, out: Buffer[i32], res: Buffer[i32]):
    i = id()
    total = 0
    for v in squares(n, out):
        total += collatz_steps(v + 1)
        if total > 60:
            suspend("big")
    res[i] = total


def test_multiblock_helper_in_generator_loop(tools):
    def steps(x):
        s = 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            s += 1
        return s

    out, res = tools.run_all(helpers_in_loop_body, N, 2, np.zeros(N, np.int32),
                             np.zeros(N, np.int32))
    assert res.tolist() == [sum(steps(v + 1) for v in squares_ref(i, 2)) for i in range(N)]


# --- variables of generator loops ------------------------------------------------

@coroutine
def upto(n: i32) -> Generator[i32]:
    k = 0
    while k < n:
        yield k
        k += 1


@coroutine
def nested_loop_variables(out: Buffer[i32]):
    i = i32(id())
    s = 0
    h = 100
    for g in upto(i):
        for h in upto(g):       # `h` assigned before the outer loop too
            s += h
    out[i * 3] = s
    s = 0
    for g in upto(3):
        for h in upto(g):
            s += h
    for g in upto(i):           # `h` first assigned in a loop's body
        for h in upto(g):
            s += h
    out[i * 3 + 1] = s
    if i > 2:
        t = 5
    for g in upto(2):           # `t` may be undefined before, never read
        if g > 0:
            t = g
    t = 7
    for g in upto(i):
        t += g
    out[i * 3 + 2] = t


def test_generator_loop_variables(tools):
    n = 8
    (out,) = tools.run_all(nested_loop_variables, n, np.zeros(n * 3, np.int32),
                           schedulers=["megakernel", "wavefront"])
    want = []
    for i in range(n):
        a = sum(h for g in range(i) for h in range(g))
        b = sum(h for g in range(3) for h in range(g)) + a
        want += [a, b, 7 + sum(range(i))]
    assert out.tolist() == want

# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The package's API: compile, run under every scheduler with check=True,
statistics, tune, reports, and every error path (TypeError before compiling,
ValueError for names, located CompileErrors from the verifier and the
passes, run-time errors with the runtime's message)."""

import inspect

import numpy as np
import pytest

import corogpu
from corogpu import Buffer, f32, i32, u32


@corogpu.coroutine
def countdown(start: i32, steps: Buffer[i32], values: Buffer[f32]):
    """Instance i counts down from start + i % 7, suspending at each step."""
    i = corogpu.id()
    n = start + i32(i) % 7
    count = 0
    value = 1.0
    while n > 0:
        corogpu.promise("left", n)
        corogpu.suspend("step")
        value = value * 0.5 + f32(n)
        n -= 1
        count += 1
    steps[i] = count
    values[i] = value


def expected_countdown(start, grid):
    steps = np.zeros(grid, np.int32)
    values = np.zeros(grid, np.float32)
    for i in range(grid):
        n = start + i % 7
        value = np.float32(1.0)
        count = 0
        while n > 0:
            value = np.float32(value * np.float32(0.5) + np.float32(n))
            n -= 1
            count += 1
        steps[i], values[i] = count, value
    return steps, values


GRID = 50


@pytest.mark.parametrize("scheduler", corogpu.SCHEDULERS)
def test_every_scheduler_matches_python(scheduler):
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    result = countdown(GRID, 3, steps, values, scheduler=scheduler,
                       check=True)
    want_steps, want_values = expected_countdown(3, GRID)
    # Returned, and written into the arrays passed.
    assert result[0] is steps and result[1] is values
    np.testing.assert_array_equal(steps, want_steps)
    np.testing.assert_allclose(values, want_values, rtol=1e-6)
    assert countdown.last_run.checked
    assert countdown.last_run.scheduler == scheduler


def test_statistics_and_timing():
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    run = countdown.run(GRID, 3, steps, values, scheduler="wavefront",
                        repeat=3)
    stats = run.stats["wavefront"]
    # One entry per subroutine: the entry, then "step".
    assert stats["instances_per_subroutine"][0] == GRID
    assert stats["instances_per_subroutine"][1] == int(
        expected_countdown(3, GRID)[0].sum())
    assert run.timing["gpu"] > 0 and len(run.gpu_times) == 3
    assert "wavefront:" in run.stats_text
    assert countdown.stats is run.stats


def test_scheduler_options_reach_the_pipeline():
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    compiled = countdown.compile("wavefront", sort_by="left", layout="soa")
    assert "wavefront" in compiled.plan and compiled.target == "spirv"
    assert isinstance(compiled.image, bytes) and len(compiled.image) % 4 == 0
    countdown(GRID, 3, steps, values, scheduler="wavefront", sort_by="left",
              layout="soa", check=True)
    np.testing.assert_array_equal(steps, expected_countdown(3, GRID)[0])


def test_ptx_without_a_gpu():
    compiled = countdown.compile("state-machine", target="sm_90")
    assert compiled.target == "sm_90"
    assert ".entry" in compiled.image and ".target sm_90" in compiled.image


def test_reports():
    report = countdown.frame_report()
    assert report["coroutine"] == "countdown"
    names = [field["name"] for field in report["fields"]]
    assert "left" in " ".join(names)
    dot = countdown.transition_graph()
    assert dot.startswith('digraph "countdown"') and "step" in dot
    summary = countdown.split_summary()
    assert [s["name"] for s in summary["subroutines"]] == ["entry", "step"]
    # Materialized (packed) frames are no larger than the split's fields.
    assert 0 < report["frame_bytes"] <= summary["frame_bytes"]
    assert report["lower_bound_bytes"] <= report["frame_bytes"]


def test_tune_ranks_checked_configurations():
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    ranking = countdown.tune(GRID, 3, steps, values, repeat=1)
    names = {(e["scheduler"], tuple(e["options"].items())) for e in ranking}
    for scheduler in corogpu.SCHEDULERS:
        assert (scheduler, ()) in names
    assert ("wavefront", (("sort_by", "left"),)) in names
    assert all(e["error"] is None for e in ranking), ranking
    times = [e["gpu_ms"] for e in ranking]
    assert times == sorted(times)
    # tune leaves the caller's buffers alone.
    assert not steps.any()


def test_mlir_carries_python_locations():
    text = countdown.mlir()
    here = inspect.getsourcefile(countdown.pyfunc)
    line = inspect.getsourcelines(countdown.pyfunc)[1]
    assert "coro.func @countdown" in text
    assert "coro.suspend" in text and "coro.promise" in text
    # The suspend's line, 9 lines below the decorator.
    assert f'"{here}":{line + 9}:' in text


# --- errors ----------------------------------------------------------------

def test_argument_errors_before_compiling():
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        countdown(GRID, 3, steps)
    with pytest.raises(TypeError, match="'steps'.*int32, not of float32"):
        countdown(GRID, 3, values, values)
    with pytest.raises(TypeError, match="'values'.*NumPy array"):
        countdown(GRID, 3, steps, [0.0] * GRID)
    with pytest.raises(TypeError, match="'start'.*integer, not float"):
        countdown(GRID, 3.5, steps, values)
    with pytest.raises(TypeError, match=r"outside \[-2147483648, 2147483648\)"):
        countdown(GRID, 1 << 31, steps, values)
    for grid in [(0,), "16", 16.0, (1 << 32,), (2, 2, 2, 2), True]:
        with pytest.raises(TypeError, match="grid must be"):
            countdown(grid, 3, steps, values)
    frozen = values.copy()
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="'values'.*read-only"):
        countdown(GRID, 3, steps, frozen)
    for keyword, value in [("repeat", 0), ("max_rounds", -1),
                           ("time_limit", -1.0), ("capacity", -2)]:
        with pytest.raises(ValueError, match=f"{keyword}="):
            countdown(GRID, 3, steps, values, **{keyword: value})
    for keyword, value in [("repeat", 1.5), ("time_limit", None)]:
        with pytest.raises(TypeError, match=f"{keyword} takes"):
            countdown(GRID, 3, steps, values, **{keyword: value})


def test_name_errors():
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    with pytest.raises(ValueError, match="not one of megakernel"):
        countdown(GRID, 3, steps, values, scheduler="wavefrnt")
    with pytest.raises(ValueError, match="no such option layot"):
        countdown(GRID, 3, steps, values, scheduler="wavefront", layot="soa")
    # A bad value of an enum option: llvm::cl's message, in the error.
    with pytest.raises(ValueError, match="--layout option: Cannot find "
                                         "option named 'diagonal'"):
        countdown(GRID, 3, steps, values, scheduler="wavefront",
                  layout="diagonal")
    # One option's value cannot smuggle in another.
    with pytest.raises(ValueError, match="one word"):
        countdown(GRID, 3, steps, values, scheduler="wavefront",
                  layout="soa sort-by=left")
    with pytest.raises(ValueError, match="neither spirv nor an NVIDIA chip"):
        countdown.compile("wavefront", target="sm_5")


def test_limit_error_has_the_runtimes_message():
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    with pytest.raises(corogpu.LimitExceeded, match="max_rounds=N"):
        countdown(GRID, 3, steps, values, scheduler="wavefront",
                  max_rounds=2)


def test_loop_limit_error_names_the_state_machine_steps_keyword():
    """On a driver that ends a thread's loops after 65535 passes (lavapipe),
    a state machine in one launch whose instances resume 70,000 times is
    cut short: the error says so and names the keyword that bounds it."""
    device = corogpu.device()
    if "llvmpipe" not in device.name:
        pytest.skip("needs a device that limits loop passes (lavapipe), "
                    "not " + device.name)
    steps = np.zeros(8, np.int32)
    values = np.zeros(8, np.float32)
    with pytest.raises(corogpu.RunError,
                       match="had a loop cut short.*state_machine_steps=N"):
        countdown(8, 70000, steps, values, scheduler="state-machine",
                  state_machine_steps=0)


@corogpu.coroutine
def stepper(out: Buffer[f32]):
    corogpu.promise("n", 1.0)
    corogpu.suspend("s")


@corogpu.coroutine
def reads_a_missing_promise(out: Buffer[f32]):
    i = corogpu.id()
    h = corogpu.create(stepper, i)
    corogpu.resume(h, out)
    out[i] = corogpu.handle_promise(h, "nope", f32)


def test_pass_diagnostic_points_at_the_python_line():
    out = np.zeros(8, np.float32)
    with pytest.raises(corogpu.PassError) as caught:
        reads_a_missing_promise(8, out)
    # coro-resolve-handles' diagnostic, at the handle_promise call.
    error = caught.value
    assert isinstance(error, corogpu.CompileError)
    assert error.filename == inspect.getsourcefile(stepper.pyfunc)
    line = inspect.getsourcelines(reads_a_missing_promise.pyfunc)[1] + 5
    assert (error.line, error.col) == (line, 14), str(error)
    assert 'reads promise field "nope", which @stepper does not have' in \
        error.message
    assert 'corogpu.handle_promise(h, "nope", f32)' in str(error)


@corogpu.coroutine
def sorts_by_a_float(out: Buffer[f32]):
    i = corogpu.id()
    corogpu.promise("weight", f32(i))
    corogpu.suspend("s")
    out[i] = 1.0


def test_sort_key_errors_name_the_promises():
    out = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match='"weight" only as f32'):
        sorts_by_a_float(8, out, scheduler="wavefront", sort_by="weight")
    steps = np.zeros(GRID, np.int32)
    values = np.zeros(GRID, np.float32)
    with pytest.raises(ValueError, match=r'no integer promise "lft" \(they '
                                         r'have left\)'):
        countdown(GRID, 3, steps, values, scheduler="wavefront", sort_by="lft")


@corogpu.coroutine
def awaits_itself(out: Buffer[f32]):
    i = corogpu.id()
    corogpu.suspend("s")
    awaits_itself(out)


def test_pass_diagnostic_inside_the_body():
    out = np.zeros(8, np.float32)
    with pytest.raises(corogpu.CompileError) as caught:
        awaits_itself(8, out)
    error = caught.value
    await_line = inspect.getsourcelines(awaits_itself.pyfunc)[1] + 4
    assert error.line == await_line, str(error)
    assert "awaits_itself(out)" in str(error)


@corogpu.func
def helper_that_suspends(x: f32) -> f32:
    corogpu.suspend("inside")
    return x


@corogpu.coroutine
def calls_a_suspending_helper(out: Buffer[f32]):
    i = corogpu.id()
    out[i] = helper_that_suspends(1.0)


def test_verifier_diagnostic_points_at_the_python_line():
    with pytest.raises(corogpu.CompileError) as caught:
        calls_a_suspending_helper.mlir()
        calls_a_suspending_helper.compile("megakernel")
    error = caught.value
    lines = inspect.getsourcelines(helper_that_suspends.pyfunc)
    assert error.line == lines[1] + 2, str(error)
    assert error.filename.endswith("test_api.py")


@corogpu.coroutine
def unsigned_ops(a: u32, out: Buffer[i32]):
    i = u32(corogpu.id())
    corogpu.suspend()
    out[i] = i32((a - i) // u32(3))


def test_unsigned_arguments_take_uint32_values():
    out = np.zeros(4, np.int32)
    unsigned_ops(4, 0xFFFFFFF0, out, scheduler="state-machine", check=True)
    want = [np.int32(np.uint32((0xFFFFFFF0 - i) // 3)) for i in range(4)]
    np.testing.assert_array_equal(out, want)
    with pytest.raises(TypeError, match=r"'a' \(u32\): -1 is outside "
                                        r"\[0, 4294967296\)"):
        unsigned_ops(4, -1, out)


@corogpu.coroutine
def unsigned_buffer(data: Buffer[u32], out: Buffer[u32]):
    i = corogpu.id()
    corogpu.suspend()
    out[i] = data[i] // u32(2) + u32(1)


def test_u32_buffers_take_uint32_arrays():
    data = np.array([0xFFFFFFFE, 7, 0x80000000, 1], np.uint32)
    out = np.zeros(4, np.uint32)
    unsigned_buffer(4, data, out, scheduler="wavefront", check=True)
    np.testing.assert_array_equal(out, data // 2 + 1)
    with pytest.raises(TypeError, match=r"'out' \(Buffer\[u32\]\) takes a "
                                        r"NumPy array of uint32, not of int32"):
        unsigned_buffer(4, data, out.view(np.int32))


@corogpu.coroutine
def index_argument(n: corogpu.index, out: Buffer[i32]):
    i = corogpu.id()
    out[i] = i32(n % corogpu.index(1000))


def test_index_arguments_fit_the_kernels_index():
    out = np.zeros(4, np.int32)
    index_argument(4, 123456, out)
    assert list(out) == [456] * 4
    # 32 bits in SPIR-V kernels: a TypeError before compiling.
    with pytest.raises(TypeError, match=r"'n' \(index\): 2147483648 is "
                                        r"outside"):
        index_argument(4, 1 << 31, out)


def test_threads_share_a_kernel():
    """Python threads calling one kernel at once: the native side takes
    them one at a time (it crashed or mixed up loaded modules before)."""
    import threading
    failures = []

    def work(seed):
        try:
            for scheduler in ("wavefront", "state-machine"):
                steps = np.zeros(GRID, np.int32)
                values = np.zeros(GRID, np.float32)
                countdown(GRID, seed, steps, values, scheduler=scheduler,
                          check=True)
                assert (steps == expected_countdown(seed, GRID)[0]).all()
            countdown.compile("persistent", target="sm_90",
                              persistent_batch=32 * seed)
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(repr(error))

    threads = [threading.Thread(target=work, args=(seed,))
               for seed in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


@corogpu.coroutine
def writes_past_the_end(n: i32, out: Buffer[i32]):
    i = corogpu.id()
    corogpu.suspend("s")
    out[i32(i) * 2] = n


def test_array_smaller_than_the_grid_is_a_located_shape_error():
    steps = np.zeros(GRID - 1, np.int32)
    values = np.zeros(GRID, np.float32)
    with pytest.raises(corogpu.ShapeError) as caught:
        countdown(GRID, 3, steps, values)
    # A TypeError, located at the store that indexes it by the instance id.
    assert isinstance(caught.value, TypeError)
    store = inspect.getsourcelines(countdown.pyfunc)[1] + 13
    assert f"test_api.py:{store}:" in str(caught.value), str(caught.value)
    assert f"holds {GRID - 1} elements" in str(caught.value)


@pytest.mark.parametrize("scheduler", ["megakernel", "wavefront"])
def test_check_bounds_names_the_python_line(scheduler):
    out = np.zeros(16, np.int32)
    with pytest.raises(corogpu.BoundsError) as caught:
        writes_past_the_end(16, 5, out, scheduler=scheduler,
                            check_bounds=True)
    text = str(caught.value)
    store = inspect.getsourcelines(writes_past_the_end.pyfunc)[1] + 4
    assert "8 memory accesses were out of bounds" in text, text
    assert f"test_api.py:{store}:" in text, text
    # Without instances out of bounds, the same kernel runs.
    writes_past_the_end(8, 5, out, scheduler=scheduler, check_bounds=True)
    assert list(out[::2][:8]) == [5] * 8

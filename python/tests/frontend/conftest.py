# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Fixtures of the front end's tests: the build's tools (CORO_BUILD_DIR,
default the repository's build/). The package under test is the build's
(PYTHONPATH=build/python_packages, as the `python` ctest entry sets it)."""

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness  # noqa: E402


@pytest.fixture(scope="session")
def tools():
    """The coro-opt and coro-run of the build; the tests that need them are
    skipped (loudly) when the build has none."""
    if not harness.CORO_OPT.exists() or not harness.CORO_RUN.exists():
        pytest.skip(f"no coro-opt/coro-run under {harness.BUILD} "
                    f"(set CORO_BUILD_DIR)")
    return harness

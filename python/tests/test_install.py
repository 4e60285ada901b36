# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The README's promise: after scripts/build.sh (which the README's two
commands run), Debian's /usr/bin/python3 imports corogpu from any
directory with no PYTHONPATH, from this build."""

import os
import subprocess

import pytest

import corogpu

SYSTEM_PYTHON = "/usr/bin/python3"


def test_system_python_imports_this_build(tmp_path):
    if not os.path.exists(SYSTEM_PYTHON):
        pytest.skip(f"no {SYSTEM_PYTHON} here: the README's set-up is "
                    f"Debian's")
    package_dir = os.path.dirname(os.path.dirname(
        os.path.abspath(corogpu.__file__)))
    pth = subprocess.run(
        [SYSTEM_PYTHON, "-c",
         "import site; print(site.getsitepackages()[0])"],
        stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
    pth = os.path.join(pth, "corogpu.pth")
    if not os.path.exists(pth):
        pytest.skip(f"{pth} does not exist: this build was not made by "
                    f"scripts/build.sh (the README's commands), which "
                    f"writes it")
    with open(pth) as text:
        named = text.read().strip()
    if os.path.realpath(named) != os.path.realpath(package_dir):
        pytest.skip(f"{pth} names another build ({named}), not this one "
                    f"({package_dir})")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [SYSTEM_PYTHON, "-c",
         "import corogpu, os; print(os.path.dirname(corogpu.__file__)); "
         "print(corogpu.device().name)"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    assert result.returncode == 0, result.stdout
    where = result.stdout.splitlines()[0]
    assert os.path.realpath(where) == os.path.realpath(
        os.path.join(package_dir, "corogpu"))

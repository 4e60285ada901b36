# Part of the CoroGPU project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""docs/python.md runs as written: its python blocks as one script, its
commands (the examples) with the output the page shows, as
test/Docs/tutorial.test runs docs/tutorial.md."""

import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def test_python_page(tmp_path):
    build = os.environ.get("CORO_BUILD_DIR", os.path.join(ROOT, "build"))
    result = subprocess.run(
        [sys.executable, os.path.join(ROOT, "test", "Docs",
                                      "run-doc-commands.py"),
         os.path.join(ROOT, "docs", "python.md"), "--root", ROOT,
         "--tools", os.path.join(build, "bin"),
         "--workdir", str(tmp_path / "work"), "--python-blocks"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(result.stdout)
    assert result.returncode == 0, result.stdout
    assert "0 failed" in result.stdout

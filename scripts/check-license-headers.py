#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that every tracked source file of the tree names its license in
an SPDX line near its top (LICENSE: Apache-2.0 WITH LLVM-exception); prints
each file that does not and exits 1, or the number of files checked.

    scripts/check-license-headers.py [--fix]

Source files: C and C++ (.c, .cpp, .h), TableGen (.td), GLSL (.comp),
Python, shell and CMake, and the tracked executables that start with a
shebang. Test inputs (.mlir, data) and documents are not sources. --fix
adds the line: in a C++ or TableGen header after its "Part of the CoroGPU
project." line (as LLVM's headers name theirs), else after a shebang or at
the top."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LICENSE = "Apache-2.0 WITH LLVM-exception"
SPDX = "SPDX-License-Identifier: " + LICENSE
SLASH_COMMENT = (".c", ".cpp", ".h", ".td", ".comp")
HASH_COMMENT = (".py", ".sh", ".cmake")
PART_OF = re.compile(r"^// Part of the CoroGPU project\.$")


def is_source(path):
    name = os.path.basename(path)
    if name.endswith(SLASH_COMMENT + HASH_COMMENT) or name == "CMakeLists.txt":
        return True
    full = os.path.join(ROOT, path)
    if "." in name or not os.access(full, os.X_OK):
        return False
    with open(full, "rb") as f:
        return f.read(2) == b"#!"


def comment_for(path):
    return "//" if path.endswith(SLASH_COMMENT) else "#"


def has_license(lines):
    return any(SPDX in line for line in lines[:12])


def add_license(path, lines):
    marker = comment_for(path)
    for i, line in enumerate(lines[:6]):
        if PART_OF.match(line.rstrip("\n")):
            lines[i:i + 1] = [
                "// Part of the CoroGPU project, under the Apache License v2.0 "
                "with LLVM\n",
                "// Exceptions. See LICENSE for license information.\n",
                "// " + SPDX + "\n",
            ]
            return lines
    at = 1 if lines and lines[0].startswith("#!") else 0
    lines.insert(at, marker + " " + SPDX + "\n")
    return lines


def list_files():
    """The tracked files; without git (an exported tree), every file outside
    build directories and hidden ones."""
    try:
        return subprocess.run(["git", "ls-files"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for top, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs
                       if not d.startswith((".", "build")) and
                       d != "__pycache__"]
            files += [os.path.relpath(os.path.join(top, n), ROOT)
                      for n in names]
        return files


def main():
    fix = "--fix" in sys.argv[1:]
    files = list_files()
    missing = []
    checked = 0
    for path in files:
        if not is_source(path):
            continue
        checked += 1
        full = os.path.join(ROOT, path)
        with open(full, encoding="utf-8") as f:
            lines = f.readlines()
        if has_license(lines):
            continue
        if fix:
            with open(full, "w", encoding="utf-8") as f:
                f.writelines(add_license(path, lines))
        else:
            missing.append(path)
    for path in missing:
        print(f"{path}: no '{SPDX}' line near its top "
              f"(scripts/check-license-headers.py --fix adds one)")
    if missing:
        return 1
    print(f"check-license-headers: {checked} source files, each names its "
          f"license ({LICENSE})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

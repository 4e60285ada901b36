#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the commands of a Markdown page and checks their output.

Every ```console block of the page is a session: lines starting with "$ "
are commands (run with bash, from a scratch directory that mirrors the
repository's examples/, build/bin/ and, with --libs, build/lib/), the lines
after a command are the
output it must print, in order (other lines may come in between). An
expected line matches a whole output line (leading and trailing spaces
aside); in it, "…" stands for any text and runs of spaces match any
whitespace. A line that is only "…" stands for lines not shown.
A command must exit with status 0.

With --python-blocks, the page's ```python blocks also run, in order, as
one script (page-blocks.py in the scratch directory, with the Python running
this script), which must exit with status 0.

  run-doc-commands.py PAGE --root REPO --tools BIN_DIR [--libs LIB_DIR]
      --workdir DIR [--python-blocks]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys


def sessions(page):
    """(line number, command, expected lines) of every command of PAGE."""
    commands = []
    inside = False
    with open(page) as text:
        for number, line in enumerate(text, 1):
            line = line.rstrip("\n")
            if line.startswith("```"):
                inside = line.strip() == "```console"
                continue
            if not inside:
                continue
            if line.startswith("$ "):
                commands.append((number, line[2:], []))
            elif commands:
                commands[-1][2].append(line)
    return commands


def python_blocks(page):
    """The ```python blocks of PAGE as one script; blank lines keep each
    block at its line of the page, so that errors name the page's lines."""
    script = []
    inside = False
    with open(page) as text:
        for line in text:
            line = line.rstrip("\n")
            if line.startswith("```"):
                inside = line.strip() == "```python"
                script.append("")
                continue
            script.append(line if inside else "")
    return "\n".join(script) + "\n"


def pattern(expected):
    parts = [re.escape(part) for part in expected.strip().split("…")]
    text = ".*".join(parts)
    return re.compile(re.sub(r"(\\ )+", r"\\s+", text))


def matches(regex, line):
    return regex.fullmatch(line.strip()) is not None


def check(output, expected):
    """The first expected line not found (in order) in output, or None."""
    lines = output.splitlines()
    at = 0
    for line in expected:
        if line.strip() in ("", "…"):
            continue
        regex = pattern(line)
        while at < len(lines) and not matches(regex, lines[at]):
            at += 1
        if at == len(lines):
            return line
        at += 1
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("page")
    parser.add_argument("--root", required=True)
    parser.add_argument("--tools", required=True)
    parser.add_argument("--libs", help="the build's lib directory")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--python-blocks", action="store_true",
                        help="also run the page's python blocks")
    options = parser.parse_args()

    shutil.rmtree(options.workdir, ignore_errors=True)
    os.makedirs(os.path.join(options.workdir, "build"))
    os.symlink(os.path.join(os.path.abspath(options.root), "examples"),
               os.path.join(options.workdir, "examples"))
    os.symlink(os.path.abspath(options.tools),
               os.path.join(options.workdir, "build", "bin"))
    if options.libs:
        os.symlink(os.path.abspath(options.libs),
                   os.path.join(options.workdir, "build", "lib"))
    env = dict(os.environ)
    # python3 is the Python running this script (the one with NumPy).
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]

    commands = sessions(options.page)
    if not commands:
        print("run-doc-commands: error: no commands in %s" % options.page)
        return 1
    failed = 0
    for number, command, expected in commands:
        result = subprocess.run(["bash", "-c", command], cwd=options.workdir,
                                env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        missing = check(result.stdout, expected)
        if result.returncode != 0 or missing is not None:
            failed += 1
            why = ("exit status %d" % result.returncode if result.returncode
                   else "no line matches: " + missing)
            print("FAIL %s:%d: %s\n  %s" % (options.page, number, command, why))
            print("".join("  | " + l + "\n" for l in result.stdout.splitlines()))
        else:
            print("PASS %s:%d" % (options.page, number))
    if options.python_blocks:
        script = os.path.join(options.workdir, "page-blocks.py")
        with open(script, "w") as out:
            out.write(python_blocks(options.page))
        result = subprocess.run([sys.executable, script], cwd=options.workdir,
                                env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        print("".join("  | " + l + "\n" for l in result.stdout.splitlines()))
        if result.returncode != 0:
            failed += 1
            print("FAIL %s: the python blocks (exit status %d)"
                  % (options.page, result.returncode))
        else:
            print("PASS %s: the python blocks" % options.page)
    print("run-doc-commands: %d commands, %d failed" % (len(commands), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

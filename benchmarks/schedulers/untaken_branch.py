#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What a branch that no lane takes costs on the device.

    untaken_branch.py [--coro-run BIN] [--ops N] [--grid N] [--repeats R]

Runs two coroutines without suspension points (coro-run picks the state
machine, which here is one kernel) over --grid instances: `light` stores a
value; `heavy` does the same, with N dependent float operations behind a
branch on a kernel argument that is false for every instance (a uniform
branch nobody takes). A GPU jumps over the branch and both take about the
same time; an implementation of Vulkan that runs every branch of a
subgroup with the inactive lanes masked off, as lavapipe (Mesa 22.3's
gallivm) does, runs the N operations anyway. That is why a uniform
dispatch over subroutines (the persistent-threads and state-machine
kernels' switch on a token) costs the sum of all subroutines on lavapipe
(docs/schedulers.md, Performance).

Prints both medians (GPU time, `coro-run --repeat --timing`) and their
ratio; exits non-zero if a run fails.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile


def program(ops):
    lines = [
        "coro.func @branch(%out: memref<?xf32>, %n: i32) {",
        "  %id = coro.id : index",
        "  %i = arith.index_cast %id : index to i32",
        "  %f = arith.sitofp %i : i32 to f32",
        "  %never = arith.constant 12345 : i32",
        "  %taken = arith.cmpi eq, %n, %never : i32",
        "  %r = scf.if %taken -> (f32) {",
    ]
    value = "%f"
    for k in range(ops // 2):
        lines.append(f"    %m{k} = arith.mulf {value}, {value} : f32")
        lines.append(f"    %a{k} = arith.addf %m{k}, %f : f32")
        value = f"%a{k}"
    lines += [f"    scf.yield {value} : f32", "  } else {",
              "    scf.yield %f : f32", "  }",
              "  memref.store %r, %out[%id] : memref<?xf32>",
              "  coro.return", "}"]
    return "\n".join(lines) + "\n"


def median_ms(coro_run, path, grid, repeats):
    command = [coro_run, path, "--coro=branch", f"--grid={grid}", "--arg=0",
               f"--buffer=f32:{grid}:zeros", f"--repeat={repeats}",
               "--timing", "--quiet"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("untaken_branch.py: " + " ".join(command) + " failed:\n" +
                 result.stderr)
    match = re.search(r"median of \d+ runs: .*\(GPU ([0-9.]+) ms\)",
                      result.stdout + result.stderr)
    if not match:
        sys.exit("untaken_branch.py: no median in coro-run's output:\n" +
                 result.stdout + result.stderr)
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coro-run", default="coro-run")
    parser.add_argument("--ops", type=int, default=8000,
                        help="float operations behind the branch")
    parser.add_argument("--grid", type=int, default=1 << 20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.ops < 2 or args.grid < 1 or args.repeats < 1:
        sys.exit("untaken_branch.py: --ops must be at least 2, --grid and "
                 "--repeats at least 1")
    with tempfile.TemporaryDirectory() as work:
        times = {}
        for name, ops in (("light", 0), ("heavy", args.ops)):
            path = os.path.join(work, name + ".mlir")
            with open(path, "w") as out:
                out.write(program(ops))
            times[name] = median_ms(args.coro_run, path, args.grid,
                                    args.repeats)
    print(f"grid {args.grid}, medians of {args.repeats} runs")
    print(f"light (no branch body)         {times['light']:10.3f} ms")
    print(f"heavy ({args.ops} ops, untaken) {times['heavy']:10.3f} ms")
    print(f"heavy / light                  {times['heavy'] / times['light']:10.1f}x")


if __name__ == "__main__":
    main()

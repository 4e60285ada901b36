#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Times coro-split on generated coroutines and reports the code growth.

For N suspension points and loop nests D deep, two program shapes:

  sequential   N loop nests one after the other, each D deep with a constant
               trip count of 4 and one suspension point in its innermost body
               (each continuation runs to the next nest, which must suspend).
  shared-loop  one nest D deep whose innermost body holds all N suspension
               points in sequence: each continuation runs to the next point,
               and only the one after the last point copies the loop nest.

For each program it runs `coro-opt --coro-split --coro-dump-graph
--mlir-timing` several times and reports the median wall time of the
CoroSplit pass, the time per suspension point, and the ops before and after
the split (from the coro-dump-graph JSON). Not a test: it prints a table.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile


def nest(depth, body_lines, acc_in, acc_out, tag, indent="  "):
    """A loop nest `depth` deep carrying an f32 accumulator."""
    lines = []
    pad = indent
    carried = acc_in
    for level in range(depth):
        result = f"%{tag}_r{level}" if level else acc_out
        lines.append(
            f"{pad}{result} = scf.for %{tag}_i{level} = %c0 to %c4 step %c1 "
            f"iter_args(%{tag}_a{level} = {carried}) -> (f32) {{")
        carried = f"%{tag}_a{level}"
        pad += "  "
    lines += [pad + line.replace("%ACC", carried) for line in body_lines(tag)]
    for level in reversed(range(depth)):
        pad = pad[:-2]
        inner = f"%{tag}_r{level + 1}" if level + 1 < depth else None
        if inner:
            lines.append(f"{pad}  scf.yield {inner} : f32")
        lines.append(f"{pad}}}")
    return lines


def point(tag, index):
    """Work around one suspension point, using and updating %ACC."""
    return [
        f"%{tag}_v{index} = memref.load %buf[%id] : memref<?xf32>",
        f"%{tag}_s{index} = arith.addf %ACC, %{tag}_v{index} : f32",
        f"coro.suspend \"{tag}_p{index}\"",
        f"%{tag}_t{index} = arith.mulf %{tag}_s{index}, %half : f32",
    ]


def generate(shape, n, depth):
    lines = [
        "coro.func @bench(%buf: memref<?xf32>) {",
        "  %id = coro.id : index",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c4 = arith.constant 4 : index",
        "  %half = arith.constant 0.5 : f32",
        "  %acc0 = arith.constant 0.0 : f32",
    ]
    if shape == "sequential":
        for k in range(n):
            def body(tag):
                return [l for l in point(tag, 0)] + [
                    f"scf.yield %{tag}_t0 : f32"]
            lines += nest(depth, body, f"%acc{k}", f"%acc{k + 1}", f"n{k}")
        final = f"%acc{n}"
    else:
        def body(tag):
            out = []
            acc = "%ACC"
            for i in range(n):
                out += [l.replace("%ACC", acc) for l in point(tag, i)]
                acc = f"%{tag}_t{i}"
            return out + [f"scf.yield {acc} : f32"]
        lines += nest(depth, body, "%acc0", "%acc1", "m")
        final = "%acc1"
    lines += [f"  memref.store {final}, %buf[%id] : memref<?xf32>",
              "  coro.return", "}"]
    return "\n".join(lines) + "\n"


TIMING = re.compile(r"^\s*([\d.]+)\s+\(\s*[\d.]+%\)\s+CoroSplit$")


def run_once(coro_opt, path, outdir):
    proc = subprocess.run(
        [coro_opt, path, "--coro-split",
         f"--coro-dump-graph=output-dir={outdir}", "--mlir-timing",
         "-o", os.devnull],
        capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"coro-opt failed on {path}:\n{proc.stderr}")
    for line in proc.stderr.splitlines():
        match = TIMING.match(line)
        if match:
            return float(match.group(1))
    sys.exit(f"no CoroSplit timing in coro-opt output:\n{proc.stderr}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coro-opt", default="build/bin/coro-opt")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", default="1,2,4,8,16,32,64,128,256")
    parser.add_argument("--depths", default="1,2,3,4")
    parser.add_argument("--shapes", default="sequential,shared-loop")
    parser.add_argument("--shared-loop-max", type=int, default=256,
                        help="largest N for the shared-loop shape")
    parser.add_argument("--csv", help="also write the table as CSV")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(","):
            for depth in map(int, args.depths.split(",")):
                for n in map(int, args.sizes.split(",")):
                    if shape == "shared-loop" and n > args.shared_loop_max:
                        continue
                    path = os.path.join(tmp, f"{shape}-{depth}-{n}.mlir")
                    with open(path, "w") as f:
                        f.write(generate(shape, n, depth))
                    times = [run_once(args.coro_opt, path, tmp)
                             for _ in range(args.repeats)]
                    with open(os.path.join(tmp, "bench.json")) as f:
                        graph = json.load(f)
                    seconds = statistics.median(times)
                    rows.append({
                        "shape": shape, "depth": depth, "n": n,
                        "split_ms": seconds * 1e3,
                        "us_per_point": seconds * 1e6 / n,
                        "ops_in": graph["original_ops"],
                        "ops_out": graph["subroutine_ops"],
                        "growth": float(graph["growth"]),
                    })
                    r = rows[-1]
                    print(f"{shape:12} depth {depth}  N {n:4}  "
                          f"{r['split_ms']:9.2f} ms  {r['us_per_point']:9.1f} us/point  "
                          f"ops {r['ops_in']:6} -> {r['ops_out']:7}  "
                          f"growth {r['growth']:6.2f}", flush=True)

    print("\nTime per suspension point, N = 256 vs N = 8 (sequential):")
    for depth in map(int, args.depths.split(",")):
        per = {r["n"]: r["us_per_point"] for r in rows
               if r["shape"] == "sequential" and r["depth"] == depth}
        if 8 in per and 256 in per:
            print(f"  depth {depth}: {per[256] / per[8]:.2f}x")
    if args.csv:
        with open(args.csv, "w") as f:
            keys = list(rows[0])
            f.write(",".join(keys) + "\n")
            for r in rows:
                f.write(",".join(str(r[k]) for k in keys) + "\n")


if __name__ == "__main__":
    main()

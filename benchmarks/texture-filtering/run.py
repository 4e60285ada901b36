#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Paper Sec. 7.3 / Fig. 13: texture filtering by a custom pass during
suspension, as a host program (texture-filtering.mlir) on the CoroGPU
runtime wrappers under the stock mlir-runner.

Renders, at --spp samples per pixel, the scene with plain bilinear texture
filtering and with anisotropic filtering whose derivatives come from the
finite-difference pass that runs while every path waits at "surface_eval";
and a reference with --reference-spp samples of bilinear filtering (the
texture integrated over each pixel by supersampling). Prints each image's
error against the reference (RMSE of linear RGB, and PSNR) and the wall time
of its mlir-runner process (median of --repeats; JIT and texture set-up
included), and writes the PNGs and a side-by-side image (bilinear,
anisotropic, reference) into --out.

--check also runs every image through the CPU (coro-megakernel-to-func and
upstream's LLVM lowering, no GPU code) and fails unless each GPU image
matches its CPU image and the anisotropic image is closer to the reference
than the bilinear one: the tiny-size test in CI
(benchmark-texture-filtering-tiny).

  benchmarks/texture-filtering/run.py --width 256 --height 192 --out out
"""

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "sdf"))
from to_png import tone_map, write_png  # noqa: E402

PROGRAM = os.path.join(HERE, "texture-filtering.mlir")

MAIN = """
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {{
  %w = arith.constant {width} : index
  %h = arith.constant {height} : index
  %spp = arith.constant {spp} : index
  %filter = arith.constant {filter} : i32
  %n = arith.constant {floats} : index
  %film = memref.alloc(%n) : memref<?xf32>
  %unfinished = func.call @render(%w, %h, %spp, %filter, %film)
      : (index, index, index, i32, memref<?xf32>) -> i32
  %unfinished64 = arith.extsi %unfinished : i32 to i64
  func.call @printI64(%unfinished64) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %cast = memref.cast %film : memref<?xf32> to memref<*xf32>
  func.call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  memref.dealloc %film : memref<?xf32>
  return
}}
"""

# What the CPU runs: the coroutines as host functions (the mega-kernel,
# every launch a loop over its instances), then upstream's LLVM lowering.
CPU_PASSES = ["--coro-inline-callables", "--coro-resolve-handles",
              "--coro-megakernel-to-func", "--convert-scf-to-cf",
              "--convert-to-llvm", "--reconcile-unrealized-casts"]

FILTERS = {"bilinear": 0, "anisotropic": 1}


def fail(message):
    sys.exit("texture-filtering: " + message)


def run(argv, stdin=None):
    result = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        fail("%s exited with %d:\n%s" % (" ".join(argv), result.returncode,
                                         result.stderr[-4000:]))
    return result.stdout


def parse_film(text, floats):
    """The floats printMemrefF32 printed, after the line where @main
    printed how many paths had not finished (which must be none)."""
    first = text.split("\n", 1)[0].strip()
    if first != "0":
        fail("%s paths had not finished after their continuations (the host "
             "loop's max depth is below the scene's)" % first)
    start = text.find("data =")
    if start < 0:
        fail("no printed memref in the output:\n" + text[-2000:])
    values = [float(v) for v in
              re.findall(r"-?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)",
                         text[start + len("data ="):])]
    if len(values) != floats:
        fail("%d values printed, %d expected" % (len(values), floats))
    return values


class Renderer:
    def __init__(self, options, workdir):
        self.options = options
        self.workdir = workdir
        libs = [os.path.join(options.llvm_lib, lib) for lib in
                ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")]
        runner = [options.mlir_runner, "-e", "main",
                  "--entry-point-result=void"]
        self.gpu_runner = runner + ["--shared-libs=" + ",".join(
            [options.wrappers] + libs)]
        self.cpu_runner = runner + ["--shared-libs=" + ",".join(libs)]
        with open(PROGRAM) as source:
            self.program = source.read()

    def write_program(self, name, spp, filter_kind):
        o = self.options
        path = os.path.join(self.workdir, name + ".mlir")
        with open(path, "w") as out:
            out.write(self.program)
            out.write(MAIN.format(width=o.width, height=o.height, spp=spp,
                                  filter=FILTERS[filter_kind],
                                  floats=3 * o.width * o.height))
        return path

    def render_gpu(self, name, spp, filter_kind):
        """(film, median seconds of the mlir-runner runs)."""
        path = self.write_program(name, spp, filter_kind)
        lowered = run([self.options.coro_opt, path,
                       "--coro-host-to-llvm=target=" + self.options.target])
        times = []
        for _ in range(self.options.repeats):
            start = time.perf_counter()
            out = run(self.gpu_runner, lowered)
            times.append(time.perf_counter() - start)
        return (parse_film(out, 3 * self.options.width * self.options.height),
                statistics.median(times))

    def render_cpu(self, name, spp, filter_kind):
        path = self.write_program(name + "-cpu", spp, filter_kind)
        lowered = run([self.options.coro_opt, path] + CPU_PASSES)
        out = run(self.cpu_runner, lowered)
        return parse_film(out, 3 * self.options.width * self.options.height)


def rmse(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)) / len(a))


def psnr(error):
    return float("inf") if error == 0 else 20 * math.log10(1.0 / error)


def side_by_side(images, width, height):
    """RGB8 rows of the images next to each other, 4 pixels apart."""
    gap = 4
    total = len(images) * width + (len(images) - 1) * gap
    rows = bytearray()
    for y in range(height):
        for i, image in enumerate(images):
            if i:
                rows.extend(b"\xff" * (3 * gap))
            rows.extend(image[3 * width * y:3 * width * (y + 1)])
    return total, rows


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--height", type=int, default=192)
    parser.add_argument("--spp", type=int, default=2,
                        help="samples per pixel of the two compared images")
    parser.add_argument("--reference-spp", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=os.path.join(HERE, "out"))
    parser.add_argument("--check", action="store_true",
                        help="also render on the CPU and check the images")
    parser.add_argument("--tolerance", type=float, default=1e-3,
                        help="--check: largest RMSE between a GPU image and "
                             "its CPU image")
    parser.add_argument("--target", default="spirv",
                        help="what the kernels run as: spirv (Vulkan) or an "
                             "NVIDIA chip (sm_70: CUDA)")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--coro-opt",
                        default=os.path.join(ROOT, "build", "bin", "coro-opt"))
    parser.add_argument("--wrappers", default=os.path.join(
        ROOT, "build", "lib", "libcoro_runtime_wrappers.so"))
    parser.add_argument("--mlir-runner", default=shutil.which(
        "mlir-runner") or "/usr/lib/llvm-22/bin/mlir-runner")
    parser.add_argument("--llvm-lib", default="/usr/lib/llvm-22/lib")
    options = parser.parse_args()
    if options.width < 2 or options.height < 2:
        fail("--width and --height must be at least 2 (the finite "
             "differences need neighbours)")
    if min(options.spp, options.reference_spp, options.repeats) < 1:
        fail("--spp, --reference-spp and --repeats must be positive")
    for tool in (options.coro_opt, options.wrappers, options.mlir_runner):
        if not os.path.exists(tool):
            fail("%s does not exist (build the project, or say where it is)"
                 % tool)
    os.makedirs(options.out, exist_ok=True)

    images = [("bilinear", options.spp, "bilinear"),
              ("anisotropic", options.spp, "anisotropic"),
              ("reference", options.reference_spp, "bilinear")]
    films, seconds, failures = {}, {}, []
    with tempfile.TemporaryDirectory(prefix="texture-filtering-") as workdir:
        renderer = Renderer(options, workdir)
        for name, spp, kind in images:
            print("rendering %s (%d spp, %s)..." % (name, spp, kind),
                  file=sys.stderr, flush=True)
            films[name], seconds[name] = renderer.render_gpu(name, spp, kind)
            if options.check:
                cpu = renderer.render_cpu(name, spp, kind)
                difference = rmse(films[name], cpu)
                print("check: %s on the GPU vs the CPU: RMSE %.2e" %
                      (name, difference))
                if not difference <= options.tolerance:
                    failures.append("%s differs from the CPU's (RMSE %.3g > "
                                    "%.3g)" % (name, difference,
                                               options.tolerance))

    reference = films["reference"]
    errors = {name: rmse(films[name], reference)
              for name in ("bilinear", "anisotropic")}
    print("Sec. 7.3 texture filtering, %d x %d, %d spp, reference %d spp "
          "(bilinear)" % (options.width, options.height, options.spp,
                          options.reference_spp))
    print("%-12s %12s %9s %10s" % ("image", "RMSE vs ref", "PSNR dB",
                                   "seconds"))
    for name in ("bilinear", "anisotropic", "reference"):
        error = errors.get(name)
        print("%-12s %12s %9s %10.3f" % (
            name, "%.5f" % error if error is not None else "-",
            "%.2f" % psnr(error) if error is not None else "-",
            seconds[name]))
    ratio = errors["anisotropic"] / errors["bilinear"]
    print("anisotropic / bilinear error: %.3f" % ratio)
    if options.check and not errors["anisotropic"] < errors["bilinear"]:
        failures.append("the anisotropic image is not closer to the "
                        "reference than the bilinear one")

    pixels = {name: tone_map(films[name], 3) for name in films}
    for name in films:
        write_png(os.path.join(options.out, name + ".png"), options.width,
                  options.height, pixels[name])
    width, rows = side_by_side(
        [pixels["bilinear"], pixels["anisotropic"], pixels["reference"]],
        options.width, options.height)
    write_png(os.path.join(options.out, "side-by-side.png"), width,
              options.height, rows)
    print("images in %s" % options.out)
    if options.json:
        with open(options.json, "w") as out:
            json.dump({"width": options.width, "height": options.height,
                       "spp": options.spp,
                       "reference_spp": options.reference_spp,
                       "rmse": errors, "seconds": seconds}, out, indent=1)
    if failures:
        fail("check failed: " + "; ".join(failures))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Times a coroutine under every GPU scheduler with coro-run.

For each grid size, runs the workload under the mega-kernel, the state
machine, the wavefront scheduler (in the configurations given by
--wavefront) and the persistent-threads scheduler (--persistent) with
`coro-run --repeat=R --check --json`: every run is checked
against the mega-kernel reference (a differing image fails the benchmark),
and the run with the median GPU time of the R runs is reported: GPU time,
the host's time for the run (wall ms: launches and waits), its ratio to the
mega-kernel (and to the hand split, for the workloads that
have one) measured in the same invocation, and for the wavefront scheduler
the share of GPU time spent in the scheduling kernels (classify, scan,
scatter, compaction) and the time of each kernel (for the persistent-threads
scheduler, its block-wise steps in the rounds column); with ptxas, the registers
of each kernel (sm_90), and the frame bytes of the split. --csv, --json,
--images and --chart write the results (benchmarks/run-all.sh runs every
workload with all of them).

--passes P runs the whole list of configurations P times per size, one
configuration after the other in each pass, so that a slow spell of a
shared machine (lavapipe on 2 shared cores moves by up to 1.5x between
invocations) falls on every configuration alike. A configuration's ratios
are then paired: the median over the passes of its time over the
mega-kernel's (or the hand split's) in the same pass, with their range; its
GPU time is the median of its passes' times.

Workloads (--workload; a grid size is a number of pixels):
  pathtracer  the path tracer of the e2e tests (test/e2e/cpu/path-tracer.mlir,
              `trace_paths`, suspending before each intersection and each
              shading step; 1 float per pixel), the default.
  sdf         the SDF renderer (benchmarks/sdf/sdf.mlir, `sdf_render`, one
              suspension before each ray march, as in the paper's Sec. 7.2;
              3 floats per pixel), rendering a WIDTH x size/WIDTH image at
              --spp samples per pixel (--width: by default the largest divisor
              of the size that keeps the image at most 4:3 wide).
  cornell     the BVH path tracer (benchmarks/pathtracer/pathtracer.mlir,
  showcase    `path_trace`: suspensions before each intersection, on a miss,
              before light sampling and before surface shading; next-event
              estimation with MIS, Russian roulette) on the Cornell box (36
              triangles) or on the showcase scene (16,058 triangles, diffuse,
              conductor, dielectric and emissive materials); --max-depth and
              --rr-depth (default 10 and 2; the paper also uses 24 and 5),
              --spp and --width as for sdf. The scene and its BVH are built by
              benchmarks/pathtracer/make_scene.py into a temporary directory.
  heavy       the shading-heavy path tracer (benchmarks/heavy/heavy.mlir,
              `path_trace_heavy`: the same four suspension points, seven
              BSDF types, 25 materials, image textures with mip maps and fBm
              noise at every hit) on a scene of about 220,000 triangles
              (--detail small: about 3,100, for quick runs). One instance
              per sample: a grid size is still a number of pixels, and the
              grid holds pixels x --spp instances; --max-depth, --rr-depth
              and --width as for cornell. The scene is built by
              benchmarks/heavy/make_heavy_scene.py into a temporary
              directory (about 40 s at full detail).
Not a test: it prints a table and, with --json, writes every measurement.

Example (the numbers in README.md):
  benchmarks/schedulers/schedulers.py --coro-run build/bin/coro-run \\
      --sizes 16384,65536,262144 --repeats 5
The SDF renderer at 128x128 and 256x256 pixels, 1 sample per pixel:
  benchmarks/schedulers/schedulers.py --workload sdf --spp 1 \\
      --sizes 16384,65536 --repeats 5
The BVH path tracer on the Cornell box, the paper's (24, 5) setting:
  benchmarks/schedulers/schedulers.py --workload cornell --spp 1 \\
      --max-depth 24 --rr-depth 5 --sizes 16384 --repeats 3
"""

import argparse
import atexit
import csv
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "sdf"))
from chart import write_bar_chart  # noqa: E402
from to_png import read_floats, tone_map, write_png  # noqa: E402

# name -> extra coro-run arguments
WAVEFRONT_CONFIGS = {
    "wavefront": [],
    "wavefront-classify": ["--wavefront-design=classify"],
    # The queue design with one atomic per slot instead of per subgroup.
    "wavefront-lane-appends": ["--wavefront-subgroup-appends=false"],
    # Frame layouts: the default is aosoa (tiles of 32 slots, SoA within).
    "wavefront-soa": ["--layout=soa"],
    "wavefront-aos": ["--layout=aos"],
    "wavefront-compact": ["--compact-below=50"],
    "wavefront-most-first": ["--order=most-first"],
    # The tail kernel once fewer than 10 % of the slots are alive.
    "wavefront-tail": ["--wavefront-tail-below=10"],
    # Queues sorted by the "material" promise (the paper's sort by hint);
    # only the BVH path tracers have one (cornell, showcase: the material
    # type; heavy: the material index). Not run unless named: with the
    # queue design (its scatter) and with the classify design.
    "wavefront-sort-material": ["--sort-by=material", "--hint-buckets=32"],
    "wavefront-sort-material-classify": ["--sort-by=material",
                                         "--hint-buckets=32",
                                         "--wavefront-design=classify"],
    # One launch of a fixed grid per subroutine kernel, which loops over its
    # queue, instead of an indirect dispatch (what CUDA, which has none,
    # always runs). On lavapipe, whose loops are limited, a thread per
    # slot. Not run unless named.
    "wavefront-grid-stride": ["--wavefront-grid-stride"],
    # Each submission's rounds recorded once (a CUDA graph, a Vulkan
    # command buffer) and launched again: no host work per kernel; each
    # submission timed whole, without timestamps between its dispatches
    # (no time per kernel). Not run unless named.
    "wavefront-replay": ["--replay-rounds"],
}
NOT_DEFAULT_WAVEFRONT = ("wavefront-sort-material",
                         "wavefront-sort-material-classify",
                         "wavefront-grid-stride", "wavefront-replay")
DEFAULT_WAVEFRONT = [name for name in WAVEFRONT_CONFIGS
                     if name not in NOT_DEFAULT_WAVEFRONT]
# The persistent-threads scheduler: the defaults (64 threads, 256 slots per
# workgroup; on a CPU device such as lavapipe one subgroup and 4 slots per
# thread;
# every frame in 16 KiB of workgroup memory where it fits, SoA); AoS frames
# (the paper's bank-conflict ablation); 128 threads with 1024 slots, most
# frames in the global memory extension (the paper's setting has 16 slots
# per thread).
PERSISTENT_CONFIGS = {
    "persistent": [],
    "persistent-aos": ["--layout=aos"],
    # Whole tiles of 32 slots in workgroup memory and the extension. Not run
    # unless named.
    "persistent-aosoa": ["--layout=aosoa"],
    "persistent-gme": ["--persistent-workgroup-size=128",
                       "--persistent-batch=1024"],
    # The defaults with frame swapping (the paper's). On a GPU the swap's
    # arrays take 2 KiB of the 16: the BVH path tracer keeps 92 of 256
    # frames in workgroup memory instead of 110; on a CPU device all fit
    # and nothing swaps. Not run unless named.
    "persistent-swap": ["--persistent-swap-frames"],
    # The dispatch: coro-run tests the tokens in order (fall-through) on a
    # CPU device, which runs every case anyway, and switches elsewhere.
    # Not run unless named.
    "persistent-switch": ["--fall-through=false"],
    "persistent-fall-through": ["--fall-through"],
    # Bounded steps (on by default where the driver limits loop iterations,
    # lavapipe: each workgroup parks its slots after a budget of steps) off:
    # one batch per launch there instead. Not run unless named.
    "persistent-unbounded": ["--persistent-steps=0"],
    # Where the time goes on a GPU (scripts/device/cuda-checks.sh runs them
    # beside the defaults): one warp per workgroup with 4 slots per thread
    # (the step's barriers within a warp; lavapipe's shape); one slot per
    # thread (no queue to walk, a step runs at most one instance a
    # thread); 16 slots per thread (the paper's), most frames in the
    # extension. Not run unless named.
    "persistent-warp": ["--persistent-workgroup-size=32",
                        "--persistent-batch=128"],
    "persistent-batch-64": ["--persistent-batch=64"],
    "persistent-batch-1024": ["--persistent-batch=1024"],
}
DEFAULT_PERSISTENT = ["persistent", "persistent-aos", "persistent-gme"]
# The state machine with the device's default dispatch, and either one.
STATE_MACHINE_CONFIGS = {
    "state-machine": [],
    "state-machine-switch": ["--fall-through=false"],
    "state-machine-fall-through": ["--fall-through"],
}


def cpu_name():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def sdf_width(size, width):
    """The image width of the SDF workload for `size` pixels: `width`, or by
    default the largest divisor of the size at most sqrt(4/3 size)."""
    if width:
        if size % width:
            sys.exit("schedulers.py: size %d is not a multiple of --width %d"
                     % (size, width))
        return width
    widest = int(math.sqrt(size * 4.0 / 3.0))
    return max(w for w in range(1, widest + 1) if size % w == 0)


def build_scene(script, arguments, name):
    """Runs a scene builder (`script` with `arguments(directory)` and
    --quiet) into a temporary directory, removed at exit; returns the
    scene's statistics and buffer specs (`name`.json)."""
    scene_dir = tempfile.mkdtemp(prefix="corogpu-%s-" % name)
    atexit.register(shutil.rmtree, scene_dir, True)
    subprocess.run([sys.executable, script] + arguments(scene_dir) +
                   ["--quiet"], check=True)
    with open(os.path.join(scene_dir, name + ".json")) as info:
        return json.load(info)


def path_tracer_sizes(options, scene):
    """The BVH path tracers' scalar arguments (width, height, spp, max
    depth, RR depth, lights) and image size, per grid size (pixels)."""
    def args(size):
        width = sdf_width(size, options.width)
        return [str(v) for v in (width, size // width, options.spp,
                                 options.max_depth, options.rr_depth,
                                 scene["num_lights"])]

    def image(size):
        width = sdf_width(size, options.width)
        return "%dx%d" % (width, size // width)
    return args, image


def hand_split(folder, coro):
    """The hand split of the workload in benchmarks/`folder`: its
    handsplit.mlir (benchmarks/make_handsplit.py makes it) and coroutine,
    or None when there is none."""
    file = os.path.join(ROOT, "benchmarks", folder, "handsplit.mlir")
    return (file, coro) if os.path.exists(file) else None


def make_pathtracer_bvh(options):
    """The BVH path tracer on the scene named by --workload: builds the scene
    with make_scene.py into a temporary directory (removed at exit)."""
    scene = build_scene(os.path.join(ROOT, "benchmarks", "pathtracer",
                                     "make_scene.py"),
                        lambda scene_dir: [options.workload, scene_dir],
                        options.workload)
    max_depth, rr_depth, spp = options.max_depth, options.rr_depth, options.spp
    args, image = path_tracer_sizes(options, scene)
    return {
        "file": os.path.join(ROOT, "benchmarks", "pathtracer",
                             "pathtracer.mlir"),
        "coro": "path_trace",
        "args": args,
        # The scene buffers, then the image (RGB).
        "buffers": lambda size: scene["buffers"] + ["f32:%d:zeros" %
                                                    (3 * size)],
        "image_buffer": "buffer%d.bin" % len(scene["buffers"]),
        "width": lambda size: sdf_width(size, options.width),
        "handsplit": hand_split("pathtracer", "path_trace_hand"),
        "describe": "%s (%d triangles), max depth %d, RR depth %d, %d spp, "
                    "width %s" % (options.workload, scene["triangles"],
                                  max_depth, rr_depth, spp,
                                  options.width or "auto"),
        "image": image,
        "params": {"scene": options.workload,
                   "triangles": scene["triangles"], "max_depth": max_depth,
                   "rr_depth": rr_depth, "spp": spp,
                   "width": options.width or "auto"}}


def make_heavy(options):
    """The shading-heavy path tracer: builds its scene with
    make_heavy_scene.py into a temporary directory (removed at exit); one
    instance per sample, so the grid is pixels x spp."""
    scene = build_scene(os.path.join(ROOT, "benchmarks", "heavy",
                                     "make_heavy_scene.py"),
                        lambda scene_dir: [scene_dir,
                                           "--detail=" + options.detail],
                        "heavy")
    max_depth, rr_depth, spp = options.max_depth, options.rr_depth, options.spp
    args, image = path_tracer_sizes(options, scene)
    return {
        "file": os.path.join(ROOT, "benchmarks", "heavy", "heavy.mlir"),
        "coro": "path_trace_heavy",
        "args": args,
        "grid": lambda size: size * spp,
        # The scene buffers, then the samples (RGB per instance).
        "buffers": lambda size: scene["buffers"] + ["f32:%d:zeros" %
                                                    (3 * size * spp)],
        "image_buffer": "buffer%d.bin" % len(scene["buffers"]),
        "samples_per_pixel": spp,
        "width": lambda size: sdf_width(size, options.width),
        "handsplit": hand_split("heavy", "path_trace_heavy_hand"),
        "describe": "%s detail (%d triangles, %d materials), max depth %d, "
                    "RR depth %d, %d spp (instances = pixels x spp), width "
                    "%s" % (options.detail, scene["triangles"],
                            scene["materials"], max_depth, rr_depth, spp,
                            options.width or "auto"),
        "image": image,
        "params": {"scene": "heavy", "detail": options.detail,
                   "triangles": scene["triangles"],
                   "materials": scene["materials"], "max_depth": max_depth,
                   "rr_depth": rr_depth, "spp": spp,
                   "width": options.width or "auto"}}


def make_workload(options):
    """The workload: its file and coroutine, and per grid size (pixels) its
    scalar arguments and buffer specs (coro-run --arg / --buffer), plus a
    description for the table."""
    if options.workload in ("cornell", "showcase"):
        return make_pathtracer_bvh(options)
    if options.workload == "heavy":
        return make_heavy(options)
    if options.workload == "pathtracer":
        bounces = 8 if options.bounces is None else options.bounces
        return {
            "file": os.path.join(ROOT, "test", "e2e", "cpu",
                                 "path-tracer.mlir"),
            "coro": "trace_paths",
            "args": lambda size: [str(bounces)],
            "buffers": lambda size: ["f32:%d:zeros" % size],
            # A 16-pixel-wide image, one luminance value per pixel.
            "image_buffer": "buffer0.bin", "channels": 1,
            "width": lambda size: 16,
            "describe": "%d bounces" % bounces,
            "params": {"bounces": bounces}}
    bounces = 6 if options.bounces is None else options.bounces
    spp = options.spp

    def args(size):  # width, height, spp, bounces
        width = sdf_width(size, options.width)
        return [str(width), str(size // width), str(spp), str(bounces)]

    def image(size):
        width = sdf_width(size, options.width)
        return "%dx%d" % (width, size // width)
    return {
        "file": os.path.join(ROOT, "benchmarks", "sdf", "sdf.mlir"),
        "coro": "sdf_render",
        "args": args,
        "buffers": lambda size: ["f32:%d:zeros" % (3 * size)],  # RGB
        "image_buffer": "buffer0.bin",
        "width": lambda size: sdf_width(size, options.width),
        "describe": "%d bounces, %d spp, width %s" % (
            bounces, spp, options.width or "auto"),
        "image": image,
        "params": {"bounces": bounces, "spp": spp,
                   "width": options.width or "auto"}}


def run(coro_run, workload, size, scheduler, extra, repeats, backend,
        output_dir=None, source=None):
    """One coro-run measurement, checked against the mega-kernel; `source`
    (file, coroutine) replaces the workload's (the hand split)."""
    file, coro = source or (workload["file"], workload["coro"])
    grid = workload.get("grid", lambda size: size)(size)
    command = [coro_run, file, "--coro=" + coro, "--grid=%d" % grid]
    command += ["--buffer=" + spec for spec in workload["buffers"](size)]
    command += ["--scheduler=" + scheduler, "--backend=" + backend,
                "--repeat=%d" % repeats, "--check", "--json"]
    command += ["--arg=%s" % arg for arg in workload["args"](size)] + extra
    if output_dir:
        command.append("--output-dir=" + output_dir)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("schedulers.py: %s failed:\n%s%s" %
                 (" ".join(command), result.stdout, result.stderr))
    report = json.loads(result.stdout)
    if not report.get("check"):
        sys.exit("schedulers.py: %s differs from the mega-kernel" % scheduler)
    return report


def hand_split_name(config):
    """The hand split's row for wavefront configuration `config`:
    "hand-split" for "wavefront", "hand-split-replay" for
    "wavefront-replay"."""
    return "hand-split" + config[len("wavefront"):]


def hand_split_baseline(config, reports):
    """The hand split row that `config`'s ratio is to: the hand split in the
    same wavefront configuration where it ran, a hand split row itself,
    otherwise the plain hand split; None where there is none."""
    if config.startswith("hand-split"):
        return config
    if config.startswith("wavefront") and hand_split_name(config) in reports:
        return hand_split_name(config)
    return "hand-split" if "hand-split" in reports else None


def pass_ratios(times, baseline_reports):
    """Each pass's time over the baseline's GPU time in the same pass."""
    return [t / b["timing_ms"]["gpu"] if b["timing_ms"]["gpu"] else 0.0
            for t, b in zip(times, baseline_reports)]


def ratio_ranges(row):
    """The ranges of a row's paired ratios over the passes, for the table."""
    ranges = [(key, row[key + "_range"])
              for key in ("vs_megakernel", "vs_hand_split")
              if key + "_range" in row]
    return "".join("  %s [%.2f, %.2f]" % (
        "mega" if key == "vs_megakernel" else "hand", low, high)
        for key, (low, high) in ranges)


def find_ptxas(option):
    if option == "none":
        return None
    if option:
        return option
    return shutil.which("ptxas") or next(
        (p for p in ["/usr/local/cuda/bin/ptxas"] if os.path.exists(p)), None)


def kernel_registers(coro_run, ptxas, workload, scheduler, extra, source):
    """{kernel: registers} from ptxas -v on the PTX of `scheduler` (sm_90),
    or {} without ptxas."""
    if not ptxas:
        return {}
    file, coro = source or (workload["file"], workload["coro"])
    with tempfile.TemporaryDirectory() as scratch:
        ptx = os.path.join(scratch, "kernels.ptx")
        subprocess.run([coro_run, file, "--coro=" + coro,
                        "--scheduler=" + scheduler, "--emit=ptx",
                        "--chip=sm_90", "--emit-to=" + ptx] + extra,
                       check=True, capture_output=True)
        log = subprocess.run([ptxas, "-arch=sm_90", "-v", ptx, "-o",
                              os.devnull], check=True, capture_output=True,
                             text=True).stderr
    registers, kernel = {}, None
    for line in log.splitlines():
        if "Compiling entry function" in line:
            kernel = line.split("'")[1]
        elif "Used" in line and kernel:
            registers[kernel] = int(line.split("Used")[1].split()[0])
    return registers


def frame_bytes(coro_opt, file, coro):
    """The frame report's final bytes of `coro` (coro-opt, JSON)."""
    report = subprocess.run(
        [coro_opt, file, "--coro-inline-callables", "--coro-inline-awaits",
         "--coro-expand-yield", "--coro-normalize-control-flow",
         "--coro-split", "--coro-materialize-frame",
         "--coro-frame-report=format=json", "-o", os.devnull],
        check=True, capture_output=True, text=True).stdout
    for entry in json.loads(report):
        if entry["coroutine"] == coro:
            return entry["frame_bytes"]
    return None


def save_image(path, workload, size, output_dir):
    """The first buffer holding the image as a PNG."""
    values = read_floats(os.path.join(output_dir, workload["image_buffer"]))
    spp = workload.get("samples_per_pixel")
    if spp:  # One sample per instance: average each pixel's.
        values = [sum(values[3 * spp * p + c:3 * spp * (p + 1):3]) / spp
                  for p in range(len(values) // (3 * spp)) for c in range(3)]
    channels = workload.get("channels", 3)
    width = workload.get("width", lambda size: size)(size)
    height = size // width
    write_png(path, width, height,
              tone_map(values[:width * height * channels], channels))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--coro-run", default=os.path.join(
        ROOT, "build", "bin", "coro-run"))
    parser.add_argument("--sizes", default="16384,65536",
                        help="comma-separated grid sizes (pixels)")
    parser.add_argument("--workload",
                        choices=("pathtracer", "sdf", "cornell", "showcase",
                                 "heavy"),
                        default="pathtracer")
    parser.add_argument("--bounces", type=int, default=None,
                        help="bounces per path (default: pathtracer 8, "
                        "sdf 6)")
    parser.add_argument("--spp", type=int, default=1,
                        help="sdf, cornell, showcase, heavy: samples per "
                        "pixel (default 1)")
    parser.add_argument("--width", type=int, default=0,
                        help="sdf, cornell, showcase, heavy: image width; "
                        "every size must be a multiple (default: at most "
                        "4:3 wide)")
    parser.add_argument("--max-depth", type=int, default=10,
                        help="cornell, showcase, heavy: bounces per path "
                        "(default 10)")
    parser.add_argument("--rr-depth", type=int, default=2,
                        help="cornell, showcase, heavy: first bounce with "
                        "Russian roulette (default 2)")
    parser.add_argument("--detail", choices=("small", "full"),
                        default="full",
                        help="heavy: the scene's size (default full)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="runs per measurement; medians are reported")
    parser.add_argument("--passes", type=int, default=1,
                        help="interleaved passes over the configurations "
                        "per size; ratios are the medians of each pass's "
                        "ratios (default 1)")
    parser.add_argument("--state-machine-steps", default="",
                        help="comma-separated N: also the state machine with "
                        "--state-machine-steps=N (frames in global memory "
                        "between launches), as state-machine-steps-N")
    parser.add_argument("--state-machine", default="state-machine",
                        help="state-machine configurations: " +
                        ", ".join(STATE_MACHINE_CONFIGS) +
                        " (default: state-machine; empty: none)")
    parser.add_argument("--wavefront", default=",".join(DEFAULT_WAVEFRONT),
                        help="wavefront configurations: " +
                        ", ".join(WAVEFRONT_CONFIGS) + " (default: all but "
                        + ", ".join(NOT_DEFAULT_WAVEFRONT) + "; empty: none)")
    parser.add_argument("--hand-split", default="wavefront",
                        help="wavefront configurations to run the hand "
                        "split in, where the workload has one (default: "
                        "wavefront; rows hand-split, hand-split-<suffix>; "
                        "each configuration's ratio is to the hand split "
                        "in the same configuration where there is one)")
    parser.add_argument("--persistent", default=",".join(DEFAULT_PERSISTENT),
                        help="persistent-threads configurations: " +
                        ", ".join(PERSISTENT_CONFIGS) + " (default: " +
                        ", ".join(DEFAULT_PERSISTENT) + "; empty: none)")
    parser.add_argument("--backend", default="vulkan")
    parser.add_argument("--json", help="write every measurement here")
    parser.add_argument("--csv", help="write the table as CSV here")
    parser.add_argument("--images",
                        help="write each scheduler's image at the largest "
                        "size as <dir>/<workload>-<scheduler>.png")
    parser.add_argument("--chart", help="write a bar chart (PNG) here")
    parser.add_argument("--ptxas",
                        help="ptxas for the registers column (default: on "
                        "PATH or /usr/local/cuda/bin; 'none' to skip)")
    options = parser.parse_args()
    if options.spp < 1 or options.width < 0:
        parser.error("--spp must be positive and --width not negative")

    workload = make_workload(options)
    configs = [("megakernel", "megakernel", [])]
    for name in filter(None, options.state_machine.split(",")):
        if name not in STATE_MACHINE_CONFIGS:
            sys.exit("schedulers.py: unknown state-machine configuration '%s'"
                     % name)
        configs.append((name, "state-machine", STATE_MACHINE_CONFIGS[name]))
    for steps in filter(None, options.state_machine_steps.split(",")):
        if not steps.isdigit() or int(steps) < 1:
            sys.exit("schedulers.py: --state-machine-steps takes positive "
                     "integers, not '%s'" % steps)
        configs.append(("state-machine-steps-" + steps, "state-machine",
                        ["--state-machine-steps=" + steps]))
    for name in filter(None, options.wavefront.split(",")):
        if name not in WAVEFRONT_CONFIGS:
            sys.exit("schedulers.py: unknown wavefront configuration '%s'"
                     % name)
        configs.append((name, "wavefront", WAVEFRONT_CONFIGS[name]))
    for name in filter(None, options.persistent.split(",")):
        if name not in PERSISTENT_CONFIGS:
            sys.exit("schedulers.py: unknown persistent configuration '%s'"
                     % name)
        configs.append((name, "persistent", PERSISTENT_CONFIGS[name]))
    hand = workload.get("handsplit")
    if hand:
        for name in filter(None, options.hand_split.split(",")):
            if name not in WAVEFRONT_CONFIGS:
                sys.exit("schedulers.py: unknown wavefront configuration "
                         "'%s' for the hand split" % name)
            configs.append((hand_split_name(name), "wavefront",
                            WAVEFRONT_CONFIGS[name], hand))
    configs = [c if len(c) == 4 else c + (None,) for c in configs]
    names = [c[0] for c in configs]
    repeated = sorted(set(n for n in names if names.count(n) > 1))
    if repeated:
        sys.exit("schedulers.py: configuration named twice: " +
                 ", ".join(repeated))

    # What does not depend on the size: registers per kernel (sm_90) and
    # the frame of the split schedulers.
    ptxas = find_ptxas(options.ptxas)
    coro_opt = os.path.join(os.path.dirname(options.coro_run), "coro-opt")
    static = {}
    for name, scheduler, extra, source in configs:
        registers = kernel_registers(options.coro_run, ptxas, workload,
                                     scheduler, extra, source)
        file, coro = source or (workload["file"], workload["coro"])
        # The subroutine kernels (wavefront) or the one kernel.
        mine = {k: v for k, v in registers.items()
                if k in (coro, coro + "__pt") or
                k[len(coro + "__wf_"):].isdigit()}
        static[name] = {
            "registers": registers,
            "max_registers": max(mine.values()) if mine else None,
            "frame_bytes": None if scheduler == "megakernel" else
            frame_bytes(coro_opt, file, coro)}

    results, device = [], None
    sizes = [int(s) for s in options.sizes.split(",")]
    scratch = tempfile.mkdtemp(prefix="corogpu-schedulers-")
    atexit.register(shutil.rmtree, scratch, True)
    if options.images:
        os.makedirs(options.images, exist_ok=True)
    if options.passes < 1:
        sys.exit("schedulers.py: --passes must be at least 1")
    for size in sizes:
        # reports[name]: its report in each pass, in pass order.
        reports = {name: [] for name, _, _, _ in configs}
        for done in range(options.passes):
            if options.passes > 1:
                print("schedulers.py: %d pixels, pass %d of %d" %
                      (size, done + 1, options.passes), file=sys.stderr)
            for name, scheduler, extra, source in configs:
                output_dir = None
                if options.images and size == max(sizes) and not done:
                    output_dir = os.path.join(scratch, name)
                report = run(options.coro_run, workload, size, scheduler,
                             extra, options.repeats, options.backend,
                             output_dir, source)
                if output_dir:
                    save_image(os.path.join(options.images, "%s-%s.png" % (
                        options.workload, name)), workload, size, output_dir)
                device = report["device"]
                reports[name].append(report)
        baseline_name = configs[0][0]
        for name, scheduler, extra, source in configs:
            passes = reports[name]
            times = [p["timing_ms"]["gpu"] for p in passes]
            # The pass with the median time (the upper one of an even
            # number) stands for the configuration's other numbers.
            report = passes[sorted(range(len(times)),
                                   key=times.__getitem__)[len(times) // 2]]
            gpu = statistics.median(times)
            ratios = pass_ratios(times, reports[baseline_name])
            row = {"size": size, "config": name, "gpu_ms": gpu,
                   # The host's time for the run (launches and waits).
                   "run_ms": report["timing_ms"]["run"],
                   "runs_gpu_ms": [r["gpu"] for p in passes
                                   for r in p["runs_ms"]],
                   "vs_megakernel": statistics.median(ratios),
                   "frame_bytes": static[name]["frame_bytes"],
                   "max_registers": static[name]["max_registers"]}
            if options.passes > 1:
                row["passes_gpu_ms"] = times
                row["vs_megakernel_range"] = [min(ratios), max(ratios)]
            if "image" in workload:
                row["image"] = workload["image"](size)
            wavefront = report.get("wavefront")
            if wavefront:
                scheduling = wavefront["scheduling_gpu_ms"]
                total = scheduling + wavefront["subroutine_gpu_ms"]
                if not wavefront.get("recorded"):
                    # (Recorded submissions are timed whole.)
                    row["overhead_percent"] = (
                        100.0 * scheduling / total if total else 0.0)
                row.update({
                    "rounds": wavefront["rounds"],
                    "launches": wavefront["launches"],
                    "capacity": wavefront["capacity"],
                    "kernel_gpu_ms": wavefront["kernel_gpu_ms"]})
            persistent = report.get("persistent")
            if persistent:
                row.update({"rounds": persistent["steps"],
                            "workgroups": persistent["workgroups"]})
            results.append(row)
        # Ratios to the hand split, measured in the same passes.
        for row in results:
            baseline = hand_split_baseline(row["config"], reports)
            if row["size"] != size or baseline is None:
                continue
            times = [p["timing_ms"]["gpu"] for p in reports[row["config"]]]
            ratios = pass_ratios(times, reports[baseline])
            row["vs_hand_split"] = statistics.median(ratios)
            if options.passes > 1:
                row["vs_hand_split_range"] = [min(ratios), max(ratios)]

    print("workload: %s @%s, %s; device: %s; CPU: %s; medians of %d "
          "runs%s" % (os.path.relpath(workload["file"], ROOT),
                      workload["coro"], workload["describe"], device,
                      cpu_name(), options.repeats,
                      "" if options.passes == 1 else
                      " in each of %d interleaved passes (ratios: median "
                      "of the passes' ratios, [range])" % options.passes))
    if "image" in workload:
        print("images: " + ", ".join(
            "%d pixels = %s" % (size, workload["image"](size))
            for size in sorted(set(row["size"] for row in results))))
    print("%-8s %-22s %12s %10s %10s %9s %8s %7s %7s %6s" %
          ("pixels", "scheduler", "GPU ms", "wall ms", "vs mega", "vs hand",
           "sched %", "rounds", "frame B", "regs"))
    for row in results:
        print("%-8d %-22s %12.3f %10.3f %9.2fx %9s %8s %7s %7s %6s%s" % (
            row["size"], row["config"], row["gpu_ms"], row["run_ms"],
            row["vs_megakernel"],
            "%.2fx" % row["vs_hand_split"] if "vs_hand_split" in row
            else "-",
            "%.1f" % row["overhead_percent"] if "overhead_percent" in row
            else "-", row.get("rounds", "-"),
            row["frame_bytes"] if row["frame_bytes"] is not None else "-",
            row["max_registers"] if row["max_registers"] is not None
            else "-", ratio_ranges(row)))
    if ptxas:
        print("registers per kernel (ptxas -v, sm_90; regs above: the "
              "coroutine's kernel, or the largest subroutine kernel):")
        for name, _, _, _ in configs:
            print("  %-22s %s" % (name, ", ".join(
                "%s %d" % (kernel.split("__", 1)[-1] if "__" in kernel
                           else kernel, regs)
                for kernel, regs in sorted(
                    static[name]["registers"].items()))))
    for row in results:
        if row.get("kernel_gpu_ms"):
            kernels = row["kernel_gpu_ms"]
            print("%-8d %-22s %s" % (row["size"], row["config"], ", ".join(
                "%s %.2f" % (name.split("__", 1)[1], ms)
                for name, ms in sorted(kernels.items()))))
    if options.json:
        with open(options.json, "w") as out:
            summary = {"device": device, "cpu": cpu_name(),
                       "workload": options.workload}
            summary.update(workload["params"])
            summary.update({"repeats": options.repeats,
                            "passes": options.passes, "results": results,
                            "kernels": static})
            json.dump(summary, out, indent=2)
    if options.csv:
        columns = ["size", "config", "gpu_ms", "run_ms", "vs_megakernel",
                   "vs_hand_split", "overhead_percent", "rounds",
                   "frame_bytes", "max_registers"]
        with open(options.csv, "w", newline="") as out:
            writer = csv.DictWriter(out, columns, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(results)
    if options.chart:
        write_bar_chart(options.chart, "%s: GPU ms on %s" % (
            options.workload, device), [
            ("%d pixels" % size, [
                (row["config"], row["gpu_ms"], "%.1f ms (%.2fx)" % (
                    row["gpu_ms"], row["vs_megakernel"]))
                for row in results if row["size"] == size])
            for size in sizes])


if __name__ == "__main__":
    main()

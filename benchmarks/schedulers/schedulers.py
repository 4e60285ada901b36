#!/usr/bin/env python3
"""Times a coroutine under every GPU scheduler with coro-run.

For each grid size, runs the workload under the mega-kernel, the state
machine and the wavefront scheduler (in the configurations given by
--wavefront) with `coro-run --repeat=R --check --json`: every run is checked
against the mega-kernel reference (a differing image fails the benchmark),
and the medians of the R runs are reported: GPU time, its ratio to the
mega-kernel measured in the same invocation, and for the wavefront scheduler
the share of GPU time spent in the scheduling kernels (classify, scan,
scatter, compaction) and the time of each kernel.

The default workload is the path tracer of the e2e tests
(test/e2e/cpu/path-tracer.mlir, `trace_paths`, suspending before each
intersection and each shading step), the heaviest e2e program until the
rendering benchmarks exist. Not a test: it prints a table and, with --json,
writes every measurement.

Example (the numbers in README.md):
  benchmarks/schedulers/schedulers.py --coro-run build/bin/coro-run \\
      --sizes 16384,65536,262144 --repeats 5
"""

import argparse
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

# name -> extra coro-run arguments
WAVEFRONT_CONFIGS = {
    "wavefront": [],
    "wavefront-aos": ["--layout=aos"],
    "wavefront-compact": ["--compact-below=50"],
    "wavefront-most-first": ["--order=most-first"],
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


def run(coro_run, workload, size, scheduler, extra, repeats, backend):
    command = [coro_run, workload["file"], "--coro=" + workload["coro"],
               "--grid=%d" % size, "--buffer=f32:%d:zeros" % size,
               "--scheduler=" + scheduler, "--backend=" + backend,
               "--repeat=%d" % repeats, "--check", "--json"]
    command += ["--arg=%s" % arg for arg in workload["args"]] + extra
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("schedulers.py: %s failed:\n%s%s" %
                 (" ".join(command), result.stdout, result.stderr))
    report = json.loads(result.stdout)
    if not report.get("check"):
        sys.exit("schedulers.py: %s differs from the mega-kernel" % scheduler)
    return report


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--coro-run", default=os.path.join(
        ROOT, "build", "bin", "coro-run"))
    parser.add_argument("--sizes", default="16384,65536",
                        help="comma-separated grid sizes (pixels)")
    parser.add_argument("--bounces", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5,
                        help="runs per measurement; medians are reported")
    parser.add_argument("--wavefront", default=",".join(WAVEFRONT_CONFIGS),
                        help="wavefront configurations: " +
                        ", ".join(WAVEFRONT_CONFIGS))
    parser.add_argument("--backend", default="vulkan")
    parser.add_argument("--json", help="write every measurement here")
    options = parser.parse_args()

    workload = {
        "file": os.path.join(ROOT, "test", "e2e", "cpu", "path-tracer.mlir"),
        "coro": "trace_paths", "args": [str(options.bounces)]}
    configs = [("megakernel", "megakernel", []),
               ("state-machine", "state-machine", [])]
    for name in options.wavefront.split(","):
        if name not in WAVEFRONT_CONFIGS:
            sys.exit("schedulers.py: unknown wavefront configuration '%s'"
                     % name)
        configs.append((name, "wavefront", WAVEFRONT_CONFIGS[name]))

    results, device = [], None
    for size in [int(s) for s in options.sizes.split(",")]:
        baseline = None
        for name, scheduler, extra in configs:
            report = run(options.coro_run, workload, size, scheduler, extra,
                         options.repeats, options.backend)
            device = report["device"]
            gpu = report["timing_ms"]["gpu"]
            baseline = baseline if baseline is not None else gpu
            row = {"size": size, "config": name, "gpu_ms": gpu,
                   "runs_gpu_ms": [r["gpu"] for r in report["runs_ms"]],
                   "vs_megakernel": gpu / baseline if baseline else 0.0}
            wavefront = report.get("wavefront")
            if wavefront:
                scheduling = wavefront["scheduling_gpu_ms"]
                total = scheduling + wavefront["subroutine_gpu_ms"]
                row.update({
                    "overhead_percent":
                        100.0 * scheduling / total if total else 0.0,
                    "rounds": wavefront["rounds"],
                    "launches": wavefront["launches"],
                    "capacity": wavefront["capacity"],
                    "kernel_gpu_ms_last_run": wavefront["kernel_gpu_ms"]})
            results.append(row)

    print("workload: %s @%s, %d bounces; device: %s; CPU: %s; medians of %d "
          "runs" % (os.path.relpath(workload["file"], ROOT), workload["coro"],
                    options.bounces, device, cpu_name(), options.repeats))
    print("%-8s %-22s %12s %10s %10s %7s" %
          ("pixels", "scheduler", "GPU ms", "vs mega", "sched %", "rounds"))
    for row in results:
        print("%-8d %-22s %12.3f %9.2fx %10s %7s" % (
            row["size"], row["config"], row["gpu_ms"], row["vs_megakernel"],
            "%.1f" % row["overhead_percent"] if "overhead_percent" in row
            else "-", row.get("rounds", "-")))
    for row in results:
        if "kernel_gpu_ms_last_run" in row:
            kernels = row["kernel_gpu_ms_last_run"]
            print("%-8d %-22s %s" % (row["size"], row["config"], ", ".join(
                "%s %.2f" % (name.split("__", 1)[1], ms)
                for name, ms in sorted(kernels.items()))))
    if options.json:
        with open(options.json, "w") as out:
            json.dump({"device": device, "cpu": cpu_name(),
                       "bounces": options.bounces,
                       "repeats": options.repeats, "results": results},
                      out, indent=2)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The paper's Table 2: lane use and branch efficiency per kernel.

Runs the BVH path tracer (pathtracer.mlir, `path_trace`) on the Cornell box
and the showcase scene under the mega-kernel, the wavefront scheduler, and
the wavefront scheduler sorting its queues by material, each with
`coro-run --profile-lanes --check --json` (every image is checked against
the mega-kernel), and prints one Markdown table: per kernel, its share of
the run's GPU time, the lanes that ran it, lane use (active lanes per
subgroup at function entries, branches and loop headers), branch efficiency
(branch visits whose lanes all went the same way) and the frame bytes it
loaded and stored per execution. The profiled kernels are slower than
plain ones; the time shares are those of the profiled run. --backend cuda
profiles warps of 32 lanes on an NVIDIA GPU (sm_80 or newer); lavapipe's
subgroups have 8.

    lane_profile.py [--coro-run build/bin/coro-run] [--size 128] [--spp 1]
                    [--backend vulkan|cuda]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CONFIGURATIONS = [("mega-kernel", ["--scheduler=megakernel"]),
                  ("wavefront", ["--scheduler=wavefront"]),
                  ("wavefront, sorted by material",
                   ["--scheduler=wavefront", "--sort-by=material"])]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--coro-run",
                        default=os.path.join(ROOT, "build", "bin", "coro-run"))
    parser.add_argument("--size", type=int, default=128,
                        help="image width and height")
    parser.add_argument("--spp", type=int, default=1)
    parser.add_argument("--backend", default="vulkan",
                        choices=["vulkan", "cuda"])
    options = parser.parse_args()
    print("| scene | configuration | kernel | GPU time | lanes | lane use | "
          "branch eff. | frame bytes / execution (load / store) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as scenes:
        for scene in ["cornell", "showcase"]:
            subprocess.run([sys.executable, os.path.join(HERE, "make_scene.py"),
                            scene, os.path.join(scenes, scene),
                            "--width", str(options.size),
                            "--height", str(options.size),
                            "--spp", str(options.spp), "--quiet"], check=True)
            with open(os.path.join(scenes, scene, scene + ".args")) as f:
                args = f.read().split()
            for name, flags in CONFIGURATIONS:
                result = subprocess.run(
                    [options.coro_run, os.path.join(HERE, "pathtracer.mlir"),
                     "--coro=path_trace", "--backend=" + options.backend] +
                    args + flags +
                    ["--profile-lanes", "--check", "--json", "--quiet"],
                    stdout=subprocess.PIPE, universal_newlines=True)
                if result.returncode != 0:
                    sys.exit("lane_profile: %s, %s failed (exit code %d)" %
                             (scene, name, result.returncode))
                run = json.loads(result.stdout)
                lanes = run["lane_profile"]
                gpu = lanes["gpu_ms"]
                rows = list(lanes["functions"])
                if "scheduling_gpu_ms" in lanes:
                    rows.append({"name": "scheduling",
                                 "gpu_ms": lanes["scheduling_gpu_ms"]})
                for row in rows:
                    share = ("%.1f %%" % (100 * row["gpu_ms"] / gpu)
                             if "gpu_ms" in row else "-")
                    if "executions" not in row:
                        print("| %s | %s | %s | %s | | | | |" %
                              (scene, name, row["name"], share))
                        continue
                    executions = max(row["executions"], 1)
                    print("| %s | %s | %s | %s | %d | %.1f %% | %.1f %% | "
                          "%.1f / %.1f |" % (
                              scene, name, row["name"], share,
                              row["executions"], 100 * row["lane_use"],
                              100 * row["branch_efficiency"],
                              row["frame_bytes_loaded"] / executions,
                              row["frame_bytes_stored"] / executions))
                sys.stdout.flush()


if __name__ == "__main__":
    main()

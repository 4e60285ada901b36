#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What coro-run's run-time checks cost: GPU time of each scheduler with a
check on and off, in one invocation, medians of --repeats runs, every run
checked against the mega-kernel.

    benchmarks/checks/checks.py --checks termination --workload cornell --sizes 16384
    benchmarks/checks/checks.py --checks bounds --workload cornell --sizes 16384

--checks termination: --termination-checks (the default: instances counted
as they return, loop iterations counted for the device's loop limit)
against --termination-checks=false. --checks bounds: --check-bounds
(every memref access of the coroutine tested against its buffer's size)
against no bounds checks (the default). Takes the workloads and sizes of
benchmarks/schedulers/schedulers.py.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "schedulers"))
import schedulers  # noqa: E402

# The coro-run options of each check: on, off.
CHECKS = {
    "termination": (["--termination-checks=true"],
                    ["--termination-checks=false"]),
    "bounds": (["--check-bounds"], []),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coro-run", default=os.path.join(
        schedulers.ROOT, "build", "bin", "coro-run"))
    parser.add_argument("--checks", choices=sorted(CHECKS), required=True)
    parser.add_argument("--workload", default="cornell",
                        choices=["pathtracer", "sdf", "cornell", "showcase"])
    parser.add_argument("--sizes", default="16384")
    parser.add_argument("--schedulers",
                        default="megakernel,state-machine,wavefront,persistent")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--backend", default="vulkan")
    options = parser.parse_args()
    # The workload options schedulers.py would take, at their defaults.
    defaults = argparse.Namespace(workload=options.workload, bounces=None,
                                  spp=1, width=0, max_depth=10, rr_depth=2)
    workload = schedulers.make_workload(defaults)

    device = None
    rows = []
    for size in [int(s) for s in options.sizes.split(",")]:
        for scheduler in options.schedulers.split(","):
            times = []
            for flags in CHECKS[options.checks]:
                report = schedulers.run(
                    options.coro_run, workload, size, scheduler, flags,
                    options.repeats, options.backend)
                device = report["device"]
                times.append(report["timing_ms"]["gpu"])
            rows.append((size, scheduler, times[0], times[1]))

    print("%s checks; workload: %s, %s; device: %s; CPU: %s; medians of %d "
          "runs" % (options.checks, options.workload, workload["describe"],
                    device, schedulers.cpu_name(), options.repeats))
    print("%8s  %-14s %12s %12s %8s" % ("pixels", "scheduler", "checks ms",
                                         "off ms", "ratio"))
    for size, scheduler, on, off in rows:
        print("%8d  %-14s %12.1f %12.1f %8.3f" % (size, scheduler, on, off,
                                                   on / off if off else 0))


if __name__ == "__main__":
    main()

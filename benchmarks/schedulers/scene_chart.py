#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""One chart of several schedulers.py runs: a group per scene (per JSON
file), a bar per configuration, its GPU time as a ratio to the mega-kernel
of the same run (shorter is faster; 1.00x is the mega-kernel), on one
scale, a configuration in one colour throughout.

    scene_chart.py OUT.png TITLE RUN.json[=GROUP TITLE] ...

Each RUN.json is what `schedulers.py --json` wrote; its first size is
charted. The group title defaults to the workload and, for the path
tracers, the depth settings.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chart import write_bar_chart  # noqa: E402


def describe(run):
    """A group title for a schedulers.py summary."""
    title = run.get("scene") or run.get("workload", "")
    if "max_depth" in run:
        title += " (%d, %d)" % (run["max_depth"], run["rr_depth"])
    return title


def group_of(path, title):
    with open(path) as f:
        run = json.load(f)
    rows = run["results"]
    if not rows:
        sys.exit("scene_chart.py: %s has no results" % path)
    size = rows[0]["size"]
    entries = [(row["config"], row["vs_megakernel"],
                "%.2fx  %.1f ms" % (row["vs_megakernel"], row["gpu_ms"]))
               for row in rows
               if row["size"] == size and row.get("vs_megakernel")]
    return (title or describe(run), entries)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("title")
    parser.add_argument("runs", nargs="+", metavar="RUN.json[=TITLE]")
    options = parser.parse_args()
    groups = []
    for spec in options.runs:
        path, _, title = spec.partition("=")
        groups.append(group_of(path, title))
    write_bar_chart(options.output, options.title, groups, shared_scale=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Fails when an #include crosses the layering of docs/README.md ("Where
each stage lives") upward: a layer includes only itself and the layers
below it. Prints each crossing as FILE:LINE: LAYER includes LAYER
(HEADER) and exits 1; prints the number of files checked otherwise.

Layers, lowest first (a directory of include/CoroGPU/ and lib/, or
runtime/): the runtime (no MLIR, no LLVM: plain C++ the compiler and the
host side share), the dialects, their utilities, the analyses, the
transformations (front half, split, frames), the target fix-ups, the
schedulers (Conversion), the pipelines, the Runner, host programs, then
registration and plugins, which see everything, as do the tools."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (layer, the layers it may include besides itself)
RULES = {
    "runtime": set(),
    "Dialect": {"runtime"},
    "Analysis": {"runtime", "Dialect"},
    "Transforms": {"runtime", "Dialect", "Analysis"},
    "Target": {"runtime", "Dialect", "Analysis"},
    "Conversion": {"runtime", "Dialect", "Analysis", "Target"},
    "Pipelines": {"runtime", "Dialect", "Analysis", "Transforms", "Target",
                  "Conversion"},
    "Runner": {"runtime", "Dialect", "Analysis", "Transforms", "Target",
               "Conversion", "Pipelines"},
    "HostPrograms": {"runtime", "Dialect", "Analysis", "Transforms", "Target",
                     "Conversion", "Pipelines", "Runner"},
}
# What the runtime may not include at all (it knows nothing of MLIR).
RUNTIME_FORBIDDEN = re.compile(r'^(mlir|llvm|CoroGPU)/')
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')


def layer_of_path(rel):
    """The layer of a source file (repository-relative path), or None."""
    parts = rel.split(os.sep)
    if parts[0] == "runtime":
        return "runtime"
    if parts[0] == "lib" and len(parts) > 1:
        return parts[1] if parts[1] in RULES else None
    if parts[:2] == ["include", "CoroGPU"] and len(parts) > 2:
        return parts[2] if parts[2] in RULES else None
    return None


def layer_of_header(header):
    if header.startswith("corogpu/runtime/"):
        return "runtime"
    m = re.match(r"CoroGPU/([^/]+)/", header)
    if m and m.group(1) in RULES:
        return m.group(1)
    return None


def main():
    crossings = []
    checked = 0
    for top in ("include", "lib", "runtime"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".inc", ".def")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT)
                layer = layer_of_path(rel)
                if layer is None:
                    continue
                checked += 1
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        header = m.group(1)
                        if layer == "runtime":
                            if RUNTIME_FORBIDDEN.match(header):
                                crossings.append("%s:%d: runtime includes %s (the runtime knows nothing of MLIR)" % (rel, number, header))
                            continue
                        included = layer_of_header(header)
                        if included and included != layer and included not in RULES[layer]:
                            crossings.append("%s:%d: %s includes %s (%s)" % (
                                rel, number, layer, included, header))
    for crossing in crossings:
        print(crossing)
    if crossings:
        print("check-layering: %d includes cross the layers of docs/README.md upward"
              % len(crossings))
        return 1
    print("check-layering: %d files, no include crosses a layer upward" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what is missing, builds, and runs the demo: a shading coroutine is
# described, split into subroutines (with its transition graph), and run on
# the default backend (Vulkan; Mesa's lavapipe where there is no GPU) under
# the state-machine scheduler, checked against the mega-kernel reference.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
example="$root/examples/shade.mlir"
graphs="$build/demo-graphs"

echo
echo "== coro-run --list $example"
"$build/bin/coro-run" "$example" --list

echo
echo "== split @shade: subroutines and transition graph ($graphs/shade.dot)"
"$build/bin/coro-opt" "$example" --coro-expand-yield \
  --coro-normalize-control-flow --coro-split \
  "--coro-dump-graph=output-dir=$graphs" | grep -E '^  (func.func|coro.split) @shade'
cat "$graphs/shade.dot"

echo
echo "== run @shade on Vulkan: 16 pixels, 3 bounces, state-machine scheduler, --check"
"$build/bin/coro-run" "$example" --coro=shade --grid=16 --arg=3 \
  --buffer=f32:16:zeros --scheduler=state-machine --check --validate --timing

echo
echo "== the same under the wavefront scheduler: 5 slots (in-place refills), AoS frames"
"$build/bin/coro-run" "$example" --coro=shade --grid=16 --arg=3 \
  --buffer=f32:16:zeros --scheduler=wavefront --capacity=5 --layout=aos \
  --check --validate --scheduler-stats

echo
echo "== and under the persistent-threads scheduler: 8 slots per workgroup"
"$build/bin/coro-run" "$example" --coro=shade --grid=16 --arg=3 \
  --buffer=f32:16:zeros --scheduler=persistent --persistent-batch=8 \
  --check --validate --scheduler-stats

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs every benchmark workload under every scheduler (and the hand split,
# where there is one) with benchmarks/schedulers/schedulers.py, and writes
# into OUT (default benchmarks/out): per workload the table (.txt), the
# measurements (.json, .csv), a bar chart (.chart.png) and each scheduler's
# image at the largest size (images/); then one chart of every workload's
# ratios to the mega-kernel (all.chart.png).
#
#   benchmarks/run-all.sh [OUT] [extra schedulers.py arguments...]
#
# Sizes: SIZES_PATHTRACER, SIZES_SDF, SIZES_BVH (comma-separated pixels),
# REPEATS and PASSES (interleaved passes over the configurations, paired
# ratios; default 1) override the defaults, which finish in a few minutes
# on lavapipe;
# on a GPU, e.g. SIZES_BVH=262144,1048576 REPEATS=5 and --backend=cuda.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/benchmarks/out}
shift || true
mkdir -p "$out/images"
harness=("python3" "$root/benchmarks/schedulers/schedulers.py"
         --coro-run "${CORO_RUN:-$root/build/bin/coro-run}"
         --repeats "${REPEATS:-5}" --passes "${PASSES:-1}")

run() {
  local workload=$1 sizes=$2
  shift 2
  echo "== $workload ($sizes pixels)"
  "${harness[@]}" --workload "$workload" --sizes "$sizes" \
    --json "$out/$workload.json" --csv "$out/$workload.csv" \
    --chart "$out/$workload.chart.png" --images "$out/images" "$@" |
    tee "$out/$workload.txt"
}

run pathtracer "${SIZES_PATHTRACER:-65536,262144}" "$@"
run sdf "${SIZES_SDF:-16384,65536}" "$@"
run cornell "${SIZES_BVH:-4096,16384}" "$@"
run showcase "${SIZES_BVH:-4096,16384}" "$@"
# Every workload on one chart: each configuration's GPU time as a ratio to
# the mega-kernel of its run, at the first size.
python3 "$root/benchmarks/schedulers/scene_chart.py" "$out/all.chart.png" \
  "GPU time vs the mega-kernel" "$out/pathtracer.json" "$out/sdf.json" \
  "$out/cornell.json" "$out/showcase.json"
echo "wrote $out/all.chart.png"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A long differential-fuzzing campaign (tools/coro-fuzz): SEEDS random
# coroutine programs (default 1-1000) under every scheduler configuration
# on the Vulkan device coro-run picks, each compared with the CPU oracle,
# every SPIR-V module through spirv-val and every scheduler's PTX through
# ptxas (where present); failures are reduced. Writes into OUT (default
# benchmarks/fuzz/out): summary.md (the class x configuration table),
# summary.json, failures/ and reduced/, and prints the table.
#
#   benchmarks/fuzz/run-campaign.sh [OUT] [extra coro-fuzz run arguments...]
#
# SEEDS=1-1000 takes about 40 minutes on 2 cores with lavapipe; JOBS sets
# the seeds run in parallel (default: the number of CPUs). The result of
# the last campaign is in benchmarks/fuzz/RESULTS.md.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$root/benchmarks/fuzz/out}
shift || true
jobs=${JOBS:-$(nproc)}
status=0
python3 "$root/tools/coro-fuzz/coro-fuzz" run --seeds "${SEEDS:-1-1000}" \
  --jobs "$jobs" --out "$out" --reduce \
  --coro-run "${CORO_RUN:-$root/build/bin/coro-run}" "$@" || status=$?
echo "== $(date -u +%Y-%m-%d) on $(uname -m), $(nproc) cores; table in $out/summary.md"
exit $status

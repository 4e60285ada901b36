#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo: a coroutine is
# described, split into subroutines (with its transition graph), and run on
# the CPU both as the mega-kernel reference and as the split program under the
# state-machine scheduler. (GPU backends arrive with the runtime.)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
example="$root/examples/shade.mlir"
program="$root/test/e2e/cpu/front-end.mlir"
graphs="$build/demo-graphs"
llvm=/usr/lib/llvm-22
front_half=(--coro-inline-callables --coro-inline-awaits --coro-expand-yield
            --coro-normalize-control-flow)
to_llvm=(--convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts)
run_cpu=("$llvm/bin/mlir-runner" -e main --entry-point-result=void
         "--shared-libs=$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so")

echo
echo "== coro-run --list $example"
"$build/bin/coro-run" "$example" --list

echo
echo "== split @shade: subroutines and transition graph ($graphs/shade.dot)"
"$build/bin/coro-opt" "$example" "${front_half[@]}" --coro-split \
  "--coro-dump-graph=output-dir=$graphs" | grep -E '^  (func.func|coro.split)'
cat "$graphs/shade.dot"

echo
echo "== $program on the CPU: mega-kernel reference"
"$build/bin/coro-opt" "$program" "${front_half[@]}" --coro-megakernel-to-func \
  "${to_llvm[@]}" | "${run_cpu[@]}" | grep -v base@
echo "== the same, split, under the state-machine scheduler"
"$build/bin/coro-opt" "$program" "${front_half[@]}" --coro-split \
  --coro-state-machine-to-func "${to_llvm[@]}" | "${run_cpu[@]}" | grep -v base@

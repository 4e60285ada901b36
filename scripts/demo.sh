#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo: a coroutine with
# suspension points and a generator, described by coro-run and lowered by a
# coro-opt pipeline. (Execution backends arrive with the runtime.)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
example="$root/examples/shade.mlir"

echo
echo "== coro-run --list $example"
"$build/bin/coro-run" "$example" --list
echo
echo "== coro-opt --coro-expand-yield --canonicalize $example"
"$build/bin/coro-opt" "$example" --coro-expand-yield --canonicalize

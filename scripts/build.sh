#!/usr/bin/env bash
# Installs what is missing, then configures and builds CoroGPU in ./build
# (override with CORO_BUILD_DIR). Safe to run again: only the changes rebuild.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"

# CORO_ASSERTIONS=ON|OFF (scripts/test.sh: ON) sets COROGPU_ENABLE_ASSERTIONS;
# unset, a new build has them off and an existing one keeps its setting.
assertions=()
if [[ -n "${CORO_ASSERTIONS:-}" ]]; then
  assertions=("-DCOROGPU_ENABLE_ASSERTIONS=$CORO_ASSERTIONS")
fi
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    "${assertions[@]}"
elif [[ ${#assertions[@]} -gt 0 ]]; then
  cmake -B "$build" "${assertions[@]}" >/dev/null
fi
cmake --build "$build"

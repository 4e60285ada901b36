#!/usr/bin/env bash
# Installs what is missing, then configures and builds CoroGPU in ./build
# (override with CORO_BUILD_DIR). Safe to run again: only the changes rebuild.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"

if [[ ! -f "$build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build"

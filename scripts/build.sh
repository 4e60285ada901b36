#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what is missing, then configures and builds CoroGPU in ./build
# (override with CORO_BUILD_DIR). Safe to run again: only the changes rebuild.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"

# CORO_ASSERTIONS=ON|OFF sets COROGPU_ENABLE_ASSERTIONS, CoroGPU's own
# asserts (LLVM and MLIR stay the installed release build). On by default,
# so that scripts/demo.sh and scripts/test.sh share one build: switching
# recompiles everything (ccache keeps both). They check the compiler, not
# the kernels it generates, so GPU times are the same either way.
assertions="-DCOROGPU_ENABLE_ASSERTIONS=${CORO_ASSERTIONS:-ON}"
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    "$assertions"
else
  cmake -B "$build" "$assertions" >/dev/null
fi
cmake --build "$build"

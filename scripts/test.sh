#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test suite through ctest:
# lit (FileCheck, -verify-diagnostics, plugins), GoogleTest unit tests, the
# reference-docs check and the external find_package(CoroGPU) consumer.
# The build has CoroGPU's own asserts on (COROGPU_ENABLE_ASSERTIONS; LLVM and
# MLIR stay the installed release build), so the suites run them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

CORO_ASSERTIONS=ON "$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --verbose

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what is missing, builds, and runs every test suite through ctest:
# lit (FileCheck, -verify-diagnostics, plugins), GoogleTest unit tests, the
# reference-docs check and the external find_package(CoroGPU) consumer.
# The build (scripts/build.sh, the demo's too) has CoroGPU's own asserts on
# (COROGPU_ENABLE_ASSERTIONS; LLVM and MLIR stay the installed release
# build), so the suites run them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
cd "$build"
# Four lit entries, the unit tests, the docs and package checks, the style
# check; `ctest -R lit-passes` (or lit-e2e, lit-e2e-corpus, lit-fuzz, unit)
# runs one of them.
ctest --output-on-failure --verbose

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

# The corogpu Python package for Debian's /usr/bin/python3 (the interpreter
# whose NumPy and pytest install-deps.sh installed): a .pth file in its
# site-packages names the build's package directory, so that
# `/usr/bin/python3 -c "import corogpu"` works from anywhere, whatever
# `python3` comes first on PATH. Python's own `import corogpu` then finds
# the copy `cmake --build` keeps up to date.
package_dir="$build/python_packages"
if [[ -d "$package_dir/corogpu" && -x /usr/bin/python3 ]]; then
  site=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])')
  pth="$site/corogpu.pth"
  if [[ "$(cat "$pth" 2>/dev/null)" != "$package_dir" ]]; then
    SUDO=""
    [[ $(id -u) -ne 0 && ! -w "$site" ]] && SUDO="sudo"
    $SUDO mkdir -p "$site"
    echo "$package_dir" | $SUDO tee "$pth" >/dev/null
    echo "build: /usr/bin/python3 imports corogpu from $package_dir ($pth)"
  fi
fi

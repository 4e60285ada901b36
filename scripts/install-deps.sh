#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs every Debian package CoroGPU needs to build and test. Idempotent: when
# everything is present it only runs dpkg-query and returns in well under a second.
set -euo pipefail

packages=(
  # Build.
  cmake ninja-build ccache g++ python3
  # LLVM/MLIR 22 (see shared TOOLCHAIN facts in docs/).
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  # Unit tests; NumPy for the tutorial's commands (docs/tutorial.md).
  libgtest-dev python3-numpy
  # The corogpu Python package (python/) for Debian's /usr/bin/python3: its
  # headers, pybind11 for the native module, pytest for its tests,
  # matplotlib for the examples' images.
  python3-dev pybind11-dev python3-pytest python3-matplotlib
  # Generated-code validation; the SPIR-V enums the runtime reads modules
  # with.
  spirv-tools spirv-headers
  # The style check of changed C++ (scripts/check-style.sh).
  clang-format clang-tidy
  # GLSL compiler of the driver-only reproducers (test/e2e/known/driver).
  glslang-tools
  # The Vulkan runtime, run on Mesa's lavapipe CPU driver with the Khronos
  # validation layer in tests.
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Packs what a bare GPU machine needs to run CoroGPU's CUDA checks
# (scripts/device/cuda-checks.sh) into .dev/ (git-ignored): coro-run and
# coro-opt of build/, the LLVM/MLIR 22 libraries they load, mlir-opt,
# mlir-runner and the runner libraries of the fuzzer's CPU oracle, and the
# Vulkan loader packages. xz keeps it under 64 MiB: about 62 MB, 4 minutes
# on 2 cores. The machine needs an NVIDIA driver, python3 and ptxas.
#
#   bash scripts/build.sh && bash scripts/device/pack.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
llvm=/usr/lib/llvm-22
out=$root/.dev
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/libs" "$work/bin"
# Every shared library coro-run and the oracle's tools load that is not part
# of a C/C++ runtime every Linux has.
for binary in "$root/build/bin/coro-run" "$llvm/bin/mlir-runner" \
    "$llvm/lib/libmlir_c_runner_utils.so"; do
  ldd "$binary" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|ld-linux[^/]*)\.so' |
  while read -r library; do cp -L "$library" "$work/libs/"; done
cp -L "$llvm"/lib/libmlir_runner_utils.so "$llvm"/lib/libmlir_c_runner_utils.so "$work/libs/"
cp -L "$llvm"/bin/mlir-opt "$llvm"/bin/mlir-runner "$root"/build/bin/coro-run \
  "$root"/build/bin/coro-opt "$work/bin/"
echo "pack: $(du -sh "$work" | cut -f1) to compress"
tar cf - -C "$work" libs bin | xz -T0 --x86 --lzma2=preset=9e,dict=64MiB > "$out/coro-dev.tar.xz"
# The Vulkan and GL loaders NVIDIA's Vulkan driver there needs.
mkdir -p "$out/debs" /tmp/corogpu-apt/partial
apt_options=(-oAPT::Architecture=amd64 -oDir::State::Lists=/tmp/corogpu-apt)
apt-get "${apt_options[@]}" update >/dev/null
(cd "$out/debs" && apt-get "${apt_options[@]}" download libvulkan1 libegl1 \
  libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1) ||
  { echo "pack: apt-get download of the Vulkan/GL loaders failed" >&2; exit 1; }
du -cb "$out" | tail -1 | awk '{printf "pack: .dev/ holds %.1f MB\n", $1 / 1e6}'

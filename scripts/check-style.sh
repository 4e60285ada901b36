#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Style check of the C++: clang-format (LLVM style, .clang-format) must leave
# every tracked C/C++ file of the tree as it is, and clang-tidy (the checks of
# .clang-tidy, upstream MLIR's) must find nothing in the .cpp files a change
# touches, with the compile commands of the build directory (clang-tidy over
# the whole tree takes the better part of an hour on two cores).
#
#   scripts/check-style.sh [BASE]
#
# The change is the files changed since BASE (default HEAD~1, the last
# commit; all C++ files when the clone has no history before HEAD). Uses
# clang-format and clang-tidy from PATH (scripts/install-deps.sh installs
# them); exits 1 when either tool objects, 2 on a usage error.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${CORO_BUILD_DIR:-$root/build}
base=${1:-HEAD~1}
cd "$root"

for tool in clang-format clang-tidy; do
  if ! command -v "$tool" >/dev/null; then
    echo "check-style: error: $tool is not on PATH (scripts/install-deps.sh installs it)" >&2
    exit 2
  fi
done
if [[ ! -f "$build/compile_commands.json" ]]; then
  echo "check-style: error: no $build/compile_commands.json; build first" >&2
  exit 2
fi

mapfile -t tracked < <(git ls-files -- '*.cpp' '*.h' '*.c')
if git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  mapfile -t files < <(git diff --name-only --diff-filter=d "$base" -- \
    '*.cpp' '*.h' '*.c')
  what="changed since $base"
else
  files=("${tracked[@]}")
  what="in the tree ($base is not a commit here)"
fi
echo "check-style: clang-format on ${#tracked[@]} tracked C++ files; ${#files[@]} $what"

status=0
for file in "${tracked[@]}"; do
  if ! clang-format --dry-run -Werror "$file" 2>/dev/null; then
    echo "check-style: $file is not clang-formatted; run: clang-format -i $file"
    status=1
  fi
done
# clang-tidy on the changed .cpp files the build compiles (test inputs and
# examples have no compile command), one per core.
tidy=()
for file in "${files[@]}"; do
  [[ "$file" == *.cpp ]] || continue
  grep -q "\"file\": \"$root/$file\"" "$build/compile_commands.json" &&
    tidy+=("$file")
done
if ((${#tidy[@]} > 0)); then
  echo "check-style: clang-tidy on ${#tidy[@]} files"
  if ! printf '%s\0' "${tidy[@]}" | xargs -0 -n 1 -P "$(nproc)" \
      clang-tidy --quiet -p "$build" --warnings-as-errors='*' 2>/dev/null; then
    echo "check-style: clang-tidy objects (above)"
    status=1
  fi
fi
if ((status == 0)); then
  echo "check-style: clean"
fi
exit $status

#!/usr/bin/env bash
# CoroGPU's checks on a GPU machine, in one call (what scripts/device/pack.sh
# packed travels in .dev/): the e2e corpus under every scheduler on CUDA and,
# where NVIDIA's Vulkan driver is found, on Vulkan; random programs under
# every configuration on CUDA against the CPU oracle; then the scheduler
# benchmarks on CUDA. Logs and results go to $OUT (default ./device-out).
# About 6 minutes on one H100 with 16 cores.
#
#   FUZZ_SEEDS=1-120 BENCH="showcase cornell" SIZES=262144,1048576 \
#     BENCH_ARGS="--state-machine-steps=16" bash scripts/device/cuda-checks.sh
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
OUT=${OUT:-$root/device-out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/main.log") 2>&1
echo "== $(date -u) setup"
tools=/tmp/corogpu-dev
mkdir -p "$tools"
tar xJf .dev/coro-dev.tar.xz -C "$tools" || exit 1
for deb in .dev/debs/*.deb; do dpkg -x "$deb" /; done
ldconfig
# Appended: the image may find libcuda through LD_LIBRARY_PATH.
export LD_LIBRARY_PATH=$tools/libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
    /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES=$icd && break
done
nvidia-smi -L
coro_run=$tools/bin/coro-run
ldd "$coro_run" | grep "not found" && exit 1
jobs=()
corpus() { # backend name filter coro-run-arguments...
  local backend=$1 name=$2 filter=$3
  shift 3
  { echo "## $backend/$name: $*"
    timeout 300 python3 test/e2e/run-corpus.py --coro-run "$coro_run" \
      --filter="$filter" -- --backend="$backend" "$@" 2>&1 | grep -v '^PASS'
    # A run the time limit stopped prints no summary: say so.
    [ "${PIPESTATUS[0]}" = 124 ] && echo "corpus: stopped by the time limit"
  } > "/tmp/corpus-$backend-$name.log"
}
# The corpus suites of test/e2e/corpus/litcorpus.py's cuda/* (lit needs the
# build tree's paths; run-corpus.py does not), and a few more.
corpus cuda megakernel '' --scheduler=megakernel & jobs+=($!)
corpus cuda state-machine '' --scheduler=state-machine & jobs+=($!)
corpus cuda state-machine-2-steps '' --scheduler=state-machine \
  --state-machine-steps=2 & jobs+=($!)
corpus cuda wavefront '' --scheduler=wavefront & jobs+=($!)
corpus cuda wavefront-aos-3-slots '' --scheduler=wavefront --layout=aos \
  --capacity=3 --compact-below=50 & jobs+=($!)
corpus cuda wavefront-sorted material-sort --scheduler=wavefront \
  --capacity=17 --sort-by=material --hint-buckets=8 & jobs+=($!)
corpus cuda persistent '' --scheduler=persistent & jobs+=($!)
corpus cuda persistent-aos-extension '' --scheduler=persistent --layout=aos \
  --persistent-batch=100 --persistent-shared-memory=2048 & jobs+=($!)
corpus cuda wavefront-check-bounds '' --scheduler=wavefront --check-bounds & jobs+=($!)
if [ -n "${VK_DRIVER_FILES:-}" ]; then
  for scheduler in megakernel state-machine wavefront persistent; do
    corpus vulkan "$scheduler" '' --scheduler="$scheduler" & jobs+=($!)
  done
fi
# Size FUZZ_SEEDS to end within the limit: a stopped run writes no summary.
CORO_FUZZ_LLVM_BIN=$tools/bin CORO_FUZZ_LLVM_LIB=$tools/libs timeout 200 \
  python3 tools/coro-fuzz/coro-fuzz run --backend cuda --no-spirv \
  --seeds "${FUZZ_SEEDS:-1-120}" --jobs 8 --out /tmp/corogpu-fuzz \
  --coro-run "$coro_run" > /tmp/corogpu-fuzz.log 2>&1
echo "fuzz exit $?"
wait "${jobs[@]}"
cat /tmp/corpus-*.log > "$OUT/corpus.log"
grep -h "^## \|^corpus:" /tmp/corpus-*.log
tail -14 /tmp/corogpu-fuzz.log
tar czf "$OUT/fuzz.tgz" -C /tmp corogpu-fuzz corogpu-fuzz.log
mkdir -p "$OUT/bench"
# BENCH= (empty) skips the benchmarks; BENCH_ARGS adds schedulers.py options.
for workload in ${BENCH-showcase cornell}; do
  # shellcheck disable=SC2086
  timeout "${BENCH_LIMIT:-120}" python3 benchmarks/schedulers/schedulers.py \
    --coro-run "$coro_run" --backend cuda --workload "$workload" \
    --sizes "${SIZES:-262144,1048576}" --repeats 5 ${BENCH_ARGS:-} \
    --json "$OUT/bench/$workload.json" | tee "$OUT/bench/$workload.txt"
done
echo "== $(date -u) done"

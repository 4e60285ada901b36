#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# CoroGPU's checks on a GPU machine, in one call (what scripts/device/pack.sh
# packed travels in .dev/): the scheduler benchmarks on CUDA (the heavy
# path tracer, the BVH scenes, where persistent threads' time goes, CUDA
# graphs of recorded rounds, the lane profile); the e2e corpus
# under every scheduler on CUDA and, where NVIDIA's Vulkan driver is found,
# on Vulkan; gpu.printf under every scheduler on CUDA; then random programs
# under every configuration on CUDA against the CPU oracle. Logs and results go to $OUT (default ./device-out).
# The benchmarks run first, alone on the machine; BENCH_LIMIT, CORPUS_LIMIT
# and FUZZ_LIMIT bound each phase so that the call ends inside its lease.
#
#   HEAVY_SPP=2 FUZZ_SEEDS=1-40 BENCH="showcase cornell" SIZES=262144,1048576 \
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
echo "== $(date -u) benchmarks"
mkdir -p "$OUT/bench"
# The shading-heavy path tracer (benchmarks/heavy) at the paper's
# conditions: 1280 x 720 pixels, HEAVY_SPP samples each as instances, at
# (10, 2) and (24, 5), every scheduler checked against the mega-kernel
# (HEAVY= skips it; building the 220,000-triangle scene takes about 40 s).
if [ -n "${HEAVY-1}" ]; then
  for depths in "10 2" "24 5"; do
    set -- $depths
    # shellcheck disable=SC2086
    timeout "${HEAVY_LIMIT:-200}" python3 benchmarks/schedulers/schedulers.py \
      --coro-run "$coro_run" --backend cuda --workload heavy \
      --sizes 921600 --width 1280 --spp "${HEAVY_SPP:-2}" \
      --max-depth "$1" --rr-depth "$2" --repeats 5 \
      --wavefront wavefront,wavefront-tail,wavefront-classify,wavefront-sort-material,wavefront-sort-material-classify \
      --json "$OUT/bench/heavy-$1-$2.json" | tee "$OUT/bench/heavy-$1-$2.txt"
  done
fi
# BENCH= (empty) skips the benchmarks; BENCH_ARGS adds schedulers.py options.
for workload in ${BENCH-showcase cornell}; do
  # shellcheck disable=SC2086
  timeout "${BENCH_LIMIT:-120}" python3 benchmarks/schedulers/schedulers.py \
    --coro-run "$coro_run" --backend cuda --workload "$workload" \
    --sizes "${SIZES:-262144,1048576}" --repeats 5 ${BENCH_ARGS:-} \
    --json "$OUT/bench/$workload.json" | tee "$OUT/bench/$workload.txt"
done
# Where persistent threads' 1.2-2.4x goes on a GPU (issue 38, item 3): the
# defaults beside one warp per workgroup (its barriers within a warp), one
# slot per thread (no queue walk), 16 slots per thread (frames in the
# extension), fall-through and frame swapping, on the Cornell box at 1024^2
# (PERSISTENT_ABLATION= skips it).
if [ -n "${PERSISTENT_ABLATION-1}" ]; then
  timeout "${PERSISTENT_LIMIT:-100}" python3 benchmarks/schedulers/schedulers.py \
    --coro-run "$coro_run" --backend cuda --workload cornell \
    --sizes 1048576 --repeats 5 --state-machine "" --wavefront "" \
    --persistent persistent,persistent-warp,persistent-batch-64,persistent-batch-1024,persistent-fall-through,persistent-swap,persistent-gme \
    --json "$OUT/bench/persistent-ablation.json" |
    tee "$OUT/bench/persistent-ablation.txt"
fi
# Each submission's rounds as one CUDA graph (--replay-rounds, never run on
# a GPU before) against launches one by one, automatic and hand split: wall
# ms is the fair comparison (a graph is timed whole, gaps included).
# REPLAY_BENCH= skips it.
if [ -n "${REPLAY_BENCH-1}" ]; then
  timeout "${REPLAY_LIMIT:-100}" python3 benchmarks/schedulers/schedulers.py \
    --coro-run "$coro_run" --backend cuda --workload cornell \
    --sizes 262144,1048576 --repeats 5 --state-machine "" --persistent "" \
    --wavefront wavefront,wavefront-replay --hand-split wavefront,wavefront-replay \
    --json "$OUT/bench/replay.json" | tee "$OUT/bench/replay.txt"
fi
# The paper's Table 2 with warps of 32 (LANE_SIZE= skips it).
if [ -n "${LANE_SIZE-512}" ]; then
  timeout "${BENCH_LIMIT:-120}" python3 benchmarks/pathtracer/lane_profile.py \
    --coro-run "$coro_run" --backend cuda --size "${LANE_SIZE:-512}" |
    tee "$OUT/bench/lane-profile.md"
fi
# The corpus suites run CORPUS_JOBS at a time, before the fuzzer and not
# beside it: each coro-run compiles its kernels on the CPU (0.5 s for the
# mega-kernel on CUDA there, 2026-11-26), and 20 suites beside 8 fuzz jobs
# overloaded the 16 cores so much that no suite ended in 200 s. A command
# that outlasts CORPUS_TIMEOUT fails its entry (run-corpus --timeout), so a
# kernel that never ends costs one entry, not the call.
suites=()
# The suites together end by CORPUS_LIMIT seconds after this point: a suite
# still running then is stopped and says so in its log.
corpus_deadline=$((SECONDS + ${CORPUS_LIMIT:-300}))
corpus() { # backend name mode filter coro-run-arguments...
  local backend=$1 name=$2 mode=$3 filter=$4
  shift 4
  while [ "$(jobs -rp | wc -l)" -ge "${CORPUS_JOBS:-8}" ]; do sleep 0.2; done
  local left=$((corpus_deadline - SECONDS))
  [ "$left" -gt 0 ] || { echo "## $backend/$name: not run, CORPUS_LIMIT reached" > "/tmp/corpus-$backend-$name.log"; return; }
  { echo "## $backend/$name ($mode): $*"
    timeout "$left" python3 test/e2e/run-corpus.py --coro-run "$coro_run" --times \
      --timeout "${CORPUS_TIMEOUT:-30}" --mode="$mode" --filter="$filter" \
      -- --backend="$backend" "$@" 2>&1
    [ $? -eq 124 ] && echo "corpus: stopped at CORPUS_LIMIT"
  } > "/tmp/corpus-$backend-$name.log" &
  suites+=($!)
}
# The corpus suites of test/e2e/corpus/litcorpus.py's cuda/* (lit needs the
# build tree's paths; run-corpus.py does not), and a few more.
corpus cuda megakernel check '' --scheduler=megakernel
corpus cuda state-machine check '' --scheduler=state-machine
corpus cuda state-machine-2-steps check '' --scheduler=state-machine \
  --state-machine-steps=2
corpus cuda wavefront check '' --scheduler=wavefront
corpus cuda wavefront-classify check '' --scheduler=wavefront \
  --wavefront-design=classify
corpus cuda wavefront-lane-appends check '' --scheduler=wavefront \
  --wavefront-subgroup-appends=false
corpus cuda wavefront-aos-3-slots check '' --scheduler=wavefront --layout=aos \
  --capacity=3 --compact-below=50
corpus cuda wavefront-sorted check material-sort --scheduler=wavefront \
  --capacity=17 --sort-by=material --hint-buckets=8
corpus cuda wavefront-sorted-classify check material-sort \
  --scheduler=wavefront --capacity=17 --sort-by=material --hint-buckets=8 \
  --wavefront-design=classify
corpus cuda wavefront-tail check '' --scheduler=wavefront --capacity=9 \
  --wavefront-tail-below=100
# CUDA's kernels always stride over their queues, with a grid sized to the
# GPU; here one workgroup loops over every queue.
corpus cuda wavefront-1-group check '' --scheduler=wavefront --capacity=17 \
  --wavefront-stride-workgroups=1
# Each submission's rounds recorded once as a CUDA graph and launched again.
corpus cuda wavefront-replay check '' --scheduler=wavefront \
  --rounds-per-check=1 --replay-rounds
corpus cuda wavefront-replay-tail check '' --scheduler=wavefront \
  --capacity=9 --wavefront-tail-below=100 --rounds-per-check=2 --replay-rounds
corpus cuda persistent check '' --scheduler=persistent
corpus cuda persistent-aos-extension check '' --scheduler=persistent \
  --layout=aos --persistent-batch=100 --persistent-shared-memory=2048
corpus cuda persistent-swap-frames check '' --scheduler=persistent \
  --persistent-batch=100 --persistent-shared-memory=3072 \
  --persistent-swap-frames
corpus cuda wavefront-check-bounds bounds '' --scheduler=wavefront
corpus cuda persistent-check-bounds bounds '' --scheduler=persistent
# The lane profile's warp reductions (inline asm, sm_80+) on a real GPU.
corpus cuda profile-megakernel profile '' --scheduler=megakernel
corpus cuda profile-state-machine-1-step profile '' \
  --scheduler=state-machine --state-machine-steps=1
corpus cuda profile-wavefront profile '' --scheduler=wavefront
if [ -n "${VK_DRIVER_FILES:-}" ]; then
  for scheduler in megakernel state-machine wavefront persistent; do
    corpus vulkan "$scheduler" check '' --scheduler="$scheduler"
  done
  corpus vulkan wavefront-grid-stride check '' --scheduler=wavefront \
    --wavefront-grid-stride
  corpus vulkan profile-wavefront profile '' --scheduler=wavefront
fi
# Not a bare `wait`: it would also wait for the `tee` above, which never ends.
wait "${suites[@]}"
cat /tmp/corpus-*.log > "$OUT/corpus.log"
grep -h "^## \|^FAIL\|^corpus:" /tmp/corpus-*.log
echo "== $(date -u) printf"
# gpu.printf as vprintf (test/e2e/ptx/printf.mlir checks the PTX only): each
# scheduler prints 4 prefixed lines per instance ([#i @entry] once, [#i
# @shade] three times; the mega-kernel [#i]), and --check passes.
for scheduler in megakernel state-machine wavefront persistent; do
  timeout 60 "$coro_run" test/e2e/vulkan/printf.mlir --coro=prints --grid=3 \
    --arg=10 --buffer=i32:3:zeros --backend=cuda --scheduler="$scheduler" \
    --check --quiet > "$OUT/printf-$scheduler.log" 2>&1
  echo "printf $scheduler exit $?, $(grep -c '^\[#' "$OUT/printf-$scheduler.log") of 12 lines"
done
echo "== $(date -u) type matrix"
# Every type in every position (test/e2e/types), values checked, on CUDA.
timeout "${TYPES_LIMIT:-150}" python3 test/e2e/types/type_matrix.py \
  --coro-run "$coro_run" --backend cuda --jobs 12 > "$OUT/type-matrix.log" 2>&1
echo "type matrix exit $?"
grep -v "^PASS" "$OUT/type-matrix.log" | tail -20
echo "== $(date -u) fuzz"
# Size FUZZ_SEEDS to end within the limit: a stopped run writes no summary.
# The host-program configurations need the Vulkan validation layer: not here.
CORO_FUZZ_LLVM_BIN=$tools/bin CORO_FUZZ_LLVM_LIB=$tools/libs \
  timeout "${FUZZ_LIMIT:-200}" python3 tools/coro-fuzz/coro-fuzz run \
  --backend cuda --no-spirv --timeout "${CORPUS_TIMEOUT:-30}" --jobs 12 \
  --configs "${FUZZ_CONFIGS:-mk,sm,sm-steps,wf,wf-aos3,wf-1,wf-classify,wf-stride,wf-lane,wf-compact,wf-sort,wf-sort-classify,wf-replay,pt,pt-aos-small,pt-few,pt-swap,wf-bounds,pt-bounds,wf-profile,sm-profile}" \
  --seeds "${FUZZ_SEEDS:-1-40}" --out /tmp/corogpu-fuzz \
  --coro-run "$coro_run" > /tmp/corogpu-fuzz.log 2>&1
echo "fuzz exit $?"
tail -14 /tmp/corogpu-fuzz.log
tar czf "$OUT/fuzz.tgz" -C /tmp corogpu-fuzz corogpu-fuzz.log
echo "== $(date -u) done"

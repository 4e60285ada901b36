// The hand-split baseline of the shading-heavy path tracer (benchmarks/heavy:
// hand-written subroutines and frame layout in handsplit_kernels.mlir,
// assembled into handsplit.mlir by make_handsplit.py --workload=heavy, which
// must be up to date) runs under the wavefront and state-machine schedulers
// on the small version of its scene, 16 x 16 pixels at 2 samples per pixel,
// at the paper's (10, 2) and (24, 5) depth settings, with the validation
// layer and --check against the mega-kernel of the same algorithm.
// REQUIRES: vulkan
// RUN: %python %coro_src/benchmarks/make_handsplit.py --workload=heavy --check --coro-opt=coro-opt | FileCheck %s --check-prefix=FRESH
// FRESH: is up to date
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %coro_src/benchmarks/heavy/make_heavy_scene.py %t/shallow --detail=small --width=16 --height=16 --spp=2 --quiet
// RUN: %python %coro_src/benchmarks/heavy/make_heavy_scene.py %t/deep --detail=small --width=16 --height=16 --spp=2 --max-depth=24 --rr-depth=5 --quiet
// RUN: for scene in shallow deep; do \
// RUN:   for options in --scheduler=wavefront "--scheduler=wavefront --sort-by=material --hint-buckets=32" "--scheduler=wavefront --layout=aos --capacity=100 --compact-below=50" --scheduler=state-machine; do \
// RUN:     coro-run %coro_src/benchmarks/heavy/handsplit.mlir --coro=path_trace_heavy_hand $(cat %t/$scene/heavy.args) $options --check --validate --quiet || exit 1; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-COUNT-8: check: {{.*}} matches the mega-kernel reference on

// The hand-split baseline of the BVH path tracer (benchmarks/pathtracer:
// hand-written subroutines and frame layout in handsplit_kernels.mlir,
// assembled into handsplit.mlir by make_handsplit.py, which must be up to
// date) runs under the split schedulers on both scenes, with the validation
// layer and --check against the mega-kernel of the same algorithm.
// REQUIRES: vulkan
// RUN: %python %coro_src/benchmarks/make_handsplit.py --workload=pathtracer --check --coro-opt=coro-opt | FileCheck %s --check-prefix=FRESH
// FRESH: is up to date
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %coro_src/benchmarks/pathtracer/make_scene.py cornell %t/cornell --width=16 --height=16 --spp=1 > /dev/null
// RUN: %python %coro_src/benchmarks/pathtracer/make_scene.py cornell %t/deep --width=16 --height=16 --spp=2 --max-depth=24 --rr-depth=5 > /dev/null
// RUN: %python %coro_src/benchmarks/pathtracer/make_scene.py showcase %t/showcase --width=16 --height=16 --spp=1 > /dev/null
// RUN: for scene in cornell/cornell deep/cornell showcase/showcase; do \
// RUN:   for options in --scheduler=state-machine --scheduler=wavefront "--scheduler=wavefront --layout=aos --capacity=50 --compact-below=50"; do \
// RUN:     coro-run %coro_src/benchmarks/pathtracer/handsplit.mlir --coro=path_trace_hand $(cat %t/$scene.args) $options --check --validate --quiet || exit 1; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-COUNT-9: check: {{.*}} matches the mega-kernel reference on

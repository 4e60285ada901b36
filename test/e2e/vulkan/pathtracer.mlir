// The BVH path tracer (benchmarks/pathtracer: four suspension points, NEE
// with MIS, Russian roulette) on both scenes at 16x16 pixels, 1 spp, under
// every scheduler, with the validation layer and --check against the
// mega-kernel's image: the paper's (10, 2) depth setting on both scenes and
// (24, 5) on the Cornell box; the wavefront scheduler also with AoS frames,
// few slots and compaction, and with queues sorted by material; the
// persistent-threads scheduler also with AoS frames, most of them in the
// global memory extension, and one workgroup that takes a new batch while
// part of the last one still runs.
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %coro_src/benchmarks/pathtracer/make_scene.py cornell %t/cornell --width=16 --height=16 --spp=1 > /dev/null
// RUN: %python %coro_src/benchmarks/pathtracer/make_scene.py cornell %t/deep --width=16 --height=16 --spp=1 --max-depth=24 --rr-depth=5 > /dev/null
// RUN: %python %coro_src/benchmarks/pathtracer/make_scene.py showcase %t/showcase --width=16 --height=16 --spp=1 > /dev/null
// RUN: for scene in cornell/cornell deep/cornell showcase/showcase; do \
// RUN:   for options in --scheduler=state-machine --scheduler=wavefront "--scheduler=wavefront --layout=aos --capacity=50 --compact-below=50" "--scheduler=wavefront --sort-by=material --hint-buckets=4" --scheduler=persistent "--scheduler=persistent --layout=aos --persistent-batch=96 --persistent-shared-memory=4096 --persistent-threads=64"; do \
// RUN:     coro-run %coro_src/benchmarks/pathtracer/pathtracer.mlir --coro=path_trace $(cat %t/$scene.args) $options --check --validate --quiet || exit 1; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-COUNT-18: check: {{.*}} matches the mega-kernel reference on

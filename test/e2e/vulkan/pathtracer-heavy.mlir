// The shading-heavy path tracer (benchmarks/heavy: textured and noisy
// materials of seven BSDF types, one sample per instance) on the small
// version of its scene (about 3,100 triangles, 32 x 32 textures), 16 x 16
// pixels at 2 samples per pixel (512 instances), at the paper's (10, 2)
// and (24, 5) depth settings, under every scheduler with the validation
// layer and --check against the mega-kernel's samples; the wavefront
// scheduler also with queues sorted by material and with AoS frames, few
// slots and compaction, the persistent-threads scheduler also with AoS
// frames, most of them in the global memory extension. The mega-kernel is
// also checked against the CPU (its sin, cos, log and pow differ from
// lavapipe's in the last bits, which paths of 24 bounces amplify: hence
// the tolerance).
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %coro_src/benchmarks/heavy/make_heavy_scene.py %t/shallow --detail=small --width=16 --height=16 --spp=2 --quiet
// RUN: %python %coro_src/benchmarks/heavy/make_heavy_scene.py %t/deep --detail=small --width=16 --height=16 --spp=2 --max-depth=24 --rr-depth=5 --quiet
// RUN: for scene in shallow deep; do \
// RUN:   for options in --scheduler=state-machine --scheduler=wavefront "--scheduler=wavefront --sort-by=material --hint-buckets=32" "--scheduler=wavefront --layout=aos --capacity=100 --compact-below=50" --scheduler=persistent "--scheduler=persistent --layout=aos --persistent-batch=96 --persistent-shared-memory=4096 --persistent-threads=64"; do \
// RUN:     coro-run %coro_src/benchmarks/heavy/heavy.mlir --coro=path_trace_heavy $(cat %t/$scene/heavy.args) $options --check --validate --quiet || exit 1; \
// RUN:   done; \
// RUN:   coro-run %coro_src/benchmarks/heavy/heavy.mlir --coro=path_trace_heavy $(cat %t/$scene/heavy.args) --scheduler=megakernel --check=cpu --tolerance=1e-3 --quiet || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-6: check: {{.*}} matches the mega-kernel reference on
// CHECK: check: megakernel matches the CPU reference on
// CHECK-COUNT-6: check: {{.*}} matches the mega-kernel reference on
// CHECK: check: megakernel matches the CPU reference on

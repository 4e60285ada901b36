// Bad options and sort-by fields get one clear error each.
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=sort-by=nothing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=sort-by=radiance" 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=sort-by=material hint-buckets=0" 2>&1 | FileCheck %s --check-prefix=BUCKETS
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=workgroup-size=0" 2>&1 | FileCheck %s --check-prefix=WORKGROUP
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=layout=diagonal" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=design=fast" 2>&1 | FileCheck %s --check-prefix=DESIGN
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=sort-by=material design=queues" 2>&1 | FileCheck %s --check-prefix=QSORT

// MISSING: error: coro-wavefront-to-gpu: no coroutine has a promise field "nothing" to sort by (promise fields: radiance, material)
// FLOAT: :[[# @LINE + 6]]:1: error: 'coro.split' op sort-by field "radiance" must be an integer or index, not 'f32'
// BUCKETS: error: coro-wavefront-to-gpu: hint-buckets must be positive, got 0
// WORKGROUP: error: coro-wavefront-to-gpu: workgroup-size must be in [1, 2^31), got 0
// LAYOUT: for the --layout option: Cannot find option named 'diagonal'!
// DESIGN: for the --design option: Cannot find option named 'fast'!
// QSORT: :[[# @LINE + 1]]:1: error: 'coro.split' op sort-by "material" needs design=classify: the queue design has no hint buckets
coro.func @f(%out: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  coro.promise "radiance", %one : f32
  %m = arith.constant 2 : i32
  coro.promise "material", %m : i32
  coro.suspend
  coro.return
}

// RUN: coro-opt %s --coro-split --coro-materialize-frame --coro-wavefront-to-gpu=workgroup-size=32 | FileCheck %s

// The whole chain from a user coroutine: coro-split and
// coro-materialize-frame, then the scheduler. The other tests here start
// from the split form (queues.mlir from this coroutine's).
// CHECK:       module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 3, layout = "aosoa", subroutines = ["entry", "next"]>}, gpu.container_module}
// CHECK-NOT:   coro.split
// CHECK-NOT:   func.func
// CHECK-LABEL: gpu.func @f__wf_init(
// CHECK-SAME:    %{{[^:]*}}: index, %{{[^:]*}}: memref<?xi32>, %[[QUEUE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[STATE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: f32
// CHECK-LABEL: gpu.func @f__wf_advance(
// One kernel per subroutine: the entry starts new instances (word 30), the
// resumed one reads its count (word 53), each appends its slot.
// CHECK-LABEL: gpu.func @f__wf_0(
// CHECK:           memref.load %{{.*}}[%c30]
// CHECK:           memref.atomic_rmw addi
// CHECK-LABEL: gpu.func @f__wf_1(
// CHECK:         memref.load %{{.*}}[%c53]
// CHECK:         arith.mulf
// CHECK:         memref.atomic_rmw addi
coro.func @f(%k: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %out[%id] : memref<?xf32>
  coro.suspend "next"
  %y = arith.mulf %x, %k : f32
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}

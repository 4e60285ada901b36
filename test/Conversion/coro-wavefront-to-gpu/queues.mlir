// RUN: coro-opt %s --coro-split --coro-materialize-frame --coro-wavefront-to-gpu=workgroup-size=32 | FileCheck %s
// RUN: coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=workgroup-size=32 design=queues" | FileCheck %s
// RUN: coro-opt %s --coro-split --coro-materialize-frame "--coro-wavefront-to-gpu=workgroup-size=32 grid-stride=true" | FileCheck %s --check-prefix=STRIDE

// Grid-stride (the PTX pipeline's form): each thread of a grid of any size
// takes every (grid size x 32)-th instance of the queue; the plan says so.
// STRIDE:       #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 3, layout = "soa", subroutines = ["entry", "next"], gridStride = true>
// STRIDE-LABEL: gpu.func @f__wf_1(
// STRIDE:         %[[FIRST:.*]] = gpu.global_id x
// STRIDE:         %[[COUNT:.*]] = arith.index_cast
// STRIDE:         %[[GRID:.*]] = gpu.grid_dim x
// STRIDE:         %[[THREADS:.*]] = arith.muli %[[GRID]], %c32 : index
// STRIDE:         scf.for %{{.*}} = %[[FIRST]] to %[[COUNT]] step %[[THREADS]] {
// STRIDE:           memref.atomic_rmw addi

// The queue design, the default without sort-by: one queue per subroutine
// (categories = tokens), and the plan does not print its design.
// CHECK:       module attributes {coro.wavefront = {f = #coro_plan.wavefront<workgroupSize = 32, tokens = 2, categories = 2, frameWords = 3, layout = "soa", subroutines = ["entry", "next"]>}, gpu.container_module}

// Init puts every slot into the free ring, which starts after the two
// halves of the token queues (2 tokens x capacity each).
// CHECK-LABEL: gpu.func @f__wf_init(
// CHECK-SAME:    %{{[^:]*}}: index, %{{[^:]*}}: memref<?xi32>, %[[QUEUE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[STATE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: f32
// CHECK:         %[[SLOT:.*]] = gpu.global_id x
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[RING:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// CHECK:         %[[AT:.*]] = arith.addi %[[RING]], %[[SLOT]] : index
// CHECK:         memref.store %{{.*}}, %[[QUEUE]][%[[AT]]]
// CHECK-NOT:   gpu.func @f__wf_classify

// Advance (thread 0): flip the queue halves (word 27), move token 1's count
// for the next round (word 47) into this round's count (45) and start (44),
// then start new instances from the free ring (head 28, tail 29).
// CHECK-LABEL: gpu.func @f__wf_advance(
// CHECK:         %[[PARITY:.*]] = memref.load %{{.*}}[%c27{{.*}}]
// CHECK:         %[[FLIPPED:.*]] = arith.subi %{{.*}}, %[[PARITY]] : i32
// CHECK:         memref.store %[[FLIPPED]], %{{.*}}[%c27
// CHECK:         %[[NEXT:.*]] = memref.load %{{.*}}[%c47{{.*}}]
// CHECK:         memref.store %c0_i32{{.*}}, %{{.*}}[%c47
// CHECK:         memref.store %[[NEXT]], %{{.*}}[%c45]
// CHECK:         memref.load %{{.*}}[%c28]
// CHECK:         memref.load %{{.*}}[%c29]
// CHECK:         arith.minui
// Nothing alive: done (word 10).
// CHECK:         memref.store %{{.*}}, %{{.*}}[%c10]

// The entry kernel takes its slot from the ring (head + index modulo 2 x
// capacity) and starts instance first-new (word 30) + index there.
// CHECK-LABEL: gpu.func @f__wf_0(
// CHECK-SAME:    %{{[^:]*}}: index, %{{[^:]*}}: memref<?xi32>, %[[QUEUE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %[[STATE:[^:]*]]: memref<?xi32>, %{{[^:]*}}: memref<?xi32>, %{{[^:]*}}: f32
// CHECK:         %[[INDEX:.*]] = gpu.global_id x
// CHECK:         scf.if
// CHECK:           %[[WRAPPED:.*]] = arith.remui %{{.*}}, %{{.*}} : index
// CHECK:           %[[PLACE:.*]] = arith.addi %{{.*}}, %[[WRAPPED]] : index
// CHECK:           memref.load %[[QUEUE]][%[[PLACE]]]
// CHECK:           memref.load %[[STATE]][%c30]
// After the subroutine, one atomic on the queue's count for the next round
// (39 + 8 x token) or on the free ring's tail (29) once the instance
// returned, then the slot goes to that place.
// CHECK:           %[[RETURNED:.*]] = arith.cmpi eq, %{{.*}}, %c-1_i32 : i32
// CHECK:           %[[WORD:.*]] = arith.select %[[RETURNED]], %c29, %{{.*}} : index
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[STATE]][%[[WORD]]]
// CHECK:           %[[WHERE:.*]] = arith.select %[[RETURNED]], %{{.*}}, %{{.*}} : index
// CHECK:           memref.store %{{.*}}, %[[QUEUE]][%[[WHERE]]]
// CHECK-NOT:       gpu.barrier
// CHECK:       gpu.return

// A resumed subroutine reads its count (word 45) and start, its slot from
// its queue, and appends the same way.
// CHECK-LABEL: gpu.func @f__wf_1(
// CHECK:         memref.load %{{.*}}[%c45]
// CHECK:         memref.atomic_rmw addi
coro.func @f(%k: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  %x = memref.load %out[%id] : memref<?xf32>
  coro.suspend "next"
  %y = arith.mulf %x, %k : f32
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}

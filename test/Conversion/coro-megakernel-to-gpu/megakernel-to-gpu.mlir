// RUN: coro-opt %s --split-input-file --coro-megakernel-to-gpu=workgroup-size=32 | FileCheck %s
// RUN: coro-opt %s --split-input-file --coro-megakernel-to-gpu="workgroup-size=32 instance-status=false" | FileCheck %s --check-prefix=NOSTATUS
// RUN: coro-opt %s --split-input-file --coro-megakernel-to-gpu="count-loop-iterations=true" | FileCheck %s --check-prefix=LOOPS

// CHECK: module attributes {coro.megakernel = {kernel = #coro_plan.megakernel<workgroupSize = 32>}, gpu.container_module}
// CHECK-LABEL: func.func @host(%arg0: index, %arg1: index, %arg2: memref<?xf32>) {
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[WG:.*]] = arith.constant 32 : index
// CHECK:         %[[GROUPS:.*]] = arith.ceildivui %arg0, %[[WG]] : index
// CHECK:         %[[STATUS:.*]] = memref.alloc() : memref<2xi32>
// CHECK-COUNT-2: memref.store %{{.*}}, %[[STATUS]]
// CHECK:         gpu.launch_func @coro_kernels::@kernel blocks in (%[[GROUPS]], %arg1, %[[ONE]]) threads in (%[[WG]], %[[ONE]], %[[ONE]]) args(%arg0 : index, %arg1 : index, %[[ONE]] : index, %arg2 : memref<?xf32>, %[[STATUS]] : memref<2xi32>)
// CHECK:         %[[RETURNED:.*]] = memref.load %[[STATUS]][%{{.*}}] : memref<2xi32>
// CHECK:         %[[ALL:.*]] = arith.cmpi eq, %[[RETURNED]], %{{.*}} : i32
// CHECK:         cf.assert %[[ALL]], "launch of @kernel: not every instance returned (the kernel stopped early)"
// CHECK:         memref.dealloc %[[STATUS]]
// CHECK:       gpu.module @coro_kernels {
// CHECK-LABEL:   gpu.func @kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: memref<?xf32>, %arg4: memref<2xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
// CHECK-DAG:       %[[X:.*]] = gpu.global_id x
// CHECK-DAG:       %[[Y:.*]] = gpu.global_id y
// CHECK-DAG:       %[[Z:.*]] = gpu.global_id z
// CHECK:           scf.if %{{.*}} {
// CHECK:             %[[LINEAR:.*]] = arith.addi %[[X]], %{{.*}} : index
// CHECK:             memref.alloca() : memref<2xf32>
// CHECK-NOT:         coro.
// CHECK:             memref.store %{{.*}}, %arg3[%[[LINEAR]]]
// CHECK:             memref.atomic_rmw addi %{{.*}}, %arg4[%{{.*}}] : (i32, memref<2xi32>) -> i32
// CHECK:           gpu.return

// Without the status buffer: the kernel takes the coroutine's arguments.
// NOSTATUS-LABEL: func.func @host(
// NOSTATUS-NOT:     memref.alloc
// NOSTATUS:         gpu.launch_func @coro_kernels::@kernel {{.*}} args(%arg0 : index, %arg1 : index, %{{.*}} : index, %arg2 : memref<?xf32>)
// NOSTATUS-NOT:     cf.assert
// NOSTATUS-LABEL: gpu.func @kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: memref<?xf32>) kernel
// NOSTATUS-NOT:     memref.atomic_rmw
// NOSTATUS:         gpu.return
coro.func @kernel(%out: memref<?xf32>) {
  %id = coro.id : index
  %y = coro.id 1 : index
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<2xf32>
  %y64 = arith.index_cast %y : index to i64
  %yf = arith.sitofp %y64 : i64 to f32
  memref.store %yf, %a[%c0] : memref<2xf32>
  coro.suspend "s"
  %v = memref.load %a[%c0] : memref<2xf32>
  coro.promise "p", %v : f32
  memref.store %v, %out[%id] : memref<?xf32>
  coro.return
}
func.func @host(%w: index, %h: index, %out: memref<?xf32>) {
  coro.launch @kernel[%w, %h](%out) : (memref<?xf32>) -> ()
  return
}

// -----

// Loop passes are counted in a private counter, bumped before every loop
// (the pass that finds it done) and at the start of every loop body. Each
// loop also records whether its exit condition said to run on when it last
// passed: an scf.for, at the end of its body, whether its next induction
// value is below the bound (in a variable all for loops share); an
// scf.while, in a variable of its own, its condition, through a select on
// a value the driver's compiler cannot know (the status word read at the
// start equals -2), which keeps it from folding the record. After each
// loop the record is ORed into a flag of loops a driver's limit ended; at
// the end the count, or -1 (kLoopEndedByLimit) for a cut loop, is raised
// into word 1 of the status buffer.
// LOOPS-LABEL: gpu.func @loops(
// LOOPS-SAME:      %[[N:[^:]*]]: index, %{{[^:]*}}: memref<?xi32>, %[[STATUS:[^:]*]]: memref<2xi32>) kernel
// LOOPS:         scf.if
// LOOPS:           %[[RECORD:.*]] = memref.alloca() : memref<1xi32>
// LOOPS-NEXT:      %[[COUNTER:.*]] = memref.alloca() : memref<1xi32>
// LOOPS-NEXT:      %[[CONTINUING:.*]] = memref.alloca() : memref<1xi32>
// LOOPS-NEXT:      %[[ENDED:.*]] = memref.alloca() : memref<1xi32>
// LOOPS:           %[[WORD:.*]] = memref.load %[[STATUS]]
// LOOPS-NEXT:      %[[OPAQUE:.*]] = arith.cmpi eq, %[[WORD]], %c-2_i32 : i32
// LOOPS:           memref.load %[[COUNTER]]
// LOOPS-NEXT:      arith.addi
// LOOPS-NEXT:      memref.store %{{.*}}, %[[COUNTER]]
// LOOPS-NEXT:      memref.store %{{.*}}, %[[CONTINUING]]
// LOOPS-NEXT:      scf.for %[[IV:[^ ]*]] = %{{.*}} to %[[N]] step %[[STEP:[^ ]*]]
// LOOPS-NEXT:        memref.load %[[COUNTER]]
// LOOPS-NEXT:        arith.addi
// LOOPS-NEXT:        memref.store %{{.*}}, %[[COUNTER]]
// LOOPS:             %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]] : index
// LOOPS-NEXT:        %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// LOOPS-NEXT:        %[[MORE32:.*]] = arith.extui %[[MORE]] : i1 to i32
// LOOPS-NEXT:        memref.store %[[MORE32]], %[[CONTINUING]]
// LOOPS-NEXT:        scf.yield
// LOOPS-NEXT:      }
// LOOPS-NEXT:      %[[LAST:.*]] = memref.load %[[CONTINUING]]
// LOOPS-NEXT:      %[[SOFAR:.*]] = memref.load %[[ENDED]]
// LOOPS-NEXT:      %[[EITHER:.*]] = arith.ori %[[SOFAR]], %[[LAST]] : i32
// LOOPS-NEXT:      memref.store %[[EITHER]], %[[ENDED]]
// LOOPS:           memref.store %{{.*}}, %[[COUNTER]]
// LOOPS-NEXT:      memref.store %{{.*}}, %[[RECORD]]
// LOOPS-NEXT:      scf.while
// LOOPS-NEXT:        %[[CONDITION:.*]] = arith.cmpi
// LOOPS-NEXT:        %[[CONDITION32:.*]] = arith.extui %[[CONDITION]] : i1 to i32
// LOOPS-NEXT:        %[[PREVIOUS:.*]] = memref.load %[[RECORD]]
// LOOPS-NEXT:        %[[KEPT:.*]] = arith.select %[[OPAQUE]], %[[PREVIOUS]], %[[CONDITION32]] : i32
// LOOPS-NEXT:        memref.store %[[KEPT]], %[[RECORD]]
// LOOPS-NEXT:        scf.condition(%[[CONDITION]])
// LOOPS:           } do {
// LOOPS-NEXT:      ^bb0(
// LOOPS-NEXT:        memref.load %[[COUNTER]]
// LOOPS:           memref.load %[[RECORD]]
// LOOPS:           memref.store %{{.*}}, %[[ENDED]]
// LOOPS:           memref.atomic_rmw addi %{{.*}}, %[[STATUS]]
// LOOPS:           %[[WAS:.*]] = memref.load %[[ENDED]]
// LOOPS-NEXT:      %[[CUT:.*]] = arith.cmpi ne, %[[WAS]], %{{.*}} : i32
// LOOPS-NEXT:      %[[SENTINEL:.*]] = arith.constant -1 : i32
// LOOPS-NEXT:      %[[COUNT:.*]] = memref.load %[[COUNTER]]
// LOOPS-NEXT:      %[[VALUE:.*]] = arith.select %[[CUT]], %[[SENTINEL]], %[[COUNT]] : i32
// LOOPS:           memref.atomic_rmw maxu %[[VALUE]], %[[STATUS]]
coro.func @loops(%n: index, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
    %next = arith.addi %acc, %one : i32
    scf.yield %next : i32
  }
  %end = scf.while (%k = %sum) : (i32) -> i32 {
    %more = arith.cmpi slt, %k, %zero : i32
    scf.condition(%more) %k : i32
  } do {
  ^bb0(%k: i32):
    %k1 = arith.addi %k, %one : i32
    scf.yield %k1 : i32
  }
  memref.store %end, %out[%id] : memref<?xi32>
  coro.return
}

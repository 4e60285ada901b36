// The custom scheduler of examples/custom-scheduler (docs/custom-schedulers.md),
// a pass plugin built against the public headers: it runs split coroutines
// breadth first, and every program prints what the mega-kernel prints.
//
// DEFINE: %{batched} = coro-opt --load-pass-plugin=%coro_libs/CoroCustomSchedulerExample.so -p 'builtin.module(coro-inline-callables, coro-inline-awaits, coro.func(coro-expand-yield, coro-normalize-control-flow), coro-split, coro-materialize-frame, coro-example-batched-to-func)'
// DEFINE: %{megakernel} = coro-opt --coro-inline-callables --coro-inline-awaits --coro-expand-yield --coro-normalize-control-flow --coro-megakernel-to-func %lower_to_llvm
//
// The IR the scheduler builds for the coroutine below, and its output.
// RUN: %{batched} %s | FileCheck %s --implicit-check-not=coro.
// RUN: %{batched} %s | coro-opt %lower_to_llvm | %run_cpu | FileCheck %s --check-prefix=OUT
// RUN: %{megakernel} %s | %run_cpu | FileCheck %s --check-prefix=OUT
//
// The same with the stock mlir-opt and the CoroGPU plugins.
// RUN: %mlir_opt %s --load-dialect-plugin=%coro_libs/CoroDialectPlugin.so --load-pass-plugin=%coro_libs/CoroPassPlugin.so --load-pass-plugin=%coro_libs/CoroCustomSchedulerExample.so -p 'builtin.module(coro.func(coro-normalize-control-flow), coro-split, coro-materialize-frame, coro-example-batched-to-func, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' | %run_cpu | FileCheck %s --check-prefix=OUT
//
// The e2e programs of test/e2e/cpu, against the mega-kernel.
// RUN: %{megakernel} %coro_src/test/e2e/cpu/split-constructs.mlir | %run_cpu | grep -v base@ > %t.constructs.megakernel
// RUN: %{batched} %coro_src/test/e2e/cpu/split-constructs.mlir | coro-opt %lower_to_llvm | %run_cpu | grep -v base@ > %t.constructs.batched
// RUN: diff %t.constructs.megakernel %t.constructs.batched
// RUN: %{megakernel} %coro_src/test/e2e/cpu/loop-break.mlir | %run_cpu | grep -v base@ > %t.loop.megakernel
// RUN: %{batched} %coro_src/test/e2e/cpu/loop-break.mlir | coro-opt %lower_to_llvm | %run_cpu | grep -v base@ > %t.loop.batched
// RUN: diff %t.loop.megakernel %t.loop.batched
// RUN: %{megakernel} %coro_src/test/e2e/cpu/front-end.mlir | %run_cpu | grep -v base@ > %t.front.megakernel
// RUN: %{batched} %coro_src/test/e2e/cpu/front-end.mlir | coro-opt %lower_to_llvm | %run_cpu | grep -v base@ > %t.front.batched
// RUN: diff %t.front.megakernel %t.front.batched
// RUN: %{megakernel} %coro_src/test/e2e/cpu/path-tracer.mlir | %run_cpu | grep -v base@ > %t.tracer.megakernel
// RUN: %{batched} %coro_src/test/e2e/cpu/path-tracer.mlir | coro-opt %lower_to_llvm | %run_cpu | grep -v base@ > %t.tracer.batched
// RUN: diff %t.tracer.megakernel %t.tracer.batched

func.func private @printMemrefF32(memref<*xf32>)

// Each subroutine takes the frames of all instances (SoA), the instance, the
// number of instances and the grid's x and y extents, then the arguments.
// CHECK-LABEL: func.func @count__entry(
// CHECK-SAME:      %[[WORDS:.*]]: memref<?xi32>, %[[I:.*]]: index, %[[N:.*]]: index, %[[NX:.*]]: index, %[[NY:.*]]: index, %[[BUFFER:.*]]: memref<?xf32>)
// coro.id 0, 1 and 2: the position, from the linear id.
// CHECK-DAG:     %[[ROW:.*]] = arith.divui %[[I]], %[[NX]] : index
// CHECK-DAG:     %[[X:.*]] = arith.remui %[[I]], %[[NX]] : index
// CHECK-DAG:     %[[Y:.*]] = arith.remui %[[ROW]], %[[NY]] : index
// CHECK-DAG:     %[[Z:.*]] = arith.divui %[[ROW]], %[[NY]] : index
// CHECK:         %[[XY:.*]] = arith.addi %[[X]], %[[Y]] : index
// CHECK:         arith.addi %[[XY]], %[[Z]] : index
// At the suspension, the f32 field at word 4 goes to words[4 * n + i] and
// the target token (word 0) to words[i].
// CHECK:         %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[COLUMN:.*]] = arith.muli %[[N]], %[[C4]] : index
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %[[COLUMN]], %[[I]] : index
// CHECK-NEXT:    memref.store %[[BITS]], %[[WORDS]][%[[AT]]] : memref<?xi32>
// CHECK:         %[[STEP:.*]] = arith.constant 1 : i32
// CHECK:         memref.store %[[STEP]], %[[WORDS]][%[[I]]] : memref<?xi32>
// coro.id is the instance.
// CHECK:         memref.store %{{.*}}, %[[BUFFER]][%[[I]]] : memref<?xf32>
// CHECK:         %[[RETURNED:.*]] = arith.constant -1 : i32
// CHECK:         memref.store %[[RETURNED]], %[[WORDS]][%[[I]]] : memref<?xi32>
// CHECK-LABEL: func.func @count__step(
// CHECK-SAME:      memref<?xi32>, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<?xf32>)

// The launch: one frame array of 12 instances * 5 words, zeroed; every
// instance's id in its coro_id word (1), then its entry; then rounds while
// some token is not -1, each running @count__step (token 1) on the instances
// whose token is 1.
// CHECK-LABEL: func.func @main()
// CHECK:         %[[GRID_X:.*]] = arith.constant 3 : index
// CHECK:         %[[BUFFER:.*]] = memref.alloc
// CHECK:         %[[N:.*]] = arith.constant 12 : index
// CHECK:         %[[SIZE:.*]] = arith.constant 60 : index
// CHECK:         %[[FRAMES:.*]] = memref.alloc(%[[SIZE]]) : memref<?xi32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[SIZE]] step
// CHECK:           memref.store %{{.*}}, %[[FRAMES]]
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK:           %[[ID:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:           %[[AT:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:           memref.store %[[ID]], %[[FRAMES]][%[[AT]]]
// CHECK:           func.call @count__entry(%[[FRAMES]], %[[I]], %[[N]], %[[GRID_X]], %{{.*}}, %[[BUFFER]])
// CHECK:         scf.while : () -> () {
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args
// CHECK:             %[[TOKEN:.*]] = memref.load %[[FRAMES]][%[[I]]]
// CHECK:             arith.cmpi ne, %[[TOKEN]]
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK:             %[[TOKEN:.*]] = memref.load %[[FRAMES]][%[[I]]]
// CHECK:             %[[READY:.*]] = arith.cmpi eq, %[[TOKEN]]
// CHECK:             scf.if %[[READY]] {
// CHECK-NEXT:          func.call @count__step(%[[FRAMES]], %[[I]], %[[N]], %[[GRID_X]], %{{.*}}, %[[BUFFER]])
// CHECK:         memref.dealloc %[[FRAMES]]

// Instance (x, y, z) of a 3x2x2 grid suspends x + y + z times, then writes
// x + y + z.
// OUT: sizes = [12]
// OUT-NEXT: [0,  1,  2,  1,  2,  3,  1,  2,  3,  2,  3,  4]
coro.func @count(%out: memref<?xf32>) {
  %id = coro.id : index
  %x = coro.id 0 : index
  %y = coro.id 1 : index
  %z = coro.id 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %xy = arith.addi %x, %y : index
  %steps = arith.addi %xy, %z : index
  %s = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (f32) {
    coro.suspend "step"
    %next = arith.addf %acc, %one : f32
    scf.yield %next : f32
  }
  memref.store %s, %out[%id] : memref<?xf32>
  coro.return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %out = memref.alloc(%c12) : memref<?xf32>
  coro.launch @count[%c3, %c2, %c2](%out) : (memref<?xf32>) -> ()
  %print = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<?xf32>
  return
}

// Printing from a kernel (gpu.printf) under every scheduler: each line says
// which instance printed it and the suspension point it resumed at
// (coro-prefix-printf); on Vulkan the prints are NonSemantic.DebugPrintf
// instructions that the Khronos validation layer runs (coro-run --printf).
// The order of the lines is the scheduler's, so they are sorted.
// REQUIRES: vulkan
// RUN: for scheduler in state-machine wavefront persistent; do \
// RUN:   coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --scheduler=$scheduler --printf --check --quiet > %t.$scheduler.out || exit 1; \
// RUN:   grep -v '^check:' %t.$scheduler.out | sort | FileCheck %s --check-prefix=SPLIT || exit 1; \
// RUN:   grep -q '^check: .* matches the mega-kernel reference' %t.$scheduler.out || exit 1; \
// RUN: done
// SPLIT:      [#0 @entry] instance 0 starts
// SPLIT-NEXT: [#0 @shade] instance 0 resumed with 10, loop 0
// SPLIT-NEXT: [#0 @shade] instance 0 resumed with 10, loop 1
// SPLIT-NEXT: [#0 @shade] instance 0 resumed with 10, loop 2
// SPLIT-NEXT: [#1 @entry] instance 1 starts
// SPLIT-NEXT: [#1 @shade] instance 1 resumed with 11, loop 0
// SPLIT-NEXT: [#1 @shade] instance 1 resumed with 11, loop 1
// SPLIT-NEXT: [#1 @shade] instance 1 resumed with 11, loop 2
// SPLIT-NEXT: [#2 @entry] instance 2 starts
// SPLIT-NEXT: [#2 @shade] instance 2 resumed with 12, loop 0
// SPLIT-NEXT: [#2 @shade] instance 2 resumed with 12, loop 1
// SPLIT-NEXT: [#2 @shade] instance 2 resumed with 12, loop 2
// SPLIT-NOT:  {{.}}
// The mega-kernel reference of --check prints nothing of its own:
// RUN: coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --scheduler=megakernel --printf --quiet | sort | FileCheck %s --check-prefix=MEGA
// MEGA:      [#0] instance 0 resumed with 10, loop 0
// MEGA:      [#0] instance 0 starts
// MEGA:      [#2] instance 2 starts
// MEGA-NOT:  @
// Floats, 64-bit integers and halves print too:
// RUN: coro-run %s --coro=kinds --grid=1 --buffer=f32:1:zeros --printf --quiet | FileCheck %s --check-prefix=KINDS
// KINDS: [#0 @entry] f32 2.500000 i64 5000000000 f16 0.500000
// Without --printf the kernel runs as it would, and coro-run says how to see
// the prints:
// RUN: coro-run %s --coro=prints --grid=3 --arg=10 --buffer=i32:3:zeros --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=HINT
// HINT: coro-run: warning: @prints prints (gpu.printf); add --printf to see it (through the Khronos validation layer)
// HINT-NOT: instance
// HINT: buffer 0 (i32 x 3): [40, 44, 48]

coro.func @prints(%base: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  gpu.printf "instance %d starts\n", %i : i32
  %v = arith.addi %base, %i : i32
  coro.suspend "shade"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %v) -> (i32) {
    gpu.printf "instance %d resumed with %d, loop %d\n", %i, %v, %k : i32, i32, index
    %next = arith.addi %acc, %v : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @kinds(%out: memref<?xf32>) {
  %f = arith.constant 2.5 : f32
  %l = arith.constant 5000000000 : i64
  %h = arith.constant 0.5 : f16
  gpu.printf "f32 %f i64 %lu f16 %f\n", %f, %l, %h : f32, i64, f16
  %c0 = arith.constant 0 : index
  memref.store %f, %out[%c0] : memref<?xf32>
  coro.return
}

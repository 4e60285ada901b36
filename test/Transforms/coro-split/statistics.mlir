// Pass statistics of coro-split, coro-materialize-frame and a scheduler.
// They count only where MLIR was built with statistics (an LLVM assertions
// build, or LLVM_FORCE_ENABLE_STATS); Debian's release MLIR prints an empty
// report, so this test is UNSUPPORTED there. The split's numbers are also
// on the coro.split op (`statistics`, checked in split.mlir) and in
// coro-dump-graph's JSON (checked in coro-dump-graph/dump-graph.mlir).
// REQUIRES: pass-statistics
// RUN: coro-opt %s --coro-split --coro-materialize-frame \
// RUN:   --coro-wavefront-to-gpu --mlir-pass-statistics -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

// CHECK-LABEL: Pass statistics report
// CHECK:       CoroSplit
// CHECK-DAG:     (S) 1 coroutines
// CHECK-DAG:     (S) 2 subroutines
// CHECK-DAG:     (S) 3 values-live
// CHECK-DAG:     (S) 1 values-stored
// CHECK-DAG:     (S) 2 values-recomputed
// CHECK-DAG:     (S) 1 frame-fields
// CHECK:       CoroMaterializeFrame
// CHECK-DAG:     (S) 1 frame-fields
// CHECK:       CoroWavefrontToGPU
// CHECK:         (S) {{[1-9][0-9]*}} kernels
coro.func @stats(%a: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %x = memref.load %out[%id] : memref<?xi32>
  %y = arith.muli %x, %x : i32
  %z = arith.addi %a, %a : i32
  %w = arith.muli %z, %z : i32
  coro.suspend "s"
  %sum = arith.addi %y, %x : i32
  %sum2 = arith.addi %sum, %w : i32
  memref.store %sum2, %out[%id] : memref<?xi32>
  coro.return
}

// RUN: coro-opt %s "--coro-host-launches-to-gpu=scheduler=wavefront scheduler-options='sort-by=key hint-buckets=8'" 2>&1 | FileCheck %s

// sort-by in a program where only one of the launched coroutines has the
// promise: @traced is compiled with sorted queues (2 tokens x 8 buckets),
// @plain, as coro-run does it, with a warning at its launch and unsorted
// queues (one per subroutine).
// CHECK: sort-by.mlir:[[# @LINE + 30]]:5: warning: sort-by: @plain has no integer promise "key" (another coroutine of the program has it): its queues stay unsorted
// CHECK-DAG: gpu.binary @traced__wavefront {{.*}}#coro_plan.wavefront<workgroupSize = 64, tokens = 2, categories = 16,
// CHECK-DAG: gpu.binary @plain__wavefront {{.*}}#coro_plan.wavefront<workgroupSize = 64, tokens = 3, categories = 3,

module {
  coro.func @traced(%out: memref<?xi32>) {
    %id = coro.id : index
    %c5 = arith.constant 5 : i32
    %id32 = arith.index_cast %id : index to i32
    %k = arith.remui %id32, %c5 : i32
    coro.promise "key", %k : i32
    coro.suspend "work"
    memref.store %k, %out[%id] : memref<?xi32>
    coro.return
  }
  coro.func @plain(%out: memref<?xi32>) {
    %id = coro.id : index
    %c3 = arith.constant 3 : i32
    %id32 = arith.index_cast %id : index to i32
    coro.suspend "a"
    %x = arith.muli %id32, %c3 : i32
    coro.suspend "b"
    memref.store %x, %out[%id] : memref<?xi32>
    coro.return
  }
  func.func @main() {
    %c64 = arith.constant 64 : index
    %t = memref.alloc(%c64) : memref<?xi32>
    coro.launch @traced[%c64](%t) : (memref<?xi32>) -> ()
    %o = memref.alloc(%c64) : memref<?xi32>
    coro.launch @plain[%c64](%o) : (memref<?xi32>) -> ()
    return
  }
}

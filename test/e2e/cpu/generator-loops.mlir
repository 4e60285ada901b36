// Loops over generators (coro.for_each) on the CPU, under the host state
// machine and the host mega-kernel: the coroutines of
// test/e2e/programs/generator-consumer.mlir, whose header gives the values.
// RUN: cat %S/../programs/generator-consumer.mlir %s | coro-opt --coro-expand-yield --coro-resolve-handles --coro-split --coro-materialize-frame --coro-state-machine-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// RUN: cat %S/../programs/generator-consumer.mlir %s | coro-opt --coro-expand-yield --coro-resolve-handles --coro-megakernel-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// CHECK:      [5,  3,  14,  4,  30,  5,  55,  6,  55,  6,  55,  6]
// CHECK:      [5,  3,  14,  4,  30,  5,  55,  6,  55,  6,  55,  6]
// CHECK:      [70,  420,  1650,  5005,  12740,  28560]
// CHECK:      [4,  2,  4,  2,  20,  3,  20,  3,  56,  4,  56,  4]
// CHECK:      [3,  4,  5,  6,  0,  0,  0]

func.func private @printMemrefI32(memref<*xi32>)

func.func @print(%buffer: memref<?xi32>) {
  %cast = memref.cast %buffer : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c12 = arith.constant 12 : index
  %n = arith.constant 3 : i32
  %limit = arith.constant 50 : i32
  %out = memref.alloc(%c7) : memref<?xi32>
  %sums = memref.alloc(%c12) : memref<?xi32>
  coro.launch @sum_for_each[%c6](%n, %limit, %out, %sums) : (i32, i32, memref<?xi32>, memref<?xi32>) -> ()
  call @print(%sums) : (memref<?xi32>) -> ()
  coro.launch @sum_for_each_suspending[%c6](%n, %limit, %out, %sums) : (i32, i32, memref<?xi32>, memref<?xi32>) -> ()
  call @print(%sums) : (memref<?xi32>) -> ()
  %products = memref.alloc(%c6) : memref<?xi32>
  coro.launch @nested_sums[%c6](%n, %out, %products) : (i32, memref<?xi32>, memref<?xi32>) -> ()
  call @print(%products) : (memref<?xi32>) -> ()
  // Nested generators; out zeroed first (out[6]: no instance 6).
  %zero = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c7 step %c1 {
    memref.store %zero, %out[%i] : memref<?xi32>
  }
  coro.launch @sum_even[%c6](%n, %limit, %out, %sums) : (i32, i32, memref<?xi32>, memref<?xi32>) -> ()
  call @print(%sums) : (memref<?xi32>) -> ()
  call @print(%out) : (memref<?xi32>) -> ()
  memref.dealloc %out : memref<?xi32>
  memref.dealloc %sums : memref<?xi32>
  memref.dealloc %products : memref<?xi32>
  return
}

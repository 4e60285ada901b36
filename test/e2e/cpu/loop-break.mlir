// A loop with a suspension and a data-dependent break, written with cf. The
// mega-kernel reference gives the same output before and after control-flow
// normalization.
// RUN: coro-opt %s --coro-megakernel-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// RUN: coro-opt %s --coro-normalize-control-flow --coro-megakernel-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// RUN: coro-opt %s --coro-normalize-control-flow --coro-split --coro-state-machine-to-func %lower_to_llvm | %run_cpu | FileCheck %s

// Instance `id` sums 0..min(id, n - 1).
// CHECK: sizes = [6]
// CHECK-NEXT: [0,  1,  3,  6,  6,  6]

func.func private @printMemrefF32(memref<*xf32>)

coro.func @partial_sums(%n: index, %out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  cf.br ^loop(%c0, %zero : index, f32)
^loop(%i: index, %acc: f32):
  %lt = arith.cmpi slt, %i, %n : index
  cf.cond_br %lt, ^body, ^exit(%acc : f32)
^body:
  coro.suspend "iter"
  %past = arith.cmpi ugt, %i, %id : index
  cf.cond_br %past, ^exit(%acc : f32), ^next
^next:
  %i64 = arith.index_cast %i : index to i64
  %f = arith.sitofp %i64 : i64 to f32
  %acc2 = arith.addf %acc, %f : f32
  %i2 = arith.addi %i, %c1 : index
  cf.br ^loop(%i2, %acc2 : index, f32)
^exit(%r: f32):
  memref.store %r, %out[%id] : memref<?xf32>
  coro.return
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %out = memref.alloc(%c6) : memref<?xf32>
  coro.launch @partial_sums[%c6](%c4, %out) : (index, memref<?xf32>) -> ()
  %print = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<?xf32>
  return
}

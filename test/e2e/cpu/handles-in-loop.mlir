// A handle made in every iteration of a long host loop: its frame is
// allocated once, at the start of the function, not on each iteration
// (4,000,000 frames on the stack crashed mlir-runner).
// RUN: coro-opt %s --coro-split --coro-materialize-frame --coro-lower-handles --coro-state-machine-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// The sum of i + 1 for i < 4,000,000, modulo 2^32 (as an i32):
// CHECK: [-1522072448]

coro.func @next(%out: memref<?xi32>) {
  %id = coro.id : index
  %id32 = arith.index_cast %id : index to i32
  %one = arith.constant 1 : i32
  %v = arith.addi %id32, %one : i32
  coro.promise "v", %v : i32
  coro.suspend "s"
  coro.return
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4000000 : index
  %i0 = arith.constant 0 : i32
  %out = memref.alloc(%c1) : memref<?xi32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %i0) -> (i32) {
    %h = coro.handle.create @next[%i] : !coro.handle<@next>
    coro.handle.resume %h(%out) : !coro.handle<@next>, (memref<?xi32>) -> ()
    %v = coro.handle.promise %h["v"] : !coro.handle<@next> -> i32
    %a = arith.addi %acc, %v : i32
    scf.yield %a : i32
  }
  memref.store %s, %out[%c0] : memref<?xi32>
  %cast = memref.cast %out : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
  memref.dealloc %out : memref<?xi32>
  return
}

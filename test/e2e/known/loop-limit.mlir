// KNOWN PROBLEM (XFAIL on lavapipe): lavapipe (Mesa 22.3, gallivm) ends the
// loops of a shader invocation once they have run 65535 iterations in all,
// as if they had finished: this loop of 70000 iterations counts to 65535
// (60000 is counted right). spirv-val accepts the SPIR-V. A thread that
// runs many instances (the persistent-threads scheduler) reaches the limit
// after enough of them, which is why the runtime limits its batches per
// launch on lavapipe (docs/schedulers.md). If this passes (XPASS), drop the
// XFAIL.
// REQUIRES: lavapipe
// XFAIL: *
// RUN: coro-run %s --coro=count --grid=1 --arg=70000 --buffer=i32:1:zeros --scheduler=megakernel | FileCheck %s
// CHECK: buffer 0 (i32 x 1): [70000]

coro.func @count(%n: i32, %out: memref<?xi32>) {
  %i = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %c1 : i32
    scf.yield %a : i32
  }
  memref.store %r, %out[%i] : memref<?xi32>
  coro.return
}

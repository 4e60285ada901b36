// Bounded steps for the persistent threads: on a device that ends a
// thread's loops after a number of iterations (lavapipe: 65535 in all), a
// workgroup of the persistent kernel runs a bounded number of steps a
// launch by default (as many as 16384 passes of the scheduler's own loops
// allow: 910 here), parks its slots (tokens, ids, frames in workgroup
// memory) and takes them back in the next launch. Each instance here
// resumes 20000 times: one launch would cut its loops short.
// REQUIRES: lavapipe
// Expected: each of the 64 instances sums 0 .. 19999 = 199990000.
// RUN: coro-run %s --coro=k --grid=64 --arg=20000 --buffer=i32:64:zeros --scheduler=persistent --check --scheduler-stats | FileCheck %s
// CHECK: persistent: 2 workgroups, {{[0-9]+}} launches, 40000 steps,
// CHECK: buffer 0 (i32 x 64): [199990000, 199990000,
// CHECK: check: persistent matches the mega-kernel reference
//
// Frames in workgroup memory and in the extension, swapped between them,
// with every workgroup parking after 7 steps, and the same with 2 slots a
// workgroup of 4 threads, most frames in the extension:
// RUN: coro-run %s --coro=k --grid=40 --arg=300 --buffer=i32:40:zeros --scheduler=persistent --layout=aosoa --persistent-batch=40 --persistent-shared-memory=1024 --persistent-swap-frames --persistent-steps=7 --check | FileCheck %s --check-prefix=SMALL
// RUN: coro-run %s --coro=k --grid=40 --arg=300 --buffer=i32:40:zeros --scheduler=persistent --persistent-workgroup-size=4 --persistent-batch=2 --persistent-steps=1 --check | FileCheck %s --check-prefix=SMALL
// SMALL: buffer 0 (i32 x 40): [44850, 44850,
// SMALL: check: persistent matches the mega-kernel reference
//
// Without the bound the loops of a workgroup's threads reach lavapipe's
// limit, and coro-run says so (exit code 5) instead of printing garbage:
// RUN: not coro-run %s --coro=k --grid=64 --arg=20000 --buffer=i32:64:zeros --scheduler=persistent --persistent-steps=0 2>&1 | FileCheck %s --check-prefix=UNBOUNDED
// UNBOUNDED: coro-run: error: persistent: a thread of the persistent-threads kernel in launch 1 had a loop cut short
// RUN: coro-run %s --coro=k --grid=64 --arg=20000 --buffer=i32:64:zeros --scheduler=persistent --persistent-steps=0 >/dev/null 2>&1; test $? -eq 5
//
// Long loops inside a subroutine: each of the 64 instances of @inner
// resumes 40 times and runs 1000 loop passes after each, 4000 per step for
// a thread of 4 slots, so that the steps the budget of the scheduler's own
// loops allows would pass lavapipe's limit within 17 steps. Counted loop
// passes park a workgroup once a thread made 16384 of them in a launch:
// every instance sums 40 x (1000 / 4) x (0 + 1 + 2 + 3) = 60000.
// RUN: coro-run %s --coro=inner --grid=64 --arg=40 --arg=1000 --buffer=i32:64:zeros --scheduler=persistent --check --scheduler-stats | FileCheck %s --check-prefix=INNER
// RUN: coro-run %s --coro=inner --grid=64 --arg=40 --arg=1000 --buffer=i32:64:zeros --scheduler=persistent --persistent-steps=500 --check | FileCheck %s --check-prefix=INNER
// INNER: buffer 0 (i32 x 64): [60000, 60000,
// INNER: check: persistent matches the mega-kernel reference
//
// --persistent-steps is an option of the persistent scheduler only:
// RUN: not coro-run %s --coro=k --grid=64 --arg=2 --buffer=i32:64:zeros --scheduler=wavefront --persistent-steps=4 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: coro-run: error: --persistent-steps

coro.func @k(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    coro.suspend "step"
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @inner(%n: i32, %m: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    coro.suspend "step"
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%a = %acc) -> (i32) : i32 {
      %low = arith.andi %j, %c3 : i32
      %b = arith.addi %a, %low : i32
      scf.yield %b : i32
    }
    scf.yield %s : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

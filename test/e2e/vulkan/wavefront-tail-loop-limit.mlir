// The wavefront's tail kernel on a device that ends a thread's loops after
// 65535 passes in all (lavapipe): a tail thread stops stepping once it made
// 16384 loop passes, but the step that crosses that may make many more.
// @two's steps loop 10000 and 60000 times, each under the limit on its own
// (the wavefront without a tail runs it), their sum not: the error says so
// and how to avoid it, instead of a wrong result.
// REQUIRES: lavapipe
// RUN: coro-run %s --coro=two --grid=8 --arg=10000 --arg=60000 --buffer=i32:8:zeros --scheduler=wavefront --capacity=16 | FileCheck %s
// CHECK: buffer 0 (i32 x 8): [70000, 70000, 70000, 70000, 70000, 70000, 70000, 70000]
// RUN: not coro-run %s --coro=two --grid=8 --arg=10000 --arg=60000 --buffer=i32:8:zeros --scheduler=wavefront --capacity=16 --wavefront-tail-below=100 2>&1 | FileCheck %s --check-prefix=TAIL
// TAIL: coro-run: error: wavefront: a subroutine run or of the tail kernel had a loop cut short
// TAIL-SAME: or run without the tail kernel (coro-run --wavefront-tail-below=0), whose threads run several subroutines each
// RUN: coro-run %s --coro=two --grid=8 --arg=10000 --arg=60000 --buffer=i32:8:zeros --scheduler=wavefront --capacity=16 --wavefront-tail-below=100 >/dev/null 2>&1; test $? -eq 5

// Two suspensions, then a loop of %m1 passes and one of %m2.
coro.func @two(%m1: i32, %m2: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  coro.suspend "a"
  %s0 = scf.for %j = %c0 to %m1 step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
  coro.suspend "b"
  %s1 = scf.for %j = %c0 to %m2 step %c1 iter_args(%a = %s0) -> (i32) : i32 {
    %b = arith.addi %a, %c1 : i32
    scf.yield %b : i32
  }
  memref.store %s1, %out[%id] : memref<?xi32>
  coro.return
}

// Signed 64-bit comparisons of a sign-extended value with a constant, which
// lavapipe miscompiles (test/e2e/known/driver/i64-sext-compare.test), are
// right under every scheduler: coro-spirv-unsigned-i64-compares compares
// them unsigned. The expected values are written out, not taken from the
// mega-kernel, which was wrong too. The early exit behind the comparison is
// also the shape whose flag folded into an i1 index cast (issue 13).
// REQUIRES: vulkan
// RUN: coro-run %s --coro=i64_compare --grid=8 --buffer=i64:32:zeros --scheduler=megakernel --validate | FileCheck %s
// RUN: coro-run %s --coro=i64_compare --grid=8 --buffer=i64:32:zeros --scheduler=state-machine --validate | FileCheck %s
// RUN: coro-run %s --coro=i64_compare --grid=8 --buffer=i64:32:zeros --scheduler=wavefront --capacity=3 --validate | FileCheck %s
// RUN: coro-run %s --coro=i64_compare --grid=8 --buffer=i64:32:zeros --scheduler=persistent --persistent-batch=4 --validate | FileCheck %s
// out[4 id + k], id = 0..7 (v = id - 4 = -4..3):
//   k = 0: v < 1 ? 1 : 0;  k = 1: v > 1;  k = 2: -2 <= v;  k = 3: early exit
//   (v < 1 and, after a suspension, v + 5 > 2) ? v + 5 : 0
// CHECK: buffer 0 (i64 x 32): [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 3, 1, 0, 1, 4, 1, 0, 1, 5, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0]
coro.func @i64_compare(%out: memref<?xi64>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %k4 = arith.constant 4 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant 0 : i64
  %two = arith.constant 2 : i64
  %five = arith.constant 5 : i64
  %m2 = arith.constant -2 : i64
  %base = arith.muli %id, %c4 : index
  %id32 = arith.index_cast %id : index to i32
  %v32 = arith.subi %id32, %k4 : i32
  %v = arith.extsi %v32 : i32 to i64
  %lt = arith.cmpi slt, %v, %one : i64
  %gt = arith.cmpi sgt, %v, %one : i64
  %ge = arith.cmpi sle, %m2, %v : i64
  %lt64 = arith.extui %lt : i1 to i64
  %gt64 = arith.extui %gt : i1 to i64
  %ge64 = arith.extui %ge : i1 to i64
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  %i3 = arith.addi %base, %c3 : index
  memref.store %lt64, %out[%base] : memref<?xi64>
  memref.store %gt64, %out[%i1] : memref<?xi64>
  memref.store %ge64, %out[%i2] : memref<?xi64>
  %x = arith.addi %v, %five : i64
  cf.cond_br %lt, ^a, ^done
^a:
  coro.suspend "a"
  %big = arith.cmpi sgt, %x, %two : i64
  cf.cond_br %big, ^early, ^done
^early:
  memref.store %x, %out[%i3] : memref<?xi64>
  coro.return
^done:
  coro.suspend "b"
  coro.return
}

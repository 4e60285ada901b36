// Signed remainders and quotients at the edges, against the values C (and
// arith) define: the remainder has the sign of the dividend, the quotient
// rounds toward zero. The Arith to SPIR-V conversion of LLVM 22 took the
// remainder's sign from a == abs(a), which holds for the smallest integer,
// so remsi(INT_MIN, 25) gave 23 (coro-fuzz seed 1919);
// coro-spirv-expand-arith expands remsi before it.
// REQUIRES: vulkan
// RUN: coro-run %s --coro=edges --grid=1 --arg=-2147483648 --arg=25 --arg=-9223372036854775808 --arg=1000000007 --buffer=i32:8:zeros --buffer=i64:2:zeros | FileCheck %s
// RUN: coro-run %s --coro=edges --grid=1 --arg=-2147483648 --arg=25 --arg=-9223372036854775808 --arg=1000000007 --buffer=i32:8:zeros --buffer=i64:2:zeros --scheduler=wavefront | FileCheck %s
// i32: INT_MIN rem 25, rem -25, rem -1; INT_MIN div 25; -7 rem 3 and rem -3;
// then the elements of a vector remainder [-7, 7, INT_MIN, 0] rem [3, -3, 25, 5]
// (first two of four stored).
// CHECK: buffer 0 (i32 x 8): [-23, -23, 0, -85899345, -1, -1, -1, 1]
// i64: INT64_MIN rem 1000000007, INT64_MIN div 1000000007.
// CHECK: buffer 1 (i64 x 2): [-291172004, -9223371972]
coro.func @edges(%a: i32, %b: i32, %a64: i64, %b64: i64, %out: memref<?xi32>,
                 %out64: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c7_i32 = arith.constant 7 : i32
  %r0 = arith.remsi %a, %b : i32
  memref.store %r0, %out[%c0] : memref<?xi32>
  %nb = arith.subi %c0_i32, %b : i32
  %r1 = arith.remsi %a, %nb : i32
  memref.store %r1, %out[%c1] : memref<?xi32>
  %m1 = arith.constant -1 : i32
  %r2 = arith.remsi %a, %m1 : i32
  memref.store %r2, %out[%c2] : memref<?xi32>
  %q = arith.divsi %a, %b : i32
  memref.store %q, %out[%c3] : memref<?xi32>
  coro.suspend "half"
  %m7 = arith.constant -7 : i32
  %p3 = arith.constant 3 : i32
  %n3 = arith.constant -3 : i32
  %r4 = arith.remsi %m7, %p3 : i32
  memref.store %r4, %out[%c4] : memref<?xi32>
  %r5 = arith.remsi %m7, %n3 : i32
  memref.store %r5, %out[%c5] : memref<?xi32>
  %va = vector.from_elements %m7, %c7_i32, %a, %c0_i32 : vector<4xi32>
  %vb = vector.from_elements %p3, %n3, %b, %c5_i32 : vector<4xi32>
  %vr = arith.remsi %va, %vb : vector<4xi32>
  %e0 = vector.extract %vr[0] : i32 from vector<4xi32>
  %e1 = vector.extract %vr[1] : i32 from vector<4xi32>
  memref.store %e0, %out[%c6] : memref<?xi32>
  memref.store %e1, %out[%c7] : memref<?xi32>
  %r64 = arith.remsi %a64, %b64 : i64
  memref.store %r64, %out64[%c0] : memref<?xi64>
  %q64 = arith.divsi %a64, %b64 : i64
  memref.store %q64, %out64[%c1] : memref<?xi64>
  coro.return
}

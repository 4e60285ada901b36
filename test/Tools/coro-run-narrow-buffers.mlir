// Buffers of i1, i8 and i16 elements: coro-run passes them as the kernels
// lay them out (a byte per i1 or i8, two per i16; Vulkan kernels without
// 8-bit storage reach bytes through whole 32-bit words, so the device
// buffers are rounded up to words). Each instance writes its own element,
// next to its neighbours' in the same word, after a suspension.
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-run %s --coro=narrow --grid=7 --buffer=i8:7:iota --buffer=i16:7:const=-300 --buffer=i1:7:iota --check --scheduler=megakernel | FileCheck %s
// RUN: coro-run %s --coro=narrow --grid=7 --buffer=i8:7:iota --buffer=i16:7:const=-300 --buffer=i1:7:iota --check --scheduler=state-machine --state-machine-steps=1 | FileCheck %s
// RUN: coro-run %s --coro=narrow --grid=7 --buffer=i8:7:iota --buffer=i16:7:const=-300 --buffer=i1:7:iota --check --scheduler=wavefront --capacity=3 | FileCheck %s
// RUN: coro-run %s --coro=narrow --grid=7 --buffer=i8:7:iota --buffer=i16:7:const=-300 --buffer=i1:7:iota --check --scheduler=persistent --output-dir=%t | FileCheck %s
// i8: 40 * (i + 1) wraps past 127; i16: -300 * (i + 1); i1: the instance
// index's low bit, negated, xor the element.
// CHECK: buffer 0 (i8 x 7): [40, 80, 120, -96, -56, -16, 24]
// CHECK: buffer 1 (i16 x 7): [-300, -600, -900, -1200, -1500, -1800, -2100]
// CHECK: buffer 2 (i1 x 7): [1, 1, 0, 1, 0, 1, 0]
// .npy dtypes: |i1 (int8), <i2 (int16), |b1 (bool).
// RUN: grep -a "'descr': '|i1'" %t/buffer0.npy
// RUN: grep -a "'descr': '<i2'" %t/buffer1.npy
// RUN: grep -a "'descr': '|b1'" %t/buffer2.npy
// RUN: coro-run %s --coro=narrow --grid=7 --buffer=i8:7:npy=%t/buffer0.npy --buffer=i16:7:npy=%t/buffer1.npy --buffer=i1:7:npy=%t/buffer2.npy | FileCheck %s --check-prefix=AGAIN
// AGAIN: buffer 0 (i8 x 7): [80, -97, -18, 61, -116, -37, 42]
// AGAIN: buffer 2 (i1 x 7): [0, 1, 1, 1, 1, 1, 1]
//
// Elements host and kernels lay out differently are refused at the
// coroutine, with what to use instead (exit code 3):
// RUN: not coro-run %s --coro=wide_index --grid=2 --buffer=i32:2:zeros 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: coro-run-narrow-buffers.mlir:[[# @LINE + 32]]:1: error: argument #0: memref<?xindex> holds elements of index, which host and kernels lay out differently; pass i1, integers of 8 to 64 bits, f16, f32 or f64 (an index is 32 bits in SPIR-V kernels and 64 in PTX ones: use i32 or i64)
// RUN: not coro-run %s --coro=vectors --grid=2 --buffer=f32:2:zeros 2>&1 | FileCheck %s --check-prefix=VECTOR
// VECTOR: error: argument #0: memref<?xvector<2xf32>> holds elements of vector<2xf32>, which host and kernels lay out differently; pass i1, integers of 8 to 64 bits, f16, f32 or f64 (use a memref of scalars and vector.load / vector.store)
// RUN: coro-run %s --coro=vectors --grid=2 --buffer=f32:2:zeros >/dev/null 2>&1; test $? -eq 3

coro.func @narrow(%bytes: memref<?xi8>, %halves: memref<?xi16>, %bits: memref<?xi1>) {
  %i = coro.id : index
  %b = memref.load %bytes[%i] : memref<?xi8>
  %h = memref.load %halves[%i] : memref<?xi16>
  %t = memref.load %bits[%i] : memref<?xi1>
  coro.suspend "loaded"
  %i32 = arith.index_cast %i : index to i32
  %one = arith.constant 1 : i32
  %n32 = arith.addi %i32, %one : i32
  %n8 = arith.trunci %n32 : i32 to i8
  %n16 = arith.trunci %n32 : i32 to i16
  %c40 = arith.constant 40 : i8
  %b2 = arith.muli %c40, %n8 : i8
  %bs = arith.addi %b2, %b : i8
  %i8 = arith.trunci %i32 : i32 to i8
  %b3 = arith.subi %bs, %i8 : i8
  %h2 = arith.muli %h, %n16 : i16
  %true = arith.constant true
  %low = arith.trunci %i32 : i32 to i1
  %not = arith.xori %low, %true : i1
  %t2 = arith.xori %not, %t : i1
  memref.store %b3, %bytes[%i] : memref<?xi8>
  memref.store %h2, %halves[%i] : memref<?xi16>
  memref.store %t2, %bits[%i] : memref<?xi1>
  coro.return
}

coro.func @wide_index(%a: memref<?xindex>) {
  coro.return
}

coro.func @vectors(%a: memref<?xvector<2xf32>>) {
  coro.return
}

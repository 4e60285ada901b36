// arith.floordivsi, arith.ceildivsi and arith.ceildivui of values that
// crossed a suspension run under every scheduler (the SPIR-V conversion
// rejected them before coro-spirv-expand-arith; found by a review).
// REQUIRES: vulkan
// RUN: coro-run %s --coro=divisions --grid=8 --buffer=i32:24:zeros --scheduler=megakernel --validate | FileCheck %s
// RUN: coro-run %s --coro=divisions --grid=8 --buffer=i32:24:zeros --scheduler=state-machine --validate | FileCheck %s
// RUN: coro-run %s --coro=divisions --grid=8 --buffer=i32:24:zeros --scheduler=wavefront --capacity=3 --validate | FileCheck %s
// RUN: coro-run %s --coro=divisions --grid=8 --buffer=i32:24:zeros --scheduler=persistent --persistent-batch=4 --validate | FileCheck %s
// out[3 id + k] for v = id - 4 = -4..3: k = 0 floor(v / 3), k = 1 ceil(v / 3),
// k = 2 ceil((v + 4) / 3) unsigned.
// CHECK: buffer 0 (i32 x 24): [-2, -1, 0, -1, -1, 1, -1, 0, 1, -1, 0, 1, 0, 0, 2, 0, 1, 2, 0, 1, 2, 1, 1, 3]
coro.func @divisions(%out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %k3 = arith.constant 3 : i32
  %k4 = arith.constant 4 : i32
  %id32 = arith.index_cast %id : index to i32
  %v = arith.subi %id32, %k4 : i32
  coro.suspend
  %floor = arith.floordivsi %v, %k3 : i32
  %ceil = arith.ceildivsi %v, %k3 : i32
  %ceilu = arith.ceildivui %id32, %k3 : i32
  %base = arith.muli %id, %c3 : index
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  memref.store %floor, %out[%base] : memref<?xi32>
  memref.store %ceil, %out[%i1] : memref<?xi32>
  memref.store %ceilu, %out[%i2] : memref<?xi32>
  coro.return
}

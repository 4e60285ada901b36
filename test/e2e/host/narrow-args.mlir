// i1 and i8 arguments, and vectors of them, from a host program: the kernel
// ABI reads them as LLVM keeps them (an i1 vector one bit per element) and
// SPIR-V kernels take them widened to 32 bits
// (coro-spirv-kernel-arguments). Each launch stores, for instance 0:
// [b, c (signed), vb[0], vb[1], vc[0], vc[2]].
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=megakernel | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=state-machine | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=wavefront | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=persistent | %run_host | FileCheck %s
// CHECK:      [1,  -5,  0,  1,  -128,  127]
// CHECK:      [0,  100,  1,  0,  3,  -1]
module attributes {gpu.container_module} {
  coro.func @k(%b: i1, %c: i8, %vb: vector<2xi1>, %vc: vector<3xi8>,
               %out: memref<?xi32>) {
    %id = coro.id : index
    coro.suspend
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %bi = arith.extui %b : i1 to i32
    %ci = arith.extsi %c : i8 to i32
    %vb0 = vector.extract %vb[0] : i1 from vector<2xi1>
    %vb1 = vector.extract %vb[1] : i1 from vector<2xi1>
    %vb0i = arith.extui %vb0 : i1 to i32
    %vb1i = arith.extui %vb1 : i1 to i32
    %vc0 = vector.extract %vc[0] : i8 from vector<3xi8>
    %vc2 = vector.extract %vc[2] : i8 from vector<3xi8>
    %vc0i = arith.extsi %vc0 : i8 to i32
    %vc2i = arith.extsi %vc2 : i8 to i32
    memref.store %bi, %out[%c0] : memref<?xi32>
    memref.store %ci, %out[%c1] : memref<?xi32>
    memref.store %vb0i, %out[%c2] : memref<?xi32>
    memref.store %vb1i, %out[%c3] : memref<?xi32>
    memref.store %vc0i, %out[%c4] : memref<?xi32>
    memref.store %vc2i, %out[%c5] : memref<?xi32>
    coro.return
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %out = memref.alloc(%c6) : memref<?xi32>
    %u = memref.cast %out : memref<?xi32> to memref<*xi32>
    %t = arith.constant true
    %f = arith.constant false
    %m5 = arith.constant -5 : i8
    %p100 = arith.constant 100 : i8
    %vb1 = arith.constant dense<[false, true]> : vector<2xi1>
    %vb2 = arith.constant dense<[true, false]> : vector<2xi1>
    %vc1 = arith.constant dense<[-128, 0, 127]> : vector<3xi8>
    %vc2 = arith.constant dense<[3, 9, -1]> : vector<3xi8>
    coro.launch @k[%c1](%t, %m5, %vb1, %vc1, %out)
        : (i1, i8, vector<2xi1>, vector<3xi8>, memref<?xi32>) -> ()
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    coro.launch @k[%c1](%f, %p100, %vb2, %vc2, %out)
        : (i1, i8, vector<2xi1>, vector<3xi8>, memref<?xi32>) -> ()
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %out : memref<?xi32>
    return
  }
}

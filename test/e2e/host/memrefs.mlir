// The memrefs a host program passes: a constant global (read, never
// written back), a subview at an offset, loops of the affine dialect on the
// host, gpu.host_register, and a launch of no instances (runs nothing).
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=wavefront | %run_host | FileCheck %s
// The table into out[0..3] gives [1, 2, 3, 4, 0, 0]; then the subview
// out[2..5], copied to a buffer and back, gets its index added:
// [3, 4, 0, 0] + [0, 1, 2, 3].
// CHECK:      sizes = [6]
// CHECK-NEXT: [1, 2, 3, 5, 2, 3]
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

  coro.func @copy(%dst: memref<?xf32>, %src: memref<4xf32>) {
    %i = coro.id : index
    %v = memref.load %src[%i] : memref<4xf32>
    coro.suspend "loaded"
    memref.store %v, %dst[%i] : memref<?xf32>
    coro.return
  }
  coro.func @add_index(%data: memref<?xf32>) {
    %i = coro.id : index
    %v = memref.load %data[%i] : memref<?xf32>
    coro.suspend "loaded"
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.addf %v, %f : f32
    memref.store %r, %data[%i] : memref<?xf32>
    coro.return
  }

  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %out = memref.alloc(%c6) : memref<?xf32>
    %zero = arith.constant 0.0 : f32
    affine.for %i = 0 to 6 {
      memref.store %zero, %out[%i] : memref<?xf32>
    }
    %u = memref.cast %out : memref<?xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %table = memref.get_global @table : memref<4xf32>
    coro.launch @copy[%c4](%out, %table) : (memref<?xf32>, memref<4xf32>) -> ()
    %tail = memref.subview %out[%c2] [%c4] [1]
        : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %flat = memref.alloc(%c4) : memref<?xf32>
    memref.copy %tail, %flat : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
    coro.launch @add_index[%c4](%flat) : (memref<?xf32>) -> ()
    memref.copy %flat, %tail : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    coro.launch @add_index[%c0](%out) : (memref<?xf32>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.host_unregister %u : memref<*xf32>
    memref.dealloc %flat : memref<?xf32>
    memref.dealloc %out : memref<?xf32>
    return
  }
}

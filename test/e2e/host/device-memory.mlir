// gpu.alloc, gpu.memcpy and gpu.dealloc in a host program: the device
// memory of the wrappers is host memory that each launch copies to the
// device and back, so a coroutine sees what the copy put there and the
// copy back sees what the launches left (7 + 1 + 1).
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=persistent | %run_host | FileCheck %s
// CHECK: sizes = [4]
// CHECK-NEXT: [9, 9, 9, 9]
module attributes {gpu.container_module} {
  coro.func @inc(%data: memref<?xi32>) {
    %id = coro.id : index
    %x = memref.load %data[%id] : memref<?xi32>
    coro.suspend "s"
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    memref.store %y, %data[%id] : memref<?xi32>
    coro.return
  }
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc(%c4) : memref<?xi32>
    %seven = arith.constant 7 : i32
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %seven, %host[%i] : memref<?xi32>
    }
    %dev = gpu.alloc (%c4) : memref<?xi32>
    gpu.memcpy %dev, %host : memref<?xi32>, memref<?xi32>
    coro.launch @inc[%c4](%dev) {scheduler = "wavefront"} : (memref<?xi32>) -> ()
    coro.launch @inc[%c4](%dev) : (memref<?xi32>) -> ()
    gpu.memcpy %host, %dev : memref<?xi32>, memref<?xi32>
    gpu.dealloc %dev : memref<?xi32>
    %u = memref.cast %host : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<?xi32>
    return
  }
}

// A kernel launched with other blocks than it was compiled for is an error
// of the run (SPIR-V fixes a kernel's workgroup size), not a wrong result.
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm | not %run_host 2>&1 | FileCheck %s
// CHECK: coro-runtime-wrappers: error: launch of @fill with blocks of 2x1x1 threads, but it was compiled for 4x1x1 (its known_block_size)
module attributes {gpu.container_module} {
  gpu.module @ext {
    gpu.func @fill(%data: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %data = memref.alloc(%c2) : memref<?xf32>
    gpu.launch_func @ext::@fill blocks in (%c1, %c1, %c1)
        threads in (%c2, %c1, %c1) args(%data : memref<?xf32>)
    memref.dealloc %data : memref<?xf32>
    return
  }
}

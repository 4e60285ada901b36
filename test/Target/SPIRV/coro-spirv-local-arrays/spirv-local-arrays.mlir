// RUN: coro-opt %s --coro-spirv-local-arrays | FileCheck %s

// Allocas in kernels move to Function storage; host allocas and allocas with
// a memory space are left alone.
// CHECK-LABEL: func.func @host(
// CHECK-NEXT:    memref.alloca() : memref<4xf32>
// CHECK-LABEL: gpu.func @kernel(
// CHECK-NEXT:    %[[A:.*]] = memref.alloca() : memref<2xf32, #spirv.storage_class<Function>>
// CHECK-NEXT:    memref.alloca() : memref<2xf32, 3>
// CHECK-NEXT:    memref.store %arg0, %[[A]][%arg1] : memref<2xf32, #spirv.storage_class<Function>>
module attributes {gpu.container_module} {
  func.func @host() {
    %a = memref.alloca() : memref<4xf32>
    return
  }
  gpu.module @kernels {
    gpu.func @kernel(%v: f32, %i: index) kernel {
      %a = memref.alloca() : memref<2xf32>
      %b = memref.alloca() : memref<2xf32, 3>
      memref.store %v, %a[%i] : memref<2xf32>
      gpu.return
    }
  }
}

// RUN: coro-opt %s --coro-spirv-workgroup-memory | FileCheck %s

// Each workgroup attribution becomes an allocation in Workgroup storage at
// the start of the kernel; the attributions are gone.
// CHECK-LABEL: gpu.func @prefix(%{{.*}}: memref<?xi32>) kernel
// CHECK-NOT:     workgroup(
// CHECK:         %[[A:.*]] = memref.alloc() : memref<64xi32, #spirv.storage_class<Workgroup>>
// CHECK:         %[[B:.*]] = memref.alloc() : memref<1xi32, #spirv.storage_class<Workgroup>>
// CHECK:         memref.store %{{.*}}, %[[A]][%{{.*}}]
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[B]][%{{.*}}]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @prefix(%out: memref<?xi32>) workgroup(%a : memref<64xi32, #gpu.address_space<workgroup>>, %b : memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = arith.index_cast %t : index to i32
      memref.store %v, %a[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %b[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
}

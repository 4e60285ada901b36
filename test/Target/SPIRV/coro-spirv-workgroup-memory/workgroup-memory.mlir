// RUN: coro-opt %s --split-input-file --coro-spirv-workgroup-memory | FileCheck %s

// The i32 attributions become one arena in Workgroup storage at the start
// of the kernel, each at its offset; the attributions are gone.
// CHECK-LABEL: gpu.func @prefix(%{{.*}}: memref<?xi32>) kernel
// CHECK-NOT:     workgroup(
// CHECK:         %[[ARENA:.*]] = memref.alloc() : memref<65xi32, #spirv.storage_class<Workgroup>>
// CHECK:         %[[T:.*]] = gpu.thread_id x
// CHECK:         memref.store %{{.*}}, %[[ARENA]][%[[T]]]
// CHECK:         gpu.barrier
// CHECK:         %[[AT:.*]] = arith.addi %{{.*}}, %[[C64:.*]] : index
// CHECK:         memref.load %[[ARENA]][%[[AT]]]
// CHECK:         memref.atomic_rmw addi %{{.*}}, %[[ARENA]][%{{.*}}]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @prefix(%out: memref<?xi32>) workgroup(%a : memref<64xi32, #gpu.address_space<workgroup>>, %b : memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = arith.index_cast %t : index to i32
      memref.store %v, %a[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %b[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      %old = memref.atomic_rmw addi %w, %b[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
      memref.store %old, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
}

// -----

// Every kernel of a gpu.module gets an arena of the largest size, so that
// their Workgroup variables can merge after the SPIR-V conversion; other
// attributions (not i32, not 1-D, or passed on to other ops) get their own
// allocation.
// CHECK-LABEL: gpu.func @small
// CHECK:         memref.alloc() : memref<96xi32, #spirv.storage_class<Workgroup>>
// CHECK-LABEL: gpu.func @mixed
// CHECK-DAG:     memref.alloc() : memref<96xi32, #spirv.storage_class<Workgroup>>
// CHECK-DAG:     memref.alloc() : memref<8xf32, #spirv.storage_class<Workgroup>>
// CHECK-DAG:     memref.alloc() : memref<4x4xi32, #spirv.storage_class<Workgroup>>
// CHECK-DAG:     memref.alloc() : memref<2xi32, #spirv.storage_class<Workgroup>>
// CHECK-LABEL: gpu.func @none
// CHECK-NOT:     memref.alloc
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @small(%out: memref<?xi32>) workgroup(%a : memref<16xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<16xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<?xi32>
      gpu.return
    }
    gpu.func @mixed(%out: memref<?xi32>) workgroup(%a : memref<96xi32, #gpu.address_space<workgroup>>, %f : memref<8xf32, #gpu.address_space<workgroup>>, %m : memref<4x4xi32, #gpu.address_space<workgroup>>, %c : memref<2xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<96xi32, #gpu.address_space<workgroup>>
      %x = memref.load %f[%c0] : memref<8xf32, #gpu.address_space<workgroup>>
      %y = memref.load %m[%c0, %c0] : memref<4x4xi32, #gpu.address_space<workgroup>>
      %d = memref.dim %c, %c0 : memref<2xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%d] : memref<?xi32>
      memref.store %y, %out[%c0] : memref<?xi32>
      gpu.return
    }
    gpu.func @none(%out: memref<?xi32>) kernel {
      gpu.return
    }
  }
}

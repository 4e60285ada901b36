// RUN: coro-opt %s --split-input-file --coro-spirv-convert-gpu | FileCheck %s

// exp2 becomes GLSL's Exp2, for f32 and vectors of f16.
// CHECK-LABEL: spirv.func @exp2(
// CHECK:         %{{.*}} = spirv.GL.Exp2 %{{.*}} : f32
// CHECK:         %{{.*}} = spirv.GL.Exp2 %{{.*}} : vector<2xf16>
// CHECK:       gpu.module @kernels
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float16], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @exp2(%out: memref<?xf32, #spirv.storage_class<StorageBuffer>>, %x: f32, %v: vector<2xf16>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %e = math.exp2 %x : f32
      %w = math.exp2 %v : vector<2xf16>
      %l = vector.extract %w[0] : f16 from vector<2xf16>
      %f = arith.extf %l : f16 to f32
      %s = arith.addf %e, %f : f32
      memref.store %s, %out[%c0] : memref<?xf32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

// -----

// An atomic exchange of an element of a buffer: the element's pointer, then
// AtomicExchange, whose result is the old value.
// CHECK-LABEL: spirv.func @exchange(
// CHECK-SAME:      %[[BUF:[^:]*]]: !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
// CHECK-SAME:      %[[V:[^:]*]]: i32
// CHECK:         %[[PTR:.*]] = spirv.AccessChain %[[BUF]][%{{.*}}, %{{.*}}]
// CHECK:         %[[OLD:.*]] = spirv.AtomicExchange <Device> <AcquireRelease> %[[PTR]], %[[V]] : !spirv.ptr<i32, StorageBuffer>
// CHECK:         spirv.Store "StorageBuffer" %{{.*}}, %[[OLD]] : i32
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @exchange(%buf: memref<?xi32, #spirv.storage_class<StorageBuffer>>, %v: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %old = memref.atomic_rmw assign %v, %buf[%c1] : (i32, memref<?xi32, #spirv.storage_class<StorageBuffer>>) -> i32
      memref.store %old, %buf[%c0] : memref<?xi32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

// -----

// memref.dim of a static size is the size (8, cast to i32 as a constant).
// CHECK-LABEL: spirv.func @static_dim(
// CHECK:         spirv.Constant 8 : i32
// CHECK:         %[[EIGHT:.*]] = spirv.Constant 8 : i32
// CHECK:         spirv.Store "StorageBuffer" %{{.*}}, %[[EIGHT]] : i32
// CHECK:       gpu.func @static_dim(
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    arith.index_cast %[[C8]] : index to i32
// CHECK-NOT:     memref.dim
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @static_dim(%out: memref<?xi32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %a = memref.alloca() : memref<8xi32, #spirv.storage_class<Function>>
      %n = memref.dim %a, %c0 : memref<8xi32, #spirv.storage_class<Function>>
      %i = arith.index_cast %n : index to i32
      memref.store %i, %out[%c0] : memref<?xi32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

// -----

// An atomic xor of a buffer element is an AtomicXor.
// CHECK-LABEL: spirv.func @xor(
// CHECK:         %[[PTR:.*]] = spirv.AccessChain
// CHECK:         spirv.AtomicXor <Device> <AcquireRelease> %[[PTR]], %{{.*}} : !spirv.ptr<i32, StorageBuffer>
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @xor(%buf: memref<?xi32, #spirv.storage_class<StorageBuffer>>, %v: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %old = memref.atomic_rmw xori %v, %buf[%c0] : (i32, memref<?xi32, #spirv.storage_class<StorageBuffer>>) -> i32
      gpu.return
    }
  }
}

// -----

// On workgroup memory the exchange's scope is the workgroup (as upstream's
// atomic_rmw patterns choose it), on buffers the device; 64-bit elements
// convert as 32-bit ones do.
// CHECK-LABEL: spirv.func @scopes(
// CHECK:         spirv.AtomicExchange <Workgroup> <AcquireRelease> %{{.*}}, %{{.*}} : !spirv.ptr<i32, Workgroup>
// CHECK:         spirv.AtomicXor <Workgroup> <AcquireRelease> %{{.*}}, %{{.*}} : !spirv.ptr<i32, Workgroup>
// CHECK:         spirv.AtomicExchange <Device> <AcquireRelease> %{{.*}}, %{{.*}} : !spirv.ptr<i64, StorageBuffer>
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Int64Atomics], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @scopes(%buf: memref<?xi32, #spirv.storage_class<StorageBuffer>>, %wide: memref<?xi64, #spirv.storage_class<StorageBuffer>>, %v: i32, %w: i64) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %shared = memref.alloc() : memref<4xi32, #spirv.storage_class<Workgroup>>
      %a = memref.atomic_rmw assign %v, %shared[%c0] : (i32, memref<4xi32, #spirv.storage_class<Workgroup>>) -> i32
      %b = memref.atomic_rmw xori %a, %shared[%c0] : (i32, memref<4xi32, #spirv.storage_class<Workgroup>>) -> i32
      memref.store %b, %buf[%c0] : memref<?xi32, #spirv.storage_class<StorageBuffer>>
      %c = memref.atomic_rmw assign %w, %wide[%c0] : (i64, memref<?xi64, #spirv.storage_class<StorageBuffer>>) -> i64
      gpu.return
    }
  }
}

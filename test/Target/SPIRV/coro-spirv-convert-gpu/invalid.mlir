// RUN: coro-opt %s --split-input-file --verify-diagnostics --coro-spirv-convert-gpu

// A Vulkan kernel is not given the sizes of its buffers.
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @dynamic_dim(%out: memref<?xi32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'memref.dim' op the size of a buffer argument is not available in SPIR-V kernels; pass it as an argument}}
      %n = memref.dim %out, %c0 : memref<?xi32, #spirv.storage_class<StorageBuffer>>
      %i = arith.index_cast %n : index to i32
      memref.store %i, %out[%c0] : memref<?xi32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

// -----

// A float exchange needs a Vulkan device feature: the conversion reports it
// at the op.
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @float_exchange(%buf: memref<?xf32, #spirv.storage_class<StorageBuffer>>, %v: f32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{failed to legalize operation 'memref.atomic_rmw'}}
      %old = memref.atomic_rmw assign %v, %buf[%c0] : (f32, memref<?xf32, #spirv.storage_class<StorageBuffer>>) -> f32
      memref.store %old, %buf[%c0] : memref<?xf32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

// -----

// A narrow exchange would need a compare-exchange loop on its word: the
// conversion reports it at the op.
module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @narrow_exchange(%buf: memref<?xi8, #spirv.storage_class<StorageBuffer>>, %v: i8) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{failed to legalize operation 'memref.atomic_rmw'}}
      %old = memref.atomic_rmw assign %v, %buf[%c0] : (i8, memref<?xi8, #spirv.storage_class<StorageBuffer>>) -> i8
      gpu.return
    }
  }
}

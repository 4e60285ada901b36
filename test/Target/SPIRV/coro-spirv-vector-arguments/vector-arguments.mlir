// RUN: coro-opt %s --split-input-file --coro-spirv-vector-arguments --verify-diagnostics | FileCheck %s

// A vector argument becomes a buffer of its packed elements, loaded at the
// kernel's start; the host launch passes such a buffer.
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @host(
  // CHECK-SAME:      %[[V:[^:]*]]: vector<3xf32>
  // CHECK:         %[[BUF:.*]] = memref.alloc() : memref<3xf32>
  // CHECK:         %[[E0:.*]] = vector.extract %[[V]][0] : f32 from vector<3xf32>
  // CHECK:         memref.store %[[E0]], %[[BUF]][%{{.*}}] : memref<3xf32>
  // CHECK:         %[[E2:.*]] = vector.extract %[[V]][2] : f32 from vector<3xf32>
  // CHECK:         memref.store %[[E2]], %[[BUF]][%{{.*}}] : memref<3xf32>
  // CHECK:         gpu.launch_func @kernels::@k {{.*}} args(%{{[^ ]*}} : i32, %[[BUF]] : memref<3xf32>, %{{[^ ]*}} : memref<?xf32>)
  // CHECK-NEXT:    memref.dealloc %[[BUF]] : memref<3xf32>
  func.func @host(%n: i32, %v: vector<3xf32>, %out: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32, %v : vector<3xf32>, %out : memref<?xf32>)
    return
  }
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @k(
    // CHECK-SAME:      %{{[^:]*}}: i32, %[[M:[^:]*]]: memref<3xf32>, %{{[^:]*}}: memref<?xf32>) kernel
    // CHECK:         %[[X:.*]] = memref.load %[[M]][%{{.*}}] : memref<3xf32>
    // CHECK:         %[[Y:.*]] = memref.load %[[M]][%{{.*}}] : memref<3xf32>
    // CHECK:         %[[Z:.*]] = memref.load %[[M]][%{{.*}}] : memref<3xf32>
    // CHECK:         %[[VEC:.*]] = vector.from_elements %[[X]], %[[Y]], %[[Z]] : vector<3xf32>
    // CHECK:         vector.extract %[[VEC]][1]
    gpu.func @k(%n: i32, %v: vector<3xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %y = vector.extract %v[1] : f32 from vector<3xf32>
      memref.store %y, %out[%c0] : memref<?xf32>
      gpu.return
    }
    // Not a kernel: left alone.
    // CHECK-LABEL: gpu.func @helper(
    // CHECK-SAME:      vector<3xf32>
    gpu.func @helper(%v: vector<3xf32>) {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument 0 is 'vector<4xi8>': a vector argument of a SPIR-V kernel has 1 to 4 elements of type i16, i32, i64, index, f16, f32 or f64 (the Vulkan target has no 8-bit storage and no longer vectors)}}
    gpu.func @k(%v: vector<4xi8>, %out: memref<?xi32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument 0 is 'vector<5xi32>': a vector argument of a SPIR-V kernel has 1 to 4 elements}}
    gpu.func @k(%v: vector<5xi32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument 0 is 'vector<2xbf16>': a vector argument of a SPIR-V kernel has 1 to 4 elements}}
    gpu.func @k(%v: vector<2xbf16>) kernel {
      gpu.return
    }
  }
}

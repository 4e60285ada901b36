// RUN: coro-opt %s --split-input-file --coro-spirv-kernel-arguments --verify-diagnostics | FileCheck %s

// A vector argument becomes a buffer of its packed elements, loaded at the
// kernel's start; the host launch passes such a buffer. Other arguments
// stay as they are.
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

// i1 and i8 arguments are passed in 32 bits and truncated at the kernel's
// start; so are the i1 and i8 elements of a vector. A kernel nobody
// launches changes too (a runtime may launch any kernel).
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @host(
  // CHECK-SAME:      %[[B:[^:]*]]: i1, %[[C:[^:]*]]: i8, %[[V:[^:]*]]: vector<2xi8>
  // CHECK-DAG:     %[[WB:.*]] = arith.extui %[[B]] : i1 to i32
  // CHECK-DAG:     %[[WC:.*]] = arith.extui %[[C]] : i8 to i32
  // CHECK:         %[[BUF:.*]] = memref.alloc() : memref<2xi32>
  // CHECK:         %[[E0:.*]] = vector.extract %[[V]][0] : i8 from vector<2xi8>
  // CHECK:         %[[W0:.*]] = arith.extui %[[E0]] : i8 to i32
  // CHECK:         memref.store %[[W0]], %[[BUF]][%{{.*}}] : memref<2xi32>
  // CHECK:         gpu.launch_func @kernels::@k {{.*}} args(%[[WB]] : i32, %[[WC]] : i32, %[[BUF]] : memref<2xi32>, %{{[^ ]*}} : i16)
  // CHECK-NEXT:    memref.dealloc %[[BUF]] : memref<2xi32>
  func.func @host(%b: i1, %c: i8, %v: vector<2xi8>, %s: i16) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : i1, %c : i8, %v : vector<2xi8>, %s : i16)
    return
  }
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @k(
    // CHECK-SAME:      %[[WB:[^:]*]]: i32, %[[WC:[^:]*]]: i32, %[[M:[^:]*]]: memref<2xi32>, %{{[^:]*}}: i16) kernel
    // CHECK-DAG:     %[[B:.*]] = arith.trunci %[[WB]] : i32 to i1
    // CHECK-DAG:     %[[C:.*]] = arith.trunci %[[WC]] : i32 to i8
    // CHECK:         %[[X:.*]] = memref.load %[[M]][%{{.*}}] : memref<2xi32>
    // CHECK:         %[[X8:.*]] = arith.trunci %[[X]] : i32 to i8
    // CHECK:         %[[Y:.*]] = memref.load %[[M]][%{{.*}}] : memref<2xi32>
    // CHECK:         %[[Y8:.*]] = arith.trunci %[[Y]] : i32 to i8
    // CHECK:         %[[VEC:.*]] = vector.from_elements %[[X8]], %[[Y8]] : vector<2xi8>
    // CHECK:         arith.select %[[B]], %[[C]]
    // CHECK:         vector.extract %[[VEC]][1]
    gpu.func @k(%b: i1, %c: i8, %v: vector<2xi8>, %s: i16) kernel {
      %z = arith.constant 0 : i8
      %x = arith.select %b, %c, %z : i8
      %y = vector.extract %v[1] : i8 from vector<2xi8>
      gpu.return
    }
    // CHECK-LABEL: gpu.func @unlaunched(
    // CHECK-SAME:      %{{[^:]*}}: i32) kernel
    // CHECK:         arith.trunci %{{.*}} : i32 to i1
    gpu.func @unlaunched(%b: i1) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument 0 is 'vector<5xi32>': a vector argument of a SPIR-V kernel has 1 dimension of 1 to 4 elements}}
    gpu.func @k(%v: vector<5xi32>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel argument 0 is 'vector<2xbf16>': a vector argument of a SPIR-V kernel has 1 dimension of 1 to 4 elements of type i1, i8, i16, i32, i64, index, f16, f32 or f64}}
    gpu.func @k(%v: vector<2xbf16>) kernel {
      gpu.return
    }
  }
}

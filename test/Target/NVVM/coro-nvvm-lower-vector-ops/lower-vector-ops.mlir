// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-lower-vector-ops))' | FileCheck %s
// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-lower-vector-ops,convert-gpu-to-nvvm))' | FileCheck %s --check-prefix=NVVM

// Strided slices become ops the vector-to-LLVM patterns take (a shuffle or
// extracts and inserts), which convert-gpu-to-nvvm then converts.
// CHECK-LABEL: gpu.module @slices
// CHECK-LABEL:   gpu.func @slice
// CHECK-NOT:       vector.extract_strided_slice
// CHECK-NOT:       vector.insert_strided_slice
// CHECK:           gpu.return
// NVVM-LABEL:  gpu.module @slices
// NVVM-NOT:      vector.
// NVVM:          llvm.return
gpu.module @slices {
  gpu.func @slice(%v: vector<4xf32>, %p: vector<2xi32>, %q: vector<4xi32>,
                  %out: memref<?xf32>, %iout: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = vector.extract_strided_slice %v
        {offsets = [1], sizes = [3], strides = [1]}
        : vector<4xf32> to vector<3xf32>
    vector.store %s, %out[%c0] : memref<?xf32>, vector<3xf32>
    %i = vector.insert_strided_slice %p, %q {offsets = [2], strides = [1]}
        : vector<2xi32> into vector<4xi32>
    vector.store %i, %iout[%c0] : memref<?xi32>, vector<4xi32>
    gpu.return
  }
}

// -----

// vector.step is its constant.
// CHECK-LABEL: gpu.module @step
// CHECK-LABEL:   gpu.func @lanes
// CHECK-NOT:       vector.step
// CHECK:           arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
gpu.module @step {
  gpu.func @lanes(%out: memref<?xindex>) kernel {
    %c0 = arith.constant 0 : index
    %s = vector.step : vector<4xindex>
    vector.store %s, %out[%c0] : memref<?xindex>, vector<4xindex>
    gpu.return
  }
}

// -----

// Ops the conversion already takes are left.
// CHECK-LABEL: gpu.module @kept
// CHECK-LABEL:   gpu.func @shuffle
// CHECK:           vector.shuffle
// CHECK:           vector.reduction <add>
gpu.module @kept {
  gpu.func @shuffle(%a: vector<2xi32>, %b: vector<2xi32>,
                    %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %s = vector.shuffle %a, %b [3, 0] : vector<2xi32>, vector<2xi32>
    %r = vector.reduction <add>, %s : vector<2xi32> into i32
    memref.store %r, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

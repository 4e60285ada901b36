// RUN: coro-opt %s --allow-unregistered-dialect --coro-spirv-local-arrays | FileCheck %s

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

// Arrays of index, of boolean vectors and of bf16, which the conversion
// rejects or gets wrong, hold i32 (or f32) elements, converted at each load
// and store.
// CHECK-LABEL: gpu.func @converted(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[B:[^:]*]]: vector<2xi1>, %[[H:[^:]*]]: bf16
// CHECK-DAG:     %[[IA:.*]] = memref.alloca() : memref<4xi32, #spirv.storage_class<Function>>
// CHECK-DAG:     %[[BA:.*]] = memref.alloca() : memref<4xvector<2xi32>, #spirv.storage_class<Function>>
// CHECK-DAG:     %[[HA:.*]] = memref.alloca() : memref<4xf32, #spirv.storage_class<Function>>
// CHECK:         %[[IW:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:         memref.store %[[IW]], %[[IA]][%[[I]]]
// CHECK:         %[[IL:.*]] = memref.load %[[IA]][%[[I]]]
// CHECK:         %[[IN:.*]] = arith.index_cast %[[IL]] : i32 to index
// CHECK:         %[[BW:.*]] = arith.extui %[[B]] : vector<2xi1> to vector<2xi32>
// CHECK:         memref.store %[[BW]], %[[BA]][%[[I]]]
// CHECK:         %[[BL:.*]] = memref.load %[[BA]][%[[I]]]
// CHECK:         %[[BN:.*]] = arith.trunci %[[BL]] : vector<2xi32> to vector<2xi1>
// CHECK:         %[[HW:.*]] = arith.extf %[[H]] : bf16 to f32
// CHECK:         memref.store %[[HW]], %[[HA]][%[[I]]]
// CHECK:         %[[HL:.*]] = memref.load %[[HA]][%[[I]]]
// CHECK:         %[[HN:.*]] = arith.truncf %[[HL]] : f32 to bf16
// CHECK:         "test.use"(%[[IN]], %[[BN]], %[[HN]])
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @converted(%i: index, %b: vector<2xi1>, %h: bf16) kernel {
      %ia = memref.alloca() : memref<4xindex>
      %ba = memref.alloca() : memref<4xvector<2xi1>>
      %ha = memref.alloca() : memref<4xbf16>
      memref.store %i, %ia[%i] : memref<4xindex>
      %il = memref.load %ia[%i] : memref<4xindex>
      memref.store %b, %ba[%i] : memref<4xvector<2xi1>>
      %bl = memref.load %ba[%i] : memref<4xvector<2xi1>>
      memref.store %h, %ha[%i] : memref<4xbf16>
      %hl = memref.load %ha[%i] : memref<4xbf16>
      "test.use"(%il, %bl, %hl) : (index, vector<2xi1>, bf16) -> ()
      gpu.return
    }
  }
}

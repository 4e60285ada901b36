// RUN: coro-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-scalarize-vector-memory))' \
// RUN:   | FileCheck %s

// A vector load from a memref of scalars becomes one load per element at
// the base index plus the element's position, and a vector store one
// extract and one store per element.
// CHECK-LABEL: gpu.func @one_dim(
// CHECK-SAME:      %[[IN:[^:]*]]: memref<?xf32>, %[[OUT:[^:]*]]: memref<?xf32>, %[[I:[^:]*]]: index
// CHECK-NOT:     vector.load
// CHECK:         %[[E0:.*]] = memref.load %[[IN]][%[[I]]] : memref<?xf32>
// CHECK:         %[[I1:.*]] = arith.addi %[[I]], %c1
// CHECK-NEXT:    %[[E1:.*]] = memref.load %[[IN]][%[[I1]]] : memref<?xf32>
// CHECK:         %[[I2:.*]] = arith.addi %[[I]], %c2
// CHECK-NEXT:    %[[E2:.*]] = memref.load %[[IN]][%[[I2]]] : memref<?xf32>
// CHECK-NEXT:    %[[V:.*]] = vector.from_elements %[[E0]], %[[E1]], %[[E2]] : vector<3xf32>
// CHECK-NEXT:    %[[D:.*]] = arith.addf %[[V]], %[[V]] : vector<3xf32>
// CHECK-NEXT:    %[[X0:.*]] = vector.extract %[[D]][0] : f32 from vector<3xf32>
// CHECK-NEXT:    memref.store %[[X0]], %[[OUT]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:    %[[X1:.*]] = vector.extract %[[D]][1] : f32 from vector<3xf32>
// CHECK:         %[[J1:.*]] = arith.addi %[[I]], %c1
// CHECK-NEXT:    memref.store %[[X1]], %[[OUT]][%[[J1]]] : memref<?xf32>
// CHECK-NEXT:    %[[X2:.*]] = vector.extract %[[D]][2] : f32 from vector<3xf32>
// CHECK:         %[[J2:.*]] = arith.addi %[[I]], %c2
// CHECK-NEXT:    memref.store %[[X2]], %[[OUT]][%[[J2]]] : memref<?xf32>
// CHECK-NOT:     vector.store
gpu.module @kernels {
  gpu.func @one_dim(%in: memref<?xf32>, %out: memref<?xf32>, %i: index) kernel {
    %v = vector.load %in[%i] : memref<?xf32>, vector<3xf32>
    %d = arith.addf %v, %v : vector<3xf32>
    vector.store %d, %out[%i] : memref<?xf32>, vector<3xf32>
    gpu.return
  }
}

// -----

// A 2-D vector covers the memref's two trailing dimensions, row by row; the
// leading index stays.
// CHECK-LABEL: gpu.func @two_dim(
// CHECK-SAME:      %[[M:[^:]*]]: memref<4x?x?xi32>, %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %[[C:[^:]*]]: index
// CHECK:         memref.load %[[M]][%[[A]], %[[B]], %[[C]]]
// CHECK:         %[[C1:.*]] = arith.addi %[[C]], %c1
// CHECK-NEXT:    memref.load %[[M]][%[[A]], %[[B]], %[[C1]]]
// CHECK:         %[[B1:.*]] = arith.addi %[[B]], %c1
// CHECK-NEXT:    memref.load %[[M]][%[[A]], %[[B1]], %[[C]]]
// CHECK:         %[[B1B:.*]] = arith.addi %[[B]], %c1
// CHECK:         %[[C1B:.*]] = arith.addi %[[C]], %c1
// CHECK-NEXT:    memref.load %[[M]][%[[A]], %[[B1B]], %[[C1B]]]
// CHECK:         vector.from_elements {{.*}} : vector<2x2xi32>
// CHECK-NOT:     vector.load
gpu.module @kernels {
  gpu.func @two_dim(%m: memref<4x?x?xi32>, %a: index, %b: index, %c: index,
                    %out: memref<?xi32>) kernel {
    %v = vector.load %m[%a, %b, %c] : memref<4x?x?xi32>, vector<2x2xi32>
    %e = vector.extract %v[1, 0] : i32 from vector<2x2xi32>
    memref.store %e, %out[%a] : memref<?xi32>
    gpu.return
  }
}

// -----

// On a memref of vectors the access is one memref access of the element
// (the conversion's vector ops failed there).
// CHECK-LABEL: gpu.func @vector_elements(
// CHECK-SAME:      %[[M:[^:]*]]: memref<?xvector<4xf32>>, %[[I:[^:]*]]: index
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[M]][%[[I]]] : memref<?xvector<4xf32>>
// CHECK-NEXT:    memref.store %[[V]], %[[M]][%[[I]]] : memref<?xvector<4xf32>>
// CHECK-NOT:     vector.
gpu.module @kernels {
  gpu.func @vector_elements(%m: memref<?xvector<4xf32>>, %i: index) kernel {
    %v = vector.load %m[%i] : memref<?xvector<4xf32>>, vector<4xf32>
    vector.store %v, %m[%i] : memref<?xvector<4xf32>>, vector<4xf32>
    gpu.return
  }
}

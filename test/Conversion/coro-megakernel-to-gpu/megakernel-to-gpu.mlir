// RUN: coro-opt %s --coro-megakernel-to-gpu=workgroup-size=32 | FileCheck %s

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @host(%arg0: index, %arg1: index, %arg2: memref<?xf32>) {
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[WG:.*]] = arith.constant 32 : index
// CHECK:         %[[GROUPS:.*]] = arith.ceildivui %arg0, %[[WG]] : index
// CHECK:         gpu.launch_func @coro_kernels::@kernel blocks in (%[[GROUPS]], %arg1, %[[ONE]]) threads in (%[[WG]], %[[ONE]], %[[ONE]]) args(%arg0 : index, %arg1 : index, %[[ONE]] : index, %arg2 : memref<?xf32>)
// CHECK:       gpu.module @coro_kernels {
// CHECK-LABEL:   gpu.func @kernel(%arg0: index, %arg1: index, %arg2: index, %arg3: memref<?xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
// CHECK-DAG:       %[[X:.*]] = gpu.global_id x
// CHECK-DAG:       %[[Y:.*]] = gpu.global_id y
// CHECK-DAG:       %[[Z:.*]] = gpu.global_id z
// CHECK:           scf.if %{{.*}} {
// CHECK:             %[[LINEAR:.*]] = arith.addi %[[X]], %{{.*}} : index
// CHECK:             memref.alloca() : memref<2xf32>
// CHECK-NOT:         coro.
// CHECK:             memref.store %{{.*}}, %arg3[%[[LINEAR]]]
// CHECK:           gpu.return
coro.func @kernel(%out: memref<?xf32>) {
  %id = coro.id : index
  %y = coro.id 1 : index
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<2xf32>
  %y64 = arith.index_cast %y : index to i64
  %yf = arith.sitofp %y64 : i64 to f32
  memref.store %yf, %a[%c0] : memref<2xf32>
  coro.suspend "s"
  %v = memref.load %a[%c0] : memref<2xf32>
  coro.promise "p", %v : f32
  memref.store %v, %out[%id] : memref<?xf32>
  coro.return
}
func.func @host(%w: index, %h: index, %out: memref<?xf32>) {
  coro.launch @kernel[%w, %h](%out) : (memref<?xf32>) -> ()
  return
}

// RUN: coro-opt %s --coro-split --coro-materialize-frame --coro-state-machine-to-gpu=workgroup-size=128 | FileCheck %s

// The whole chain from a user coroutine: coro-split and
// coro-materialize-frame, then the scheduler. The other tests here start
// from the split form (state-machine-to-gpu.mlir from this coroutine's).
// CHECK:       module attributes {coro.state_machine = {f = #coro_plan.state_machine<workgroupSize = 128, frameWords = 3, stepsPerLaunch = 0, subroutines = ["entry", "next"]>}
// CHECK-LABEL: func.func @host(
// CHECK:         %[[STATUS:.*]] = memref.alloc() : memref<2xi32>
// CHECK:         gpu.launch_func @coro_kernels::@f blocks in {{.*}}, %[[STATUS]] : memref<2xi32>)
// CHECK-NOT:   func.func @f__
// CHECK-NOT:   coro.
// CHECK:       gpu.module @coro_kernels {
// CHECK-LABEL:   gpu.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: f32, %arg4: memref<?xf32>, %arg5: memref<2xi32>) kernel
// CHECK:           %[[X:.*]] = gpu.global_id x
// CHECK:             %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// The entry keeps y in the frame; the next subroutine stores it.
// CHECK:               scf.if
// CHECK:                 %[[Y:.*]] = memref.load %arg4
// CHECK:                 %[[BITS:.*]] = arith.bitcast %[[Y]] : f32 to i32
// CHECK:                 memref.store %[[BITS]], %[[FRAME]]
// CHECK:               } else {
// CHECK:                 scf.if
// CHECK:                   %[[W:.*]] = memref.load %[[FRAME]]
// CHECK:                   %[[V:.*]] = arith.bitcast %[[W]] : i32 to f32
// CHECK:                   memref.store %[[V]], %arg4[%[[X]]]
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id 0 : index
  %y = memref.load %out[%id] : memref<?xf32>
  coro.suspend "next"
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
func.func @host(%n: index, %x: f32, %out: memref<?xf32>) {
  coro.launch @f[%n](%x, %out) : (f32, memref<?xf32>) -> ()
  return
}

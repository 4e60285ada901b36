// RUN: coro-opt %s --coro-state-machine-to-gpu=workgroup-size=128 | FileCheck %s

// One kernel per coroutine: the frame in private allocas, a loop over the
// token, the subroutines inlined into the cases (a chain of scf.if); the
// subroutines, the coroutine and the coro.split are gone.
// The plan tells the runtime how to launch the kernel:
// CHECK:       module attributes {coro.state_machine = {f = #coro_plan.state_machine<workgroupSize = 128, frameWords = 3, stepsPerLaunch = 0, subroutines = ["entry", "next"]>}
// CHECK-LABEL: func.func @host(
// CHECK:         %[[STATUS:.*]] = memref.alloc() : memref<2xi32>
// CHECK:         gpu.launch_func @coro_kernels::@f blocks in {{.*}}, %[[STATUS]] : memref<2xi32>)
// CHECK:         cf.assert
// CHECK-NOT:   func.func @f__
// CHECK-NOT:   coro.
// CHECK:       gpu.module @coro_kernels {
// CHECK-LABEL:   gpu.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: f32, %arg4: memref<?xf32>, %arg5: memref<2xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [128, 1, 1]>} {
// CHECK:           %[[X:.*]] = gpu.global_id x
// CHECK:           scf.if
// CHECK:             %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// CHECK:             scf.while : () -> () {
// CHECK:               memref.load %[[FRAME]]
// CHECK:               arith.cmpi ne, %{{.*}}, %[[RETURNED:.*]] : i32
// CHECK:             } do {
// CHECK:               scf.if
// CHECK:                 %[[Y:.*]] = memref.load %arg4
// CHECK:                 %[[BITS:.*]] = arith.bitcast %[[Y]] : f32 to i32
// CHECK:                 memref.store %[[BITS]], %[[FRAME]]
// CHECK:               } else {
// CHECK:                 scf.if
// CHECK:                   %[[W:.*]] = memref.load %[[FRAME]]
// CHECK:                   %[[V:.*]] = arith.bitcast %[[W]] : i32 to f32
// CHECK:                   memref.store %[[V]], %arg4[%[[X]]]
// An invalid token ends the instance instead of spinning on it:
// CHECK:                 } else {
// CHECK-NEXT:              %[[ENDED:.*]] = arith.constant 0 : index
// CHECK-NEXT:              memref.store %[[RETURNED]], %[[FRAME]][%[[ENDED]]]
// CHECK-NEXT:            }
// The instance counts as returned when its loop ended with token -1:
// CHECK:             }
// CHECK:             %[[TOKEN:.*]] = memref.load %[[FRAME]]
// CHECK:             %[[DONE:.*]] = arith.cmpi eq, %[[TOKEN]], %{{.*}} : i32
// CHECK:             scf.if %[[DONE]] {
// CHECK:               memref.atomic_rmw addi %{{.*}}, %arg5[%{{.*}}] : (i32, memref<2xi32>) -> i32
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id 0 : index
  %y = memref.load %out[%id] : memref<?xf32>
  coro.suspend "next"
  memref.store %y, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  %id = coro.frame.id %frame 0 : index
  %0 = memref.load %out[%id] : memref<?xf32>
  coro.frame.store %0, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  %id = coro.frame.id %frame 0 : index
  %0 = coro.frame.load %frame[0] : f32
  memref.store %0, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"v0" : f32 at 2>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {naive = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 1 : i64, values_recomputed = 0 : i64, values_stored = 1 : i64}}
func.func @host(%n: index, %x: f32, %out: memref<?xf32>) {
  coro.launch @f[%n](%x, %out) : (f32, memref<?xf32>) -> ()
  return
}

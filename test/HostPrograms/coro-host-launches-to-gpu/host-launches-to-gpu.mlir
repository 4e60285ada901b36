// RUN: coro-opt %s --split-input-file --coro-host-launches-to-gpu | FileCheck %s
// RUN: coro-opt %s --split-input-file "--coro-host-launches-to-gpu=target=sm_90 scheduler=state-machine" | FileCheck %s --check-prefix=PTX
// RUN: coro-opt %s --split-input-file "--coro-host-launches-to-gpu=scheduler=persistent scheduler-options='layout=aos persistent-batch=8 wavefront-workgroup-size=32'" | FileCheck %s --check-prefix=OPTIONS

// scheduler-options= reaches every scheduler's plan: the launch without a
// scheduler attribute runs persistent threads with 8 slots of aos frames,
// the wavefront launch has workgroups of 32.
// OPTIONS-DAG: gpu.binary @scale__persistent {{.*}}#coro_plan.persistent<workgroupSize = 64, {{.*}}batch = 8, {{.*}}layout = \22aos\22
// OPTIONS-DAG: gpu.binary @scale__wavefront {{.*}}#coro_plan.wavefront<workgroupSize = 32, {{.*}}layout = \22aos\22

// Each coroutine is compiled once per scheduler it is launched under, into a
// gpu.binary whose object starts with its #coro_plan.host_coroutine; the
// launches become gpu.launch_func ops of them over the launch's grid (one
// thread per "block": the grid counts instances). The coroutines are gone.
// CHECK-DAG:   gpu.binary @scale__wavefront  [#gpu.object<#spirv.target_env<{{.*}}>, bin = "coro-host-kernels v2\0A[#coro_plan.host_coroutine<name = \22scale\22, functionType = (f32, memref<?xf32>) -> (), target = \22spirv\22, plan = #coro_plan.wavefront<workgroupSize = 64, tokens = 2, {{.*}}subroutines = [\22entry\22, \22after\22]>>]\00
// CHECK-DAG:   gpu.binary @scale__megakernel  [#gpu.object<{{.*}}plan = #coro_plan.megakernel<workgroupSize = 64>>]\00
// CHECK-NOT:   coro.func
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[K:.*]]: f32, %[[DATA:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         gpu.launch_func @scale__wavefront::@scale blocks in (%[[N]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]]) args(%[[K]] : f32, %[[DATA]] : memref<?xf32>)
// CHECK:         gpu.launch_func @scale__megakernel::@scale blocks in (%[[N]], %[[M]], %{{.*}}) threads in
// CHECK:         gpu.launch_func @scale__wavefront::@scale blocks in
// CHECK-NOT:     coro.launch
// PTX:         gpu.binary @scale__wavefront  [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "coro-host-kernels v2\0A[#coro_plan.host_coroutine<name = \22scale\22, {{.*}}target = \22sm_90\22{{.*}}.entry scale__
// PTX:         gpu.binary @scale__state_machine  [#gpu.object<#nvvm.target<chip = "sm_90">, {{.*}}#coro_plan.state_machine<
module {
  coro.func @scale(%k: f32, %data: memref<?xf32>) {
    %id = coro.id : index
    %x = memref.load %data[%id] : memref<?xf32>
    coro.suspend "after"
    %y = arith.mulf %x, %k : f32
    memref.store %y, %data[%id] : memref<?xf32>
    coro.return
  }
  func.func @main(%k: f32, %data: memref<?xf32>, %n: index, %m: index) {
    coro.launch @scale[%n](%k, %data) {scheduler = "wavefront"} : (f32, memref<?xf32>) -> ()
    coro.launch @scale[%n, %m](%k, %data) : (f32, memref<?xf32>) -> ()
    coro.launch @scale[%n](%k, %data) {scheduler = "wavefront"} : (f32, memref<?xf32>) -> ()
    return
  }
}

// -----

// A gpu.module becomes a gpu.binary of the same name, one
// #coro_plan.host_kernel per kernel with its workgroup size; the launches
// stay as they are.
// CHECK:       gpu.binary @ext  [#gpu.object<#spirv.target_env<{{.*}}>, bin = "coro-host-kernels v2\0A[#coro_plan.host_kernel<name = \22negate\22, functionType = (memref<?xf32>) -> (), target = \22spirv\22, workgroupSize = [8, 1, 1]>, #coro_plan.host_kernel<name = \22twice\22, functionType = (memref<?xf32>, f32) -> (), target = \22spirv\22, workgroupSize = [2, 2, 1]>]\00
// CHECK-NOT:   gpu.module
// CHECK-LABEL: func.func @launch(
// CHECK:         gpu.launch_func @ext::@negate blocks in
// PTX:         gpu.binary @ext  [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "coro-host-kernels v2\0A[#coro_plan.host_kernel<name = \22negate\22, {{.*}}target = \22sm_90\22, workgroupSize = [8, 1, 1]>{{.*}}.entry negate
module attributes {gpu.container_module} {
  gpu.module @ext {
    gpu.func @negate(%data: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 8, 1, 1>} {
      gpu.return
    }
    gpu.func @twice(%data: memref<?xf32>, %k: f32) kernel
        attributes {known_block_size = array<i32: 2, 2, 1>} {
      gpu.return
    }
  }
  func.func @launch(%data: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @ext::@negate blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%data : memref<?xf32>)
    return
  }
}

// -----

// A gpu.module without kernels has nothing to launch: it is dropped.
// CHECK-LABEL: func.func @nothing(
// CHECK-NOT:   gpu.module
// CHECK-NOT:   gpu.binary
module attributes {gpu.container_module} {
  gpu.module @helpers {
    gpu.func @helper(%x: f32) {
      gpu.return
    }
  }
  func.func @nothing() {
    return
  }
}

// -----

// Host code that keeps frames in a buffer (paper Listing 8): the frame size
// becomes the constant that the device code of @start, which drives @keep's
// frames, uses (the target token, the instance and %y). @main is host code
// because it calls @run, which launches; @twice is device code, called by
// @keep, and stays too (host code could call it as well).
// CHECK-LABEL: func.func @twice(
// CHECK-LABEL: func.func @run(
// CHECK-NOT:     coro.handle.frame_words
// CHECK:         %[[WORDS:.*]] = arith.constant 3 : index
// CHECK:         arith.muli %[[WORDS]], %{{.*}} : index
// CHECK:         gpu.launch_func @start__megakernel::@start
// CHECK-LABEL: func.func @main(
// CHECK:         call @run(
module {
  func.func @twice(%x: f32) -> f32 {
    %y = arith.addf %x, %x : f32
    return %y : f32
  }
  coro.func @keep(%data: memref<?xf32>) {
    %id = coro.id : index
    %x = memref.load %data[%id] : memref<?xf32>
    %y = func.call @twice(%x) : (f32) -> f32
    coro.suspend "later"
    memref.store %y, %data[%id] : memref<?xf32>
    coro.return
  }
  coro.func @start(%n: index, %data: memref<?xf32>, %frames: memref<?xi32>) {
    %id = coro.id : index
    %h = coro.handle.create @keep[%id] : !coro.handle<@keep>
    coro.handle.resume %h(%data) : !coro.handle<@keep>, (memref<?xf32>) -> ()
    coro.handle.store %h, %frames[%id] of %n : !coro.handle<@keep>, memref<?xi32>
    coro.return
  }
  func.func @run(%n: index, %data: memref<?xf32>) {
    %words = coro.handle.frame_words @keep : index
    %size = arith.muli %words, %n : index
    %frames = memref.alloc(%size) : memref<?xi32>
    coro.launch @start[%n](%n, %data, %frames) : (index, memref<?xf32>, memref<?xi32>) -> ()
    memref.dealloc %frames : memref<?xi32>
    return
  }
  func.func @main(%data: memref<?xf32>) {
    %c4 = arith.constant 4 : index
    func.call @run(%c4, %data) : (index, memref<?xf32>) -> ()
    return
  }
}

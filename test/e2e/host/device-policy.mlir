// One coroutine gets one code on one device, whatever compiles it: coro-run
// and a host program take the schedulers' options from the same policy
// (runner::getDefaultCompileOptions). Here, on the Vulkan device a run
// would use, `coro-run --emit=spirv --device-traits=native` and
// `coro-host-launches-to-gpu{device=native}` give the same SPIR-V under
// every scheduler.
// REQUIRES: vulkan
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-run %s --coro=k --scheduler=megakernel --emit=spirv --device-traits=native --emit-to=%t/run-megakernel.spv
// RUN: coro-opt %s --coro-host-launches-to-gpu="scheduler=megakernel device=native" | %python %S/Inputs/host-image.py @k__megakernel > %t/host-megakernel.spv
// RUN: cmp %t/run-megakernel.spv %t/host-megakernel.spv
// RUN: coro-run %s --coro=k --scheduler=state-machine --emit=spirv --device-traits=native --emit-to=%t/run-state-machine.spv
// RUN: coro-opt %s --coro-host-launches-to-gpu="scheduler=state-machine device=native" | %python %S/Inputs/host-image.py @k__state_machine > %t/host-state-machine.spv
// RUN: cmp %t/run-state-machine.spv %t/host-state-machine.spv
// RUN: coro-run %s --coro=k --scheduler=wavefront --emit=spirv --device-traits=native --emit-to=%t/run-wavefront.spv
// RUN: coro-opt %s --coro-host-launches-to-gpu="scheduler=wavefront device=native" | %python %S/Inputs/host-image.py @k__wavefront > %t/host-wavefront.spv
// RUN: cmp %t/run-wavefront.spv %t/host-wavefront.spv
// RUN: coro-run %s --coro=k --scheduler=persistent --emit=spirv --device-traits=native --emit-to=%t/run-persistent.spv
// RUN: coro-opt %s --coro-host-launches-to-gpu="scheduler=persistent device=native" | %python %S/Inputs/host-image.py @k__persistent > %t/host-persistent.spv
// RUN: cmp %t/run-persistent.spv %t/host-persistent.spv
//
// The device matters: on lavapipe (a CPU device) the persistent kernel has
// workgroups of one subgroup and tests its tokens in order, unlike the
// kernel for a GPU (device=gpu, the default).
// RUN: coro-opt %s --coro-host-launches-to-gpu="scheduler=persistent" | %python %S/Inputs/host-image.py @k__persistent > %t/host-persistent-gpu.spv
// RUN: not cmp -s %t/host-persistent.spv %t/host-persistent-gpu.spv
// RUN: coro-opt %s --coro-host-launches-to-gpu="scheduler=persistent device=cpu:8" | FileCheck %s --check-prefix=CPU
// CPU: coro_plan.persistent<workgroupSize = 8, {{.*}}batch = 32,
//
// A host program compiled for its device runs (values: 2 x [1, 2, 3, 4]):
// RUN: coro-opt %s --coro-host-to-llvm="scheduler=persistent device=native" | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm="scheduler=state-machine device=native" | %run_host | FileCheck %s
// CHECK: [2, 4, 6, 8]
//
// A device that is none of these is an error:
// RUN: not coro-opt %s --coro-host-launches-to-gpu="device=tpu" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: coro-host-launches-to-gpu: device 'tpu': expected gpu, cpu:N (a CPU device with subgroups of N lanes, lavapipe's cpu:8) or native
// RUN: not coro-run %s --coro=k --emit=spirv --device-traits=cpu:0 2>&1 | FileCheck %s --check-prefix=BAD-EMIT
// BAD-EMIT: coro-run: error: --device-traits: device 'cpu:0': the subgroup size must be 1 to 128 lanes
// RUN: not coro-run %s --coro=k --grid=4 --buffer=f32:4:iota --device-traits=native 2>&1 | FileCheck %s --check-prefix=RUN-TRAITS
// RUN-TRAITS: coro-run: error: --device-traits names the device --emit compiles for; a run compiles for the device it runs on

module attributes {gpu.container_module} {
  coro.func @k(%data: memref<?xf32>) {
    %i = coro.id : index
    %v = memref.load %data[%i] : memref<?xf32>
    coro.suspend "loaded"
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    coro.suspend "doubled"
    memref.store %r, %data[%i] : memref<?xf32>
    coro.return
  }

  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = memref.alloc(%c4) : memref<?xf32>
    scf.for %j = %c0 to %c4 step %c1 {
      %jj = arith.index_cast %j : index to i32
      %f = arith.sitofp %jj : i32 to f32
      %one = arith.constant 1.0 : f32
      %v = arith.addf %f, %one : f32
      memref.store %v, %d[%j] : memref<?xf32>
    }
    coro.launch @k[%c4](%d) : (memref<?xf32>) -> ()
    %u = memref.cast %d : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %d : memref<?xf32>
    return
  }
}

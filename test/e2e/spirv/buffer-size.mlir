// memref.dim of a buffer argument: Vulkan kernels are not given the sizes
// of their buffers (buffers are whole words, narrow elements live in
// words), so coro-spirv-convert-gpu reports the op under every scheduler
// (exit code 3, the coroutine did not compile); PTX kernels take each
// memref's size as an argument and compile it.
// RUN: not coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=megakernel --emit=spirv --emit-to=%t.spv 2>&1 | FileCheck %s
// RUN: not coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=state-machine --emit=spirv --emit-to=%t.spv 2>&1 | FileCheck %s
// RUN: not coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=wavefront --emit=spirv --emit-to=%t.spv 2>&1 | FileCheck %s
// RUN: not coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=persistent --emit=spirv --emit-to=%t.spv 2>&1 | FileCheck %s
// RUN: coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=megakernel --emit=ptx --chip=sm_90 --emit-to=%t.mk.ptx
// RUN: coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=state-machine --emit=ptx --chip=sm_90 --emit-to=%t.sm.ptx
// RUN: coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=wavefront --emit=ptx --chip=sm_90 --emit-to=%t.wf.ptx
// RUN: coro-run %s --coro=sizes --grid=4 --buffer=i32:6:zeros --scheduler=persistent --emit=ptx --chip=sm_90 --emit-to=%t.pt.ptx
// CHECK: buffer-size.mlir:[[# @LINE + 7]]:8: error: 'memref.dim' op the size of a buffer argument is not available in SPIR-V kernels; pass it as an argument
// CHECK-NEXT: %n = memref.dim %out, %c0 : memref<?xi32>
coro.func @sizes(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  coro.suspend
  // Each instance stores the buffer's length.
  %n = memref.dim %out, %c0 : memref<?xi32>
  %n32 = arith.index_cast %n : index to i32
  memref.store %n32, %out[%id] : memref<?xi32>
  coro.return
}

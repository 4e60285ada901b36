// One memref passed twice to a launch: the wrappers copy each memref to the
// device on its own, so the two arguments would not see each other's
// stores. That is an error of the run, not a wrong result.
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm | not %run_host 2>&1 | FileCheck %s
// CHECK: coro-runtime-wrappers: error: @inc gets memrefs that share memory (argument #1 and an earlier one); the wrappers copy each memref to the device on its own, so pass it once
module attributes {gpu.container_module} {
  coro.func @inc(%dst: memref<?xf32>, %src: memref<?xf32>) {
    %i = coro.id : index
    %v = memref.load %src[%i] : memref<?xf32>
    %one = arith.constant 1.0 : f32
    %r = arith.addf %v, %one : f32
    memref.store %r, %dst[%i] : memref<?xf32>
    coro.return
  }
  func.func @main() {
    %c4 = arith.constant 4 : index
    %a = memref.alloc(%c4) : memref<?xf32>
    coro.launch @inc[%c4](%a, %a) : (memref<?xf32>, memref<?xf32>) -> ()
    memref.dealloc %a : memref<?xf32>
    return
  }
}

// With a CUDA toolkit, libdevice calls are linked into the PTX, which ptxas
// accepts; sqrt stays an instruction.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-opt %s "--coro-to-ptx=scheduler=state-machine chip=sm_75" --coro-write-kernels=output-dir=%t -o /dev/null
// RUN: FileCheck %s < %t/coro_kernels.sm_75.ptx
// RUN: %ptxas -arch=sm_75 %t/coro_kernels.sm_75.ptx -o /dev/null
// CHECK-NOT: .extern .func
// CHECK: .entry waves(
// CHECK: sqrt.approx.f32
// CHECK-NOT: .extern .func

coro.func @waves(%out: memref<?xf32>) {
  %i = coro.id : index
  %n = arith.index_cast %i : index to i32
  %x = arith.sitofp %n : i32 to f32
  coro.suspend "before_sin"
  %s = math.sin %x : f32
  %r = math.sqrt %s : f32
  memref.store %r, %out[%i] : memref<?xf32>
  coro.return
}

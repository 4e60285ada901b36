// Math ops PTX has instructions for need no CUDA toolkit; the others are
// libdevice calls, linked from the toolkit the pipeline finds, and without
// one an error at the op.
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-opt %s --split-input-file --verify-diagnostics "--coro-to-ptx=scheduler=state-machine chip=sm_75 cuda-toolkit=%t/no-toolkit" --coro-write-kernels=output-dir=%t/native -o /dev/null
// RUN: FileCheck %s --check-prefix=NATIVE < %t/native/coro_kernels.sm_75.ptx
// NATIVE: .entry roots(
// NATIVE-NOT: __nv_
// NATIVE: sqrt.approx.f32
// NATIVE-NOT: __nv_
// NATIVE: abs.f32
// NATIVE-NOT: __nv_
// NATIVE: cvt.rmi.f32.f32
// NATIVE-NOT: __nv_
// NATIVE: sqrt.rn.f64
// NATIVE-NOT: __nv_

coro.func @roots(%out: memref<?xf32>) {
  %i = coro.id : index
  %n = arith.index_cast %i : index to i32
  %x = arith.sitofp %n : i32 to f32
  %root = math.sqrt %x : f32
  coro.suspend "after_sqrt"
  %neg = arith.negf %root : f32
  %abs = math.absf %neg : f32
  %floor = math.floor %abs : f32
  %wide = arith.extf %floor : f32 to f64
  %wideRoot = math.sqrt %wide : f64
  %narrow = arith.truncf %wideRoot : f64 to f32
  memref.store %narrow, %out[%i] : memref<?xf32>
  coro.return
}

// -----

coro.func @waves(%out: memref<?xf32>) {
  %i = coro.id : index
  %n = arith.index_cast %i : index to i32
  %x = arith.sitofp %n : i32 to f32
  coro.suspend "before_sin"
  // expected-error @below {{math function '__nv_sinf' is in libdevice, and no CUDA toolkit with nvvm/libdevice/libdevice.10.bc was found (set CUDA_HOME to one)}}
  %s = math.sin %x : f32
  memref.store %s, %out[%i] : memref<?xf32>
  coro.return
}

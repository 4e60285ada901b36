// RUN: coro-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(coro-nvvm-native-math{libdevice=false}))' | FileCheck %s

// Without libdevice, the calls PTX has instructions for are still replaced.
// CHECK-LABEL: gpu.module @native_only
// CHECK-NOT:     __nv_
// CHECK:         llvm.call_intrinsic "llvm.nvvm.sqrt.approx.f"
gpu.module @native_only {
  llvm.func @__nv_sqrtf(f32) -> f32
  llvm.func @kernel(%a: f32) -> f32 {
    %0 = llvm.call @__nv_sqrtf(%a) : (f32) -> f32
    llvm.return %0 : f32
  }
}

// -----

// Without libdevice, each call that needs it is an error at its location
// (that of the math op it was lowered from).
gpu.module @needs_libdevice {
  llvm.func @__nv_sinf(f32) -> f32
  llvm.func @__nv_exp(f64) -> f64
  llvm.func @__nv_sincosf(f32, !llvm.ptr, !llvm.ptr)
  llvm.func @kernel(%a: f32, %b: f64, %sin: !llvm.ptr, %cos: !llvm.ptr) -> f64 {
    // expected-error @below {{math function '__nv_sinf' is in libdevice, and no CUDA toolkit with nvvm/libdevice/libdevice.10.bc was found (set CUDA_HOME to one)}}
    %0 = llvm.call @__nv_sinf(%a) : (f32) -> f32
    // expected-error @below {{math function '__nv_exp' is in libdevice}}
    %1 = llvm.call @__nv_exp(%b) : (f64) -> f64
    // expected-error @below {{math function '__nv_sincosf' is in libdevice}}
    llvm.call @__nv_sincosf(%a, %sin, %cos) : (f32, !llvm.ptr, !llvm.ptr) -> ()
    llvm.return %1 : f64
  }
}

// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-native-math))' | FileCheck %s

// The libdevice calls PTX has an instruction for become LLVM intrinsics, in
// f32 (`f` suffix) and f64 (the f32 square root the approximate one, as
// libdevice has it); their declarations go. The others stay.
// CHECK-LABEL: gpu.module @native
// CHECK-NOT:     llvm.func @__nv_sqrtf
// CHECK:         llvm.func @__nv_sinf(f32) -> f32
// CHECK-NOT:     llvm.func @__nv_
// CHECK-LABEL:   llvm.func @kernel
// CHECK:           %[[S:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.f"(%{{.*}}) : (f32) -> f32
// CHECK:           llvm.intr.fabs(%{{.*}}) : (f64) -> f64
// CHECK:           llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
// CHECK:           llvm.intr.floor(%[[S]]) : (f32) -> f32
// CHECK:           llvm.intr.ceil({{.*}}) : (f64) -> f64
// CHECK:           llvm.intr.trunc
// CHECK:           llvm.intr.roundeven
// CHECK:           llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK:           llvm.intr.copysign({{.*}}) : (f64, f64) -> f64
// CHECK:           llvm.call @__nv_sinf
gpu.module @native {
  llvm.func @__nv_sqrtf(f32) -> f32
  llvm.func @__nv_fabs(f64) -> f64
  llvm.func @__nv_sqrt(f64) -> f64
  llvm.func @__nv_floorf(f32) -> f32
  llvm.func @__nv_ceil(f64) -> f64
  llvm.func @__nv_truncf(f32) -> f32
  llvm.func @__nv_rintf(f32) -> f32
  llvm.func @__nv_fmaf(f32, f32, f32) -> f32
  llvm.func @__nv_copysign(f64, f64) -> f64
  llvm.func @__nv_sinf(f32) -> f32
  llvm.func @kernel(%a: f32, %b: f64) -> f32 {
    %0 = llvm.call @__nv_sqrtf(%a) : (f32) -> f32
    %abs = llvm.call @__nv_fabs(%b) : (f64) -> f64
    %1 = llvm.call @__nv_sqrt(%abs) : (f64) -> f64
    %2 = llvm.call @__nv_floorf(%0) : (f32) -> f32
    %3 = llvm.call @__nv_ceil(%1) : (f64) -> f64
    %4 = llvm.call @__nv_truncf(%2) : (f32) -> f32
    %5 = llvm.call @__nv_rintf(%4) : (f32) -> f32
    %6 = llvm.call @__nv_fmaf(%5, %5, %a) : (f32, f32, f32) -> f32
    %7 = llvm.call @__nv_copysign(%3, %b) : (f64, f64) -> f64
    %8 = llvm.fptrunc %7 : f64 to f32
    %9 = llvm.fadd %6, %8 : f32
    %10 = llvm.call @__nv_sinf(%9) : (f32) -> f32
    llvm.return %10 : f32
  }
}

// -----

// Calls that only look like libdevice's are left: a name without the `f`
// suffix on f32, and functions of the module's own.
// CHECK-LABEL: gpu.module @lookalikes
// CHECK:         llvm.call @__nv_sqrt(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @sqrtf
gpu.module @lookalikes {
  llvm.func @__nv_sqrt(f32) -> f32
  llvm.func @sqrtf(f32) -> f32
  llvm.func @kernel(%a: f32) -> f32 {
    %0 = llvm.call @__nv_sqrt(%a) : (f32) -> f32
    %1 = llvm.call @sqrtf(%0) : (f32) -> f32
    llvm.return %1 : f32
  }
}

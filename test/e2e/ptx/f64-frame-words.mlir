// The wavefront scheduler's entry kernel stores the two words of an f64
// widened from an f32 from the 32-bit registers mov.b64 takes out of it
// (coro-nvvm-unpack-f64), never with `st.global.b32 [...], %rd` of the f64's
// own register, which ptxas of CUDA 13.0 miscompiled into a conversion to
// an integer on an H100 (float_widths lost the low word of its f64).
// RUN: rm -rf %t && coro-opt %coro_src/test/e2e/programs/float-widths.mlir "--coro-to-ptx=scheduler=wavefront chip=sm_90" --coro-write-kernels=output-dir=%t -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s
// No kernel of the module stores part of a float-written register:
// RUN: env PYTHONPATH=%coro_src/tools/coro-fuzz %python -m corofuzz.ptx %t/coro_kernels.sm_90.ptx
// CHECK-LABEL: .entry float_widths__wf_0(
// CHECK:         cvt.f64.f32 [[D:%rd[0-9]+]], %r
// CHECK-NOT:     st.global.b32 {{.*}}, [[D]];
// CHECK:         mov.b64 {[[LO:%r[0-9]+]], tmp}, [[D]];
// CHECK:         mov.b64 {tmp, [[HI:%r[0-9]+]]}, [[D]];
// CHECK:         st.global.b32 {{.*}}, [[LO]];
// CHECK:         st.global.b32 {{.*}}, [[HI]];

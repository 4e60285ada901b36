// The PTX pipeline declares the persistent-threads kernel's workgroup
// arrays `.align 16` (coro-nvvm-align-globals), as the vectorized
// `st.shared.v4.b32` accesses to them need: declared `.align 4`, they failed
// on an H100 with CUDA_ERROR_MISALIGNED_ADDRESS.
// RUN: rm -rf %t && coro-opt %coro_src/test/e2e/programs/int-widths.mlir "--coro-to-ptx=scheduler=persistent chip=sm_90" --coro-write-kernels=output-dir=%t -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s
// CHECK-NOT:   .shared .align 4
// CHECK:       .shared .align 16 .b8 __wg_int_widths__pt_0
// CHECK:       st.shared.v4.b32

// The persistent scheduler's workgroup-memory budget counts that padding: a
// plan that fills 48 KiB to the last word with the arrays' exact sizes took
// 0xc008 bytes once aligned, and ptxas refused it.
// REQUIRES: ptxas
// RUN: coro-run %coro_src/test/e2e/programs/float-widths.mlir --coro=float_widths --grid=100 --buffer=f32:100:random=7 --buffer=f32:100:zeros --buffer=f64:200:zeros --scheduler=persistent --persistent-shared-memory=49152 --persistent-batch=2000 --emit=ptx --chip=sm_90 --emit-to=%t.budget.ptx
// RUN: %ptxas -arch=sm_90 %t.budget.ptx -o /dev/null

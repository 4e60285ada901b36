// The PTX pipeline declares the persistent-threads kernel's workgroup
// arrays `.align 16` (coro-nvvm-align-globals), as the vectorized
// `st.shared.v4.b32` accesses to them need: declared `.align 4`, they failed
// on an H100 with CUDA_ERROR_MISALIGNED_ADDRESS.
// RUN: rm -rf %t && coro-opt %coro_src/test/e2e/programs/int-widths.mlir "--coro-to-ptx=scheduler=persistent chip=sm_90" --coro-write-kernels=output-dir=%t -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s
// CHECK-NOT:   .shared .align 4
// CHECK:       .shared .align 16 .b8 __wg_int_widths__pt_0
// CHECK:       st.shared.v4.b32

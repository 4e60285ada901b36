// Every e2e program lowers to PTX under each GPU scheduler (no CUDA needed
// for that).
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-opt %coro_src/test/e2e/cpu/split-constructs.mlir "--coro-to-ptx=scheduler=megakernel chip=sm_90" --coro-write-kernels=output-dir=%t/megakernel -o /dev/null
// RUN: FileCheck %s < %t/megakernel/coro_kernels.sm_90.ptx
// RUN: coro-opt %coro_src/test/e2e/cpu/split-constructs.mlir "--coro-to-ptx=scheduler=state-machine chip=sm_90" --coro-write-kernels=output-dir=%t/state-machine -o /dev/null
// RUN: FileCheck %s < %t/state-machine/coro_kernels.sm_90.ptx
// RUN: coro-opt %coro_src/test/e2e/programs/many-suspends.mlir "--coro-to-ptx=scheduler=persistent chip=sm_90 persistent-batch=128" --coro-write-kernels=output-dir=%t/persistent -o /dev/null
// RUN: FileCheck %s --check-prefix=PERSISTENT < %t/persistent/coro_kernels.sm_90.ptx
// RUN: not coro-opt %coro_src/examples/shade.mlir "--coro-to-ptx=scheduler=sorted" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// CHECK: .target sm_90
// CHECK-DAG: .entry while_both(
// CHECK-DAG: .entry nested3(
// CHECK-DAG: .entry continue_loop(
// CHECK-DAG: .entry early_return(
// CHECK-DAG: .entry vectors(
// CHECK-DAG: .entry if_else(
// UNKNOWN: Cannot find option named 'sorted'!
// The persistent-threads kernel keeps slots in .shared memory (tokens, ids
// and the queue of 128 slots: 512 bytes each) and take batches with a
// global atomic (many-suspends.mlir: split-constructs.mlir has launches in
// IR, which this scheduler leaves to the runtime), 16-byte aligned for the
// vectorized accesses to them (workgroup-alignment.mlir):
// PERSISTENT: .entry many_suspends__pt(
// PERSISTENT: .shared .align 16 .b8 {{.*}}[512];
// PERSISTENT: bar.sync
// PERSISTENT: atom.global.add.u32

// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-align-globals))' | FileCheck %s

// Every global the GPU module defines, workgroup arrays (what
// convert-gpu-to-nvvm makes of workgroup attributions) and constants alike,
// becomes at least 16-byte aligned; larger alignments stay, declarations
// are left.
// CHECK-LABEL: gpu.module @globals
// CHECK:         llvm.mlir.global internal @__wg_kernel_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<10 x i32>
// CHECK:         llvm.mlir.global internal @__wg_kernel_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<3 x i32>
// CHECK:         llvm.mlir.global internal constant @table(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 4 : i32, alignment = 16 : i64}
// CHECK:         llvm.mlir.global internal @wide() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<4 x i32>
// CHECK:         llvm.mlir.global external @elsewhere() {addr_space = 3 : i32} : !llvm.array<4 x i32>
gpu.module @globals {
  llvm.mlir.global internal @__wg_kernel_0() {addr_space = 3 : i32} : !llvm.array<10 x i32>
  llvm.mlir.global internal @__wg_kernel_1() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<3 x i32>
  llvm.mlir.global internal constant @table(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 4 : i32} : !llvm.array<3 x i32>
  llvm.mlir.global internal @wide() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<4 x i32>
  llvm.mlir.global external @elsewhere() {addr_space = 3 : i32} : !llvm.array<4 x i32>
}

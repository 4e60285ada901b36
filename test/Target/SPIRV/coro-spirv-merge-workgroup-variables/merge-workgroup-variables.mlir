// RUN: coro-opt %s --pass-pipeline='builtin.module(spirv.module(coro-spirv-merge-workgroup-variables))' | FileCheck %s

// The Workgroup variables of one type used by different entry points
// become one (the n-th of a kernel with the n-th of another); a variable two
// functions use, one of a function that is not an entry point (a kernel
// might call it), variables of other types and other storage classes stay.
// CHECK-LABEL: spirv.module
// CHECK-DAG:     spirv.GlobalVariable @arena_a : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Workgroup>
// CHECK-DAG:     spirv.GlobalVariable @second_a : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Workgroup>
// CHECK-DAG:     spirv.GlobalVariable @floats_b : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4>)>, Workgroup>
// CHECK-DAG:     spirv.GlobalVariable @shared : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Workgroup>
// CHECK-DAG:     spirv.GlobalVariable @private_a : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Private>
// CHECK-DAG:     spirv.GlobalVariable @private_b : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Private>
// CHECK-DAG:     spirv.GlobalVariable @helper_only : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Workgroup>
// CHECK-NOT:     spirv.GlobalVariable @arena_b
// CHECK-NOT:     spirv.GlobalVariable @second_b
// CHECK-LABEL:   spirv.func @a
// CHECK:           spirv.mlir.addressof @arena_a
// CHECK:           spirv.mlir.addressof @second_a
// CHECK:           spirv.mlir.addressof @shared
// CHECK:           spirv.mlir.addressof @private_a
// CHECK-LABEL:   spirv.func @b
// CHECK:           spirv.mlir.addressof @arena_a
// CHECK:           spirv.mlir.addressof @second_a
// CHECK:           spirv.mlir.addressof @floats_b
// CHECK:           spirv.mlir.addressof @shared
// CHECK:           spirv.mlir.addressof @private_b
// CHECK-LABEL:   spirv.func @helper
// CHECK:           spirv.mlir.addressof @helper_only
!ints = !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Workgroup>
!floats = !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4>)>, Workgroup>
!private = !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4>)>, Private>
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @arena_a : !ints
  spirv.GlobalVariable @second_a : !ints
  spirv.GlobalVariable @arena_b : !ints
  spirv.GlobalVariable @second_b : !ints
  spirv.GlobalVariable @floats_b : !floats
  spirv.GlobalVariable @shared : !ints
  spirv.GlobalVariable @private_a : !private
  spirv.GlobalVariable @private_b : !private
  spirv.GlobalVariable @helper_only : !ints
  spirv.func @a() "None" {
    %0 = spirv.mlir.addressof @arena_a : !ints
    %1 = spirv.mlir.addressof @second_a : !ints
    %2 = spirv.mlir.addressof @shared : !ints
    %3 = spirv.mlir.addressof @private_a : !private
    spirv.Return
  }
  spirv.func @b() "None" {
    %0 = spirv.mlir.addressof @arena_b : !ints
    %1 = spirv.mlir.addressof @second_b : !ints
    %2 = spirv.mlir.addressof @floats_b : !floats
    %3 = spirv.mlir.addressof @shared : !ints
    %4 = spirv.mlir.addressof @private_b : !private
    spirv.Return
  }
  spirv.func @helper() "None" {
    %0 = spirv.mlir.addressof @helper_only : !ints
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @a
  spirv.EntryPoint "GLCompute" @b
}

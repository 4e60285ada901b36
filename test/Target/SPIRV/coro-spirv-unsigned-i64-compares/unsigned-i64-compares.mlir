// RUN: coro-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-unsigned-i64-compares))' \
// RUN:   | FileCheck %s

// Signed relational comparisons of i64 become unsigned ones of the operands
// with their sign bits flipped.
// CHECK-LABEL: gpu.func @signed(
// CHECK-SAME:      %[[A:.*]]: i64, %[[B:.*]]: i64
// CHECK:         %[[SIGN:.*]] = arith.constant -9223372036854775808 : i64
// CHECK-NEXT:    %[[FA:.*]] = arith.xori %[[A]], %[[SIGN]] : i64
// CHECK-NEXT:    %[[FB:.*]] = arith.xori %[[B]], %[[SIGN]] : i64
// CHECK-NEXT:    arith.cmpi ult, %[[FA]], %[[FB]] : i64
// CHECK:         arith.cmpi ule,
// CHECK:         arith.cmpi ugt,
// CHECK:         arith.cmpi uge,
// CHECK-NOT:     arith.cmpi s
gpu.module @kernels {
  gpu.func @signed(%a: i64, %b: i64, %out: memref<?xi1>) kernel {
    %c0 = arith.constant 0 : index
    %lt = arith.cmpi slt, %a, %b : i64
    %le = arith.cmpi sle, %a, %b : i64
    %gt = arith.cmpi sgt, %a, %b : i64
    %ge = arith.cmpi sge, %a, %b : i64
    memref.store %lt, %out[%c0] : memref<?xi1>
    memref.store %le, %out[%c0] : memref<?xi1>
    memref.store %gt, %out[%c0] : memref<?xi1>
    memref.store %ge, %out[%c0] : memref<?xi1>
    gpu.return
  }
}

// -----

// Vectors of i64 too.
// CHECK-LABEL: gpu.func @vector(
// CHECK:         %[[SIGN:.*]] = arith.constant dense<-9223372036854775808> : vector<2xi64>
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : vector<2xi64>
gpu.module @kernels {
  gpu.func @vector(%a: vector<2xi64>, %b: vector<2xi64>, %out: memref<?xvector<2xi1>>) kernel {
    %c0 = arith.constant 0 : index
    %lt = arith.cmpi slt, %a, %b : vector<2xi64>
    memref.store %lt, %out[%c0] : memref<?xvector<2xi1>>
    gpu.return
  }
}

// -----

// Equality, unsigned and narrower comparisons are left alone.
// CHECK-LABEL: gpu.func @others(
// CHECK-NOT:     arith.xori
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : i64
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : i64
// CHECK:         arith.cmpi slt, %{{.*}}, %{{.*}} : i32
gpu.module @kernels {
  gpu.func @others(%a: i64, %b: i64, %x: i32, %y: i32, %out: memref<?xi1>) kernel {
    %c0 = arith.constant 0 : index
    %eq = arith.cmpi eq, %a, %b : i64
    %ult = arith.cmpi ult, %a, %b : i64
    %slt = arith.cmpi slt, %x, %y : i32
    memref.store %eq, %out[%c0] : memref<?xi1>
    memref.store %ult, %out[%c0] : memref<?xi1>
    memref.store %slt, %out[%c0] : memref<?xi1>
    gpu.return
  }
}

// RUN: coro-opt %s --pass-pipeline='builtin.module(gpu.module(coro-nvvm-unpack-f64))' | FileCheck %s

// An f64's bits come from nvvm.d2i.lo/hi, put together again; other
// bitcasts are left.
// CHECK-LABEL: gpu.module @frames
// CHECK-LABEL:   llvm.func @store_f64
// CHECK-SAME:      (%[[X:.*]]: f32,
// CHECK:           %[[D:.*]] = llvm.fpext %[[X]] : f32 to f64
// CHECK-NOT:       llvm.bitcast %[[D]]
// CHECK:           %[[LO:.*]] = llvm.call_intrinsic "llvm.nvvm.d2i.lo"(%[[D]]) : (f64) -> i32
// CHECK:           %[[LO64:.*]] = llvm.zext %[[LO]] : i32 to i64
// CHECK:           %[[HI:.*]] = llvm.call_intrinsic "llvm.nvvm.d2i.hi"(%[[D]]) : (f64) -> i32
// CHECK:           %[[HI64:.*]] = llvm.zext %[[HI]] : i32 to i64
// CHECK:           %[[SHL:.*]] = llvm.shl %[[HI64]], %{{.*}} : i64
// CHECK:           %[[BITS:.*]] = llvm.or %[[SHL]], %[[LO64]] : i64
// CHECK:           llvm.trunc %[[BITS]] : i64 to i32
// CHECK:           llvm.lshr %[[BITS]]
// CHECK:           llvm.bitcast %[[X]] : f32 to i32
// CHECK:           llvm.bitcast %[[BITS]] : i64 to f64
gpu.module @frames {
  llvm.func @store_f64(%x: f32, %lo_word: !llvm.ptr<1>, %hi_word: !llvm.ptr<1>) -> f64 {
    %d = llvm.fpext %x : f32 to f64
    %bits = llvm.bitcast %d : f64 to i64
    %lo = llvm.trunc %bits : i64 to i32
    llvm.store %lo, %lo_word : i32, !llvm.ptr<1>
    %c32 = llvm.mlir.constant(32 : i64) : i64
    %shifted = llvm.lshr %bits, %c32 : i64
    %hi = llvm.trunc %shifted : i64 to i32
    llvm.store %hi, %hi_word : i32, !llvm.ptr<1>
    %f = llvm.bitcast %x : f32 to i32
    llvm.store %f, %lo_word : i32, !llvm.ptr<1>
    %back = llvm.bitcast %bits : i64 to f64
    llvm.return %back : f64
  }
}

// RUN: coro-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-expand-math))' \
// RUN:   | FileCheck %s

// atan2 from atan of the smaller magnitude over the larger one, moved into
// its quadrant, with the sign of y.
// CHECK-LABEL: gpu.func @atan2(
// CHECK-SAME:      %[[Y:[^:]*]]: f32, %[[X:[^:]*]]: f32
// CHECK-DAG:     %[[HALFPI:.*]] = arith.constant 1.57079637 : f32
// CHECK-DAG:     %[[PI:.*]] = arith.constant 3.14159274 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[AX:.*]] = math.absf %[[X]] : f32
// CHECK-DAG:     %[[AY:.*]] = math.absf %[[Y]] : f32
// CHECK:         %[[YL:.*]] = arith.cmpf ogt, %[[AY]], %[[AX]] : f32
// CHECK:         %[[HI:.*]] = arith.select %[[YL]], %[[AY]], %[[AX]] : f32
// CHECK:         %[[LO:.*]] = arith.select %[[YL]], %[[AX]], %[[AY]] : f32
// CHECK:         %[[BOTH0:.*]] = arith.cmpf oeq, %[[HI]], %[[ZERO]] : f32
// CHECK:         %[[Q:.*]] = arith.divf %[[LO]], %[[HI]] : f32
// CHECK:         %[[R:.*]] = arith.select %[[BOTH0]], %[[ZERO]], %[[Q]] : f32
// CHECK:         %[[A:.*]] = math.atan %[[R]] : f32
// CHECK:         %[[S1:.*]] = arith.subf %[[HALFPI]], %[[A]] : f32
// CHECK:         %[[A1:.*]] = arith.select %[[YL]], %[[S1]], %[[A]] : f32
// CHECK:         %[[XN:.*]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
// CHECK:         %[[S2:.*]] = arith.subf %[[PI]], %[[A1]] : f32
// CHECK:         %[[A2:.*]] = arith.select %[[XN]], %[[S2]], %[[A1]] : f32
// CHECK:         %[[RES:.*]] = math.copysign %[[A2]], %[[Y]] : f32
// CHECK:         "use"(%[[RES]])
// CHECK-NOT:     math.atan2
gpu.module @kernels {
  gpu.func @atan2(%y: f32, %x: f32) kernel {
    %a = math.atan2 %y, %x : f32
    "use"(%a) : (f32) -> ()
    gpu.return
  }
}

// -----

// Vectors of f16 too; f64 is left alone (GLSL's Atan takes no f64).
// CHECK-LABEL: gpu.func @atan2_types(
// CHECK:         math.atan %{{.*}} : vector<2xf16>
// CHECK:         math.copysign %{{.*}} : vector<2xf16>
// CHECK:         math.atan2 %{{.*}} : f64
gpu.module @kernels {
  gpu.func @atan2_types(%v: vector<2xf16>, %d: f64) kernel {
    %a = math.atan2 %v, %v : vector<2xf16>
    %b = math.atan2 %d, %d : f64
    "use"(%a, %b) : (vector<2xf16>, f64) -> ()
    gpu.return
  }
}

// -----

// trunc rounds towards zero: ceil below zero, floor above.
// CHECK-LABEL: gpu.func @trunc(
// CHECK-SAME:      %[[X:.*]]: f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
// CHECK:         %[[C:.*]] = math.ceil %[[X]] : f32
// CHECK:         %[[F:.*]] = math.floor %[[X]] : f32
// CHECK:         %[[T:.*]] = arith.select %[[NEG]], %[[C]], %[[F]] : f32
// CHECK:         "use"(%[[T]])
gpu.module @kernels {
  gpu.func @trunc(%x: f32) kernel {
    %t = math.trunc %x : f32
    "use"(%t) : (f32) -> ()
    gpu.return
  }
}

// -----

// sincos is a sin and a cos; isnormal two ordered comparisons of |x|;
// clampf upstream's expansion, as the op defines it: maxf(minf(x, min), max).
// CHECK-LABEL: gpu.func @others(
// CHECK-SAME:      %[[X:[^:]*]]: f32, %[[LO:[^:]*]]: f32, %[[HI:[^:]*]]: f32
// CHECK-DAG:     %[[MIN:.*]] = arith.constant 1.17549435E-38 : f32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:         %[[S:.*]] = math.sin %[[X]] : f32
// CHECK:         %[[C:.*]] = math.cos %[[X]] : f32
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK:         %[[GE:.*]] = arith.cmpf oge, %[[ABS]], %[[MIN]] : f32
// CHECK:         %[[LT:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : f32
// CHECK:         %[[N:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK:         %[[M:.*]] = arith.minimumf %[[X]], %[[LO]] : f32
// CHECK:         %[[CL:.*]] = arith.maximumf %[[M]], %[[HI]] : f32
// CHECK:         "use"(%[[S]], %[[C]], %[[N]], %[[CL]])
// CHECK-NOT:     math.sincos
gpu.module @kernels {
  gpu.func @others(%x: f32, %lo: f32, %hi: f32) kernel {
    %s, %c = math.sincos %x : f32
    %n = math.isnormal %x : f32
    %cl = math.clampf %x to [%lo, %hi] : f32
    "use"(%s, %c, %n, %cl) : (f32, f32, i1, f32) -> ()
    gpu.return
  }
}

// -----

// erf, erfc and cbrt on f32 take upstream's polynomial approximations.
// CHECK-LABEL: gpu.func @approximations(
// CHECK-NOT:     math.erf
// CHECK-NOT:     math.erfc
// CHECK-NOT:     math.cbrt
// CHECK:         "use"
gpu.module @kernels {
  gpu.func @approximations(%x: f32) kernel {
    %e = math.erf %x : f32
    %c = math.erfc %x : f32
    %r = math.cbrt %x : f32
    "use"(%e, %c, %r) : (f32, f32, f32) -> ()
    gpu.return
  }
}

// -----

// isfinite is |x| < inf: upstream's OpIsFinite is for OpenCL kernels only.
// CHECK-LABEL: gpu.func @isfinite(
// CHECK-SAME:      %[[X:.*]]: f32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK:         %[[F:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : f32
// CHECK:         "use"(%[[F]])
gpu.module @kernels {
  gpu.func @isfinite(%x: f32) kernel {
    %f = math.isfinite %x : f32
    "use"(%f) : (i1) -> ()
    gpu.return
  }
}

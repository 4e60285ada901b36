// RUN: coro-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-expand-arith))' \
// RUN:   | FileCheck %s

// Casts from i1 to index become selects: unsigned true is 1, signed true is
// all ones.
// CHECK-LABEL: gpu.func @from_bool(
// CHECK-SAME:      %[[B:.*]]: i1, %[[OUT:.*]]: memref<?xindex>
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[MINUS_ONE:.*]] = arith.constant -1 : index
// CHECK-DAG:     %[[U:.*]] = arith.select %[[B]], %[[ONE]], %[[ZERO]] : index
// CHECK-DAG:     %[[S:.*]] = arith.select %[[B]], %[[MINUS_ONE]], %{{.*}} : index
// CHECK-DAG:     memref.store %[[U]], %[[OUT]]
// CHECK-DAG:     memref.store %[[S]], %[[OUT]]
// CHECK-NOT:     arith.index_cast
gpu.module @kernels {
  gpu.func @from_bool(%b: i1, %out: memref<?xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %u = arith.index_castui %b : i1 to index
    %s = arith.index_cast %b : i1 to index
    memref.store %u, %out[%c0] : memref<?xindex>
    memref.store %s, %out[%c1] : memref<?xindex>
    gpu.return
  }
}

// -----

// Casts from index to i1 keep the low bit.
// CHECK-LABEL: gpu.func @to_bool(
// CHECK-SAME:      %[[I:.*]]: index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[LOW:.*]] = arith.andi %[[I]], %[[ONE]] : index
// CHECK-NEXT:    %[[BIT:.*]] = arith.cmpi ne, %[[LOW]], %[[ZERO]] : index
// CHECK:         scf.if %[[BIT]]
gpu.module @kernels {
  gpu.func @to_bool(%i: index, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %k1 = arith.constant 1 : i32
    %b = arith.index_castui %i : index to i1
    scf.if %b {
      memref.store %k1, %out[%c0] : memref<?xi32>
    }
    gpu.return
  }
}

// -----

// Casts between wider integers and index are left to the SPIR-V conversion.
// CHECK-LABEL: gpu.func @wide(
// CHECK:         arith.index_castui %{{.*}} : i32 to index
// CHECK:         arith.index_cast %{{.*}} : index to i64
gpu.module @kernels {
  gpu.func @wide(%x: i32, %out: memref<?xi64>) kernel {
    %c0 = arith.constant 0 : index
    %i = arith.index_castui %x : i32 to index
    %w = arith.index_cast %i : index to i64
    memref.store %w, %out[%c0] : memref<?xi64>
    gpu.return
  }
}

// -----

// Ceiling and floor divisions take the upstream expansions.
// CHECK-LABEL: gpu.func @divisions(
// CHECK-NOT:     arith.floordivsi
// CHECK-NOT:     arith.ceildivsi
// CHECK-NOT:     arith.ceildivui
// CHECK:         arith.divsi
// CHECK:         arith.divui
gpu.module @kernels {
  gpu.func @divisions(%a: i32, %b: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %f = arith.floordivsi %a, %b : i32
    %c = arith.ceildivsi %a, %b : i32
    %u = arith.ceildivui %a, %b : i32
    memref.store %f, %out[%c0] : memref<?xi32>
    memref.store %c, %out[%c0] : memref<?xi32>
    memref.store %u, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// A signed remainder: the magnitudes' unsigned remainder with the sign of
// the dividend (a < 0, not a == abs(a), which INT_MIN satisfies), for
// scalars and vectors alike.
// CHECK-LABEL: gpu.func @remainder(
// CHECK-SAME:      %[[A:[^:]*]]: i32, %[[B:[^:]*]]: i32, %[[V:[^:]*]]: vector<2xi64>, %[[W:[^:]*]]: vector<2xi64>
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[ANEG:.*]] = arith.cmpi slt, %[[A]], %[[ZERO]] : i32
// CHECK:         %[[BNEG:.*]] = arith.cmpi slt, %[[B]], %[[ZERO]] : i32
// CHECK:         %[[MA:.*]] = arith.subi %[[ZERO]], %[[A]] : i32
// CHECK:         %[[ABSA:.*]] = arith.select %[[ANEG]], %[[MA]], %[[A]] : i32
// CHECK:         %[[MB:.*]] = arith.subi %[[ZERO]], %[[B]] : i32
// CHECK:         %[[ABSB:.*]] = arith.select %[[BNEG]], %[[MB]], %[[B]] : i32
// CHECK:         %[[R:.*]] = arith.remui %[[ABSA]], %[[ABSB]] : i32
// CHECK:         %[[MR:.*]] = arith.subi %[[ZERO]], %[[R]] : i32
// CHECK:         %[[S:.*]] = arith.select %[[ANEG]], %[[MR]], %[[R]] : i32
// CHECK:         memref.store %[[S]]
// CHECK:         arith.cmpi slt, %[[V]], %{{.*}} : vector<2xi64>
// CHECK:         arith.remui %{{.*}}, %{{.*}} : vector<2xi64>
// CHECK-NOT:     arith.remsi
gpu.module @kernels {
  gpu.func @remainder(%a: i32, %b: i32, %v: vector<2xi64>, %w: vector<2xi64>,
                      %out: memref<?xi32>, %out64: memref<?xvector<2xi64>>) kernel {
    %c0 = arith.constant 0 : index
    %r = arith.remsi %a, %b : i32
    memref.store %r, %out[%c0] : memref<?xi32>
    %rv = arith.remsi %v, %w : vector<2xi64>
    memref.store %rv, %out64[%c0] : memref<?xvector<2xi64>>
    gpu.return
  }
}

// -----

// Bitcasts between bf16 and i16 (a frame field's bits) go through f32.
// CHECK-LABEL: gpu.func @bf16_bits(
// CHECK-SAME:      %[[X:[^:]*]]: bf16, %[[B:[^:]*]]: i16
// CHECK:         %[[SIXTEEN:.*]] = arith.constant 16 : i32
// CHECK:         %[[XW:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK:         %[[XB:.*]] = arith.bitcast %[[XW]] : f32 to i32
// CHECK:         %[[XH:.*]] = arith.shrui %[[XB]], %[[SIXTEEN]] : i32
// CHECK:         %[[BITS:.*]] = arith.trunci %[[XH]] : i32 to i16
// CHECK:         %[[BW:.*]] = arith.extui %[[B]] : i16 to i32
// CHECK:         %[[BH:.*]] = arith.shli %[[BW]], %[[SIXTEEN]] : i32
// CHECK:         %[[BF:.*]] = arith.bitcast %[[BH]] : i32 to f32
// CHECK:         %[[VALUE:.*]] = arith.truncf %[[BF]] : f32 to bf16
// CHECK:         "test.use"(%[[BITS]], %[[VALUE]])
// CHECK-NOT:     arith.bitcast {{.*}} bf16
gpu.module @kernels {
  gpu.func @bf16_bits(%x: bf16, %b: i16) kernel {
    %bits = arith.bitcast %x : bf16 to i16
    %value = arith.bitcast %b : i16 to bf16
    "test.use"(%bits, %value) : (i16, bf16) -> ()
    gpu.return
  }
}

// -----

// Arithmetic on i1 (and vectors of it) is arithmetic modulo 2: xor for
// addition and subtraction, and for multiplication. Wider integers keep
// their ops.
// CHECK-LABEL: gpu.func @bool_arithmetic(
// CHECK-SAME:      %[[A:.*]]: i1, %[[B:.*]]: i1, %[[V:.*]]: vector<2xi1>, %[[W:.*]]: i8
// CHECK:         %[[SUM:.*]] = arith.xori %[[A]], %[[B]] : i1
// CHECK:         %[[DIFF:.*]] = arith.xori %[[SUM]], %[[A]] : i1
// CHECK:         %[[PROD:.*]] = arith.andi %[[DIFF]], %[[B]] : i1
// CHECK:         %[[VSUM:.*]] = arith.xori %[[V]], %[[V]] : vector<2xi1>
// CHECK:         %[[VPROD:.*]] = arith.andi %[[VSUM]], %[[V]] : vector<2xi1>
// CHECK:         arith.addi %[[W]], %[[W]] : i8
// CHECK-NOT:     arith.addi {{.*}} : i1
// CHECK:         "use"(%[[PROD]], %[[VPROD]]
gpu.module @kernels {
  gpu.func @bool_arithmetic(%a: i1, %b: i1, %v: vector<2xi1>, %w: i8) kernel {
    %sum = arith.addi %a, %b : i1
    %diff = arith.subi %sum, %a : i1
    %prod = arith.muli %diff, %b : i1
    %vsum = arith.addi %v, %v : vector<2xi1>
    %vprod = arith.muli %vsum, %v : vector<2xi1>
    %wide = arith.addi %w, %w : i8
    "use"(%prod, %vprod, %wide) : (i1, vector<2xi1>, i8) -> ()
    gpu.return
  }
}

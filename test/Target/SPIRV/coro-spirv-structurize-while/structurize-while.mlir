// RUN: coro-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-structurize-while))' \
// RUN:   | FileCheck %s

// A loop in the condition region: the condition only tests a flag, the old
// condition region opens the body and the old body runs under an scf.if.
// The loop's results are the values the condition forwarded.
// CHECK-LABEL: gpu.func @loop_in_condition(
// CHECK-SAME:      %[[N:.*]]: i32, %[[INIT:.*]]: i32, %[[OUT:.*]]: memref<?xi32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[Z0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[Z1:.*]] = arith.constant 0 : i32
// CHECK:         %[[W:.*]]:4 = scf.while (%[[GO:.*]] = %[[TRUE]], %[[I:.*]] = %[[ZERO]], %[[A:.*]] = %[[INIT]], %[[R0:.*]] = %[[Z0]], %[[R1:.*]] = %[[Z1]]) : (i1, i32, i32, i32, i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT:      scf.condition(%[[GO]]) %[[I]], %[[A]], %[[R0]], %[[R1]] : i32, i32, i32, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[I2:.*]]: i32, %[[A2:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK:           %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[A2]]) -> (i32)
// CHECK:           %[[C:.*]] = arith.cmpi ult, %[[I2]], %[[N]] : i32
// CHECK-NEXT:      %[[INC:.*]] = arith.addi %[[I2]], %{{.*}} : i32
// CHECK-NEXT:      %[[NEXT:.*]]:2 = scf.if %[[C]] -> (i32, i32) {
// CHECK-NEXT:        %[[MUL:.*]] = arith.muli %[[SUM]], %{{.*}} : i32
// CHECK-NEXT:        scf.yield %[[INC]], %[[MUL]] : i32, i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[I2]], %[[A2]] : i32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[C]], %[[NEXT]]#0, %[[NEXT]]#1, %[[INC]], %[[SUM]] : i1, i32, i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %[[W]]#3, %[[OUT]]
gpu.module @kernels {
  gpu.func @loop_in_condition(%n: i32, %init: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %k3 = arith.constant 3 : i32
    %ub = arith.index_cast %n : i32 to index
    %r:2 = scf.while (%i = %k0, %a = %init) : (i32, i32) -> (i32, i32) {
      %v = scf.for %j = %c0 to %ub step %c1 iter_args(%acc = %a) -> (i32) {
        %x = arith.addi %acc, %k3 : i32
        scf.yield %x : i32
      }
      %go = arith.cmpi ult, %i, %n : i32
      %nx = arith.addi %i, %k1 : i32
      scf.condition(%go) %nx, %v : i32, i32
    } do {
    ^bb0(%i2: i32, %a2: i32):
      %a3 = arith.muli %a2, %k3 : i32
      scf.yield %i2, %a3 : i32, i32
    }
    memref.store %r#1, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// Straight-line conditions are left alone.
// CHECK-LABEL: gpu.func @plain_condition(
// CHECK:         scf.while (%{{.*}} = %{{.*}}) : (i32) -> i32 {
// CHECK-NEXT:      arith.cmpi
// CHECK-NEXT:      scf.condition
// CHECK-NOT:     scf.if
gpu.module @kernels {
  gpu.func @plain_condition(%n: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %r = scf.while (%i = %k0) : (i32) -> i32 {
      %go = arith.cmpi ult, %i, %n : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%i2: i32):
      %nx = arith.addi %i2, %k1 : i32
      scf.yield %nx : i32
    }
    memref.store %r, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// A branch and a nested structured loop in a condition, vector and f16
// results (zero placeholders), no loop-carried values: the inner loop is
// rewritten first, then the outer one moves it into its body.
// CHECK-LABEL: gpu.func @nested(
// CHECK-SAME:      %[[N:.*]]: i32, %[[H:.*]]: f16, %[[V:.*]]: vector<2xf32>
// CHECK-DAG:     %[[ZV:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK-DAG:     %[[ZH:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:         scf.while (%[[GO:.*]] = %{{.*}}, %{{.*}} = %[[ZV]], %{{.*}} = %[[ZH]]) : (i1, vector<2xf32>, f16) -> (vector<2xf32>, f16) {
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK-NEXT:    } do {
// CHECK:           %[[X:.*]] = scf.if %{{.*}} -> (f16)
// CHECK:           %[[INNER:.*]]:2 = scf.while (%[[GO2:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i1, i32, i32) -> (i32, i32) {
// CHECK-NEXT:        scf.condition(%[[GO2]])
// CHECK-NEXT:      } do {
// CHECK:             scf.if %{{.*}} -> (i32)
// CHECK:             scf.yield %{{.*}}, %{{.*}}, %{{.*}} : i1, i32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[AGAIN:.*]] = arith.cmpi ult, %[[INNER]]#1, %[[N]] : i32
// CHECK-NEXT:      scf.if %[[AGAIN]] {
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[AGAIN]], %[[V]], %[[X]] : i1, vector<2xf32>, f16
gpu.module @kernels {
  gpu.func @nested(%n: i32, %h: f16, %v: vector<2xf32>) kernel {
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %r:2 = scf.while : () -> (vector<2xf32>, f16) {
      %big = arith.cmpi sgt, %n, %k1 : i32
      %x = scf.if %big -> (f16) {
        %d = arith.addf %h, %h : f16
        scf.yield %d : f16
      } else {
        scf.yield %h : f16
      }
      %inner = scf.while (%i = %k0) : (i32) -> i32 {
        %s = scf.if %big -> (i32) {
          scf.yield %k1 : i32
        } else {
          scf.yield %k0 : i32
        }
        %go = arith.cmpi ult, %i, %s : i32
        scf.condition(%go) %i : i32
      } do {
      ^bb0(%i2: i32):
        %nx = arith.addi %i2, %k1 : i32
        scf.yield %nx : i32
      }
      %again = arith.cmpi ult, %inner, %n : i32
      scf.condition(%again) %v, %x : vector<2xf32>, f16
    } do {
    ^bb0(%v2: vector<2xf32>, %x2: f16):
      gpu.barrier
      scf.yield
    }
    gpu.return
  }
}

// -----

// Straight-line conditions that forward a value they computed, or loaded, or
// that write memory are moved too: lavapipe would give the lanes that left
// the loop the header's values of a later pass (Bug 1 of
// test/e2e/known/driver/README.md).
// CHECK-LABEL: gpu.func @forwards_sum(
// CHECK:         %[[W:[a-z0-9_]+]]:2 = scf.while (%[[GO:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}) : (i1, i32, i32) -> (i32, i32) {
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[I:[a-z0-9_]+]]: i32, %{{[a-z0-9_]+}}: i32):
// CHECK-NEXT:      %[[GO2:[a-z0-9_]+]] = arith.cmpi ult, %[[I]], %{{.*}} : i32
// CHECK-NEXT:      %[[SUM:[a-z0-9_]+]] = arith.addi %[[I]], %[[I]] : i32
// CHECK-NEXT:      %[[NEXT:[a-z0-9_]+]] = scf.if %[[GO2]] -> (i32) {
// CHECK:           scf.yield %[[GO2]], %[[NEXT]], %[[SUM]] : i1, i32, i32
// CHECK:         memref.store %[[W]]#1
gpu.module @kernels {
  gpu.func @forwards_sum(%n: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %r = scf.while (%i = %k0) : (i32) -> i32 {
      %go = arith.cmpi ult, %i, %n : i32
      %sum = arith.addi %i, %i : i32
      scf.condition(%go) %sum : i32
    } do {
    ^bb0(%s: i32):
      %nx = arith.addi %s, %k1 : i32
      scf.yield %nx : i32
    }
    memref.store %r, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @forwards_load(
// CHECK:         scf.while (%[[GO:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}) : (i1, index, index, i32) -> (index, index, i32) {
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK-NEXT:    } do {
// CHECK:           memref.load
// CHECK:           scf.if
gpu.module @kernels {
  gpu.func @forwards_load(%n: index, %table: memref<?xi32>, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.while (%i = %c0) : (index) -> (index, i32) {
      %x = memref.load %table[%i] : memref<?xi32>
      %go = arith.cmpi ult, %i, %n : index
      scf.condition(%go) %i, %x : index, i32
    } do {
    ^bb0(%i2: index, %x2: i32):
      %nx = arith.addi %i2, %c1 : index
      scf.yield %nx : index
    }
    memref.store %r#1, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @writes_memory(
// CHECK:         scf.while (%[[GO:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}) : (i1, index, index) -> (index, index) {
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK-NEXT:    } do {
// CHECK:           memref.store
// CHECK:           scf.if
gpu.module @kernels {
  gpu.func @writes_memory(%n: index, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k1 = arith.constant 1 : i32
    %notes = memref.alloca() : memref<4xi32>
    %r = scf.while (%i = %c0) : (index) -> index {
      memref.store %k1, %notes[%c0] : memref<4xi32>
      %go = arith.cmpi ult, %i, %n : index
      scf.condition(%go) %i : index
    } do {
    ^bb0(%i2: index):
      %nx = arith.addi %i2, %c1 : index
      scf.yield %nx : index
    }
    %v = memref.load %notes[%c0] : memref<4xi32>
    memref.store %v, %out[%r] : memref<?xi32>
    gpu.return
  }
}

// -----

// A condition that reads memory only to decide, and forwards its arguments,
// is left alone: the lanes that left keep the arguments they left with.
// CHECK-LABEL: gpu.func @reads_for_condition(
// CHECK:         scf.while (%{{.*}} = %{{.*}}) : (index) -> index {
// CHECK-NEXT:      memref.load
// CHECK-NEXT:      arith.cmpi
// CHECK-NEXT:      scf.condition
// CHECK-NOT:     scf.if
gpu.module @kernels {
  gpu.func @reads_for_condition(%table: memref<?xi32>, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k0 = arith.constant 0 : i32
    %r = scf.while (%i = %c0) : (index) -> index {
      %x = memref.load %table[%i] : memref<?xi32>
      %go = arith.cmpi sgt, %x, %k0 : i32
      scf.condition(%go) %i : index
    } do {
    ^bb0(%i2: index):
      %nx = arith.addi %i2, %c1 : index
      scf.yield %nx : index
    }
    %k = arith.index_cast %r : index to i32
    memref.store %k, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// A computed value whose result nothing reads moves too: the body may yield
// it back as an argument, which lavapipe may then update in the lanes that
// left.
// CHECK-LABEL: gpu.func @forwards_unused_sum(
// CHECK:         scf.while (%[[GO:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}) : (i1, i32, i32, i32) -> (i32, i32, i32) {
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK-NEXT:    } do {
// CHECK:           scf.if
gpu.module @kernels {
  gpu.func @forwards_unused_sum(%n: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %r:2 = scf.while (%i = %k0) : (i32) -> (i32, i32) {
      %go = arith.cmpi ult, %i, %n : i32
      %sum = arith.addi %i, %i : i32
      scf.condition(%go) %i, %sum : i32, i32
    } do {
    ^bb0(%i2: i32, %s: i32):
      %nx = arith.addi %i2, %k1 : i32
      scf.yield %nx : i32
    }
    memref.store %r#0, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// A memref result (a coro.for_each iter_arg) has no zero: the rewritten
// loop starts it from the loop's initial value of that type, not from a
// ub.poison the SPIR-V conversion cannot lower.
// CHECK-LABEL: gpu.func @memref_result(
// CHECK-SAME:      %[[N:.*]]: i32, %[[BUF:.*]]: memref<?xi32>
// CHECK-NOT:     ub.poison
// CHECK:         %[[W:.*]]:4 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[BUF]], %{{.*}} = %{{.*}}, %{{.*}} = %[[BUF]]) : (i1, i32, memref<?xi32>, i32, memref<?xi32>)
// CHECK:         memref.store %{{.*}}, %[[W]]#3[
gpu.module @kernels {
  gpu.func @memref_result(%n: i32, %buf: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %k0 = arith.constant 0 : i32
    %k1 = arith.constant 1 : i32
    %r:2 = scf.while (%i = %k0, %b = %buf) : (i32, memref<?xi32>) -> (i32, memref<?xi32>) {
      %go = arith.cmpi ult, %i, %n : i32
      memref.store %i, %b[%c0] : memref<?xi32>
      scf.condition(%go) %i, %b : i32, memref<?xi32>
    } do {
    ^bb0(%i2: i32, %b2: memref<?xi32>):
      %nx = arith.addi %i2, %k1 : i32
      scf.yield %nx, %b2 : i32, memref<?xi32>
    }
    memref.store %r#0, %r#1[%c0] : memref<?xi32>
    gpu.return
  }
}

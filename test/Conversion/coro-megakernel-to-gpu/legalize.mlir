// RUN: coro-opt %s --coro-megakernel-to-gpu | FileCheck %s

// What not every GPU target accepts is rewritten in every scheduler's
// kernels: a vector select on a scalar condition (SPIR-V has it only from
// 1.4 on) gets a vector condition.
// CHECK-LABEL: gpu.func @select_vec(
// CHECK:         %[[COND:.*]] = arith.cmpi eq
// CHECK:         %[[SPLAT:.*]] = vector.broadcast %[[COND]] : i1 to vector<3xi1>
// CHECK:         arith.select %[[SPLAT]], %{{.*}}, %{{.*}} : vector<3xi1>, vector<3xf32>
coro.func @select_vec(%out: memref<?xf32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %b = arith.constant dense<[4.0, 5.0, 6.0]> : vector<3xf32>
  %odd0 = arith.andi %id, %c1 : index
  %odd = arith.cmpi eq, %odd0, %c1 : index
  %v = arith.select %odd, %a, %b : vector<3xf32>
  %x = vector.extract %v[0] : f32 from vector<3xf32>
  memref.store %x, %out[%id] : memref<?xf32>
  coro.return
}

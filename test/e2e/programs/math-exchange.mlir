// math_exchange: math.exp2 and math.atan2 of a value that
// crossed a suspension, and atomic exchanges (memref.atomic_rmw assign)
// whose old values cross one; SPIR-V lowers exp2 to GLSL's Exp2
// (coro-spirv-convert-gpu), atan2 through coro-spirv-expand-math,
// the exchanges to OpAtomicExchange (coro-spirv-convert-gpu).
// Each instance takes v = id - 3 and suspends, then stores at out[6 id + k]:
// k = 0 roundeven(exp2(v) * 8), k = 1 roundeven(atan2(v, 2) * 64),
// k = 2 roundeven(atan2(v, -2) * 64) (at least 0.11 from a rounding
// boundary), k = 3 roundeven(atan2(v, 0) * 64) (+-pi/2, and 0 where both
// are zero, as C's atan2); before the suspension it exchanges
// slots[id] (iota: id) with 10 id + 1, slots[8] (shared by all) with 5 and
// slots[id] again with 100 + id: k = 4 and k = 5 are the old values, which
// cross the suspension. (The exchanges stay in the first subroutine: on a
// partly filled workgroup lavapipe can drop the atomics of the state
// machine's later subroutines; see atomics-histogram.mlir.)
// Output (grid 8; Python's math.exp2 and atan2):
//   out[6 id + 0] = 1, 2, 4, 8, 16, 32, 64, 128
//   out[6 id + 1] = -63, -50, -30, 0, 30, 50, 63, 71
//   out[6 id + 2] = -138, -151, -171, 201, 171, 151, 138, 130
//   out[6 id + 3] = -101, -101, -101, 0, 101, 101, 101, 101
//   out[6 id + 4] = id, out[6 id + 5] = 10 id + 1
//   slots = 100, ..., 107, 5
coro.func @math_exchange(%out: memref<?xi32>, %slots: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %id32 = arith.index_cast %id : index to i32
  %idf = arith.sitofp %id32 : i32 to f32
  %f3 = arith.constant 3.0 : f32
  %v = arith.subf %idf, %f3 : f32
  %k10 = arith.constant 10 : i32
  %k1 = arith.constant 1 : i32
  %k5 = arith.constant 5 : i32
  %k100 = arith.constant 100 : i32
  %t10 = arith.muli %id32, %k10 : i32
  %new1 = arith.addi %t10, %k1 : i32
  %old1 = memref.atomic_rmw assign %new1, %slots[%id] : (i32, memref<?xi32>) -> i32
  %shared = memref.atomic_rmw assign %k5, %slots[%c8] : (i32, memref<?xi32>) -> i32
  %new2 = arith.addi %id32, %k100 : i32
  %old2 = memref.atomic_rmw assign %new2, %slots[%id] : (i32, memref<?xi32>) -> i32
  coro.suspend "math"
  %f8 = arith.constant 8.0 : f32
  %f64 = arith.constant 64.0 : f32
  %f2 = arith.constant 2.0 : f32
  %fm2 = arith.constant -2.0 : f32
  %e = math.exp2 %v : f32
  %e8 = arith.mulf %e, %f8 : f32
  %er = math.roundeven %e8 : f32
  %ei = arith.fptosi %er : f32 to i32
  %a = math.atan2 %v, %f2 : f32
  %a64 = arith.mulf %a, %f64 : f32
  %ar = math.roundeven %a64 : f32
  %ai = arith.fptosi %ar : f32 to i32
  %b = math.atan2 %v, %fm2 : f32
  %b64 = arith.mulf %b, %f64 : f32
  %br = math.roundeven %b64 : f32
  %bi = arith.fptosi %br : f32 to i32
  %f0 = arith.constant 0.0 : f32
  %c = math.atan2 %v, %f0 : f32
  %c64 = arith.mulf %c, %f64 : f32
  %cr = math.roundeven %c64 : f32
  %ti = arith.fptosi %cr : f32 to i32
  %base = arith.muli %id, %c6 : index
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  %i3 = arith.addi %base, %c3 : index
  %i4 = arith.addi %base, %c4 : index
  %i5 = arith.addi %base, %c5 : index
  memref.store %ei, %out[%base] : memref<?xi32>
  memref.store %ai, %out[%i1] : memref<?xi32>
  memref.store %bi, %out[%i2] : memref<?xi32>
  memref.store %ti, %out[%i3] : memref<?xi32>
  memref.store %old1, %out[%i4] : memref<?xi32>
  memref.store %old2, %out[%i5] : memref<?xi32>
  coro.return
}

// vector_memory: vector.load and vector.store on memrefs of scalars, whose
// SPIR-V the upstream conversion made through pointer casts Vulkan forbids
// (found by a review; coro-spirv-scalarize-vector-memory makes them element
// accesses). Each instance loads 4 floats at 4 * id and 3 ints at 3 * id,
// the vectors live across suspensions, and it stores the floats doubled in
// reverse order and the ints scaled by 1, 10 and 100 at the same places.
// Output (grid 37, inputs iota): out[4i + k] = 2 (4i + 3 - k),
// iout[3i + k] = 10^k (3i + k).
coro.func @vector_memory(%in: memref<?xf32>, %ints: memref<?xi32>,
                         %out: memref<?xf32>, %iout: memref<?xi32>) {
  %id = coro.id : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i4 = arith.muli %id, %c4 : index
  %i3 = arith.muli %id, %c3 : index
  %v = vector.load %in[%i4] : memref<?xf32>, vector<4xf32>
  coro.suspend
  %w = vector.load %ints[%i3] : memref<?xi32>, vector<3xi32>
  %two = arith.constant dense<2.0> : vector<4xf32>
  %doubled = arith.mulf %v, %two : vector<4xf32>
  %reversed = vector.shuffle %doubled, %doubled [3, 2, 1, 0]
      : vector<4xf32>, vector<4xf32>
  vector.store %reversed, %out[%i4] : memref<?xf32>, vector<4xf32>
  coro.suspend
  %scales = arith.constant dense<[1, 10, 100]> : vector<3xi32>
  %scaled = arith.muli %w, %scales : vector<3xi32>
  vector.store %scaled, %iout[%i3] : memref<?xi32>, vector<3xi32>
  coro.return
}

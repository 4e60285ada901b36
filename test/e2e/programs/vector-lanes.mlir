// vector_lanes: vectors of several element types live across suspensions:
// vector<4xi32>, vector<2xf64>, vector<3xf16> and vector<4xi16> are carried
// through a loop whose body suspends ("rotate"); each iteration rotates the
// i32 lanes with a shuffle, adds the iteration number to the lane at the
// dynamic position id % 3 (vector.extract / vector.insert), and scales the
// float lanes and adds to the i16 lanes (which wrap). The trip count is
// 2 + id % 3. One more suspension ("reduce") sits before the reductions.
// Output (grid 45): out[id] (i32) = the i32 lanes and the sign-extended i16
// lanes, weighted by their position (so a lane swap is caught); fout[id]
// (f32) = the f64 and f16 lanes combined.
coro.func @vector_lanes(%out: memref<?xi32>, %fout: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %id32 = arith.index_cast %id : index to i32
  %id64 = arith.index_cast %id : index to i64
  %idf = arith.sitofp %id64 : i64 to f64
  %base = arith.constant dense<[1, 10, 100, 1000]> : vector<4xi32>
  %idv = vector.broadcast %id32 : i32 to vector<4xi32>
  %v0 = arith.muli %base, %idv : vector<4xi32>
  %d0 = vector.from_elements %idf, %idf : vector<2xf64>
  %dstep = arith.constant dense<[0.5, 1.5]> : vector<2xf64>
  %idh = arith.sitofp %id32 : i32 to f16
  %one_h = arith.constant 1.0 : f16
  %h1 = arith.addf %idh, %one_h : f16
  %h0 = vector.from_elements %idh, %h1, %one_h : vector<3xf16>
  %hscale = arith.constant dense<[0.5, 0.25, 2.0]> : vector<3xf16>
  %id16 = arith.trunci %id32 : i32 to i16
  %w0 = vector.broadcast %id16 : i16 to vector<4xi16>
  %wstep = arith.constant dense<[300, -7, 1000, 12000]> : vector<4xi16>
  %r = arith.remui %id, %c3 : index
  %n = arith.addi %r, %c2 : index
  %lane = arith.remui %id, %c3 : index
  %res:4 = scf.for %k = %c0 to %n step %c1 iter_args(%v = %v0, %d = %d0, %h = %h0, %w = %w0)
      -> (vector<4xi32>, vector<2xf64>, vector<3xf16>, vector<4xi16>) {
    coro.suspend "rotate"
    %rot = vector.shuffle %v, %v [1, 2, 3, 0] : vector<4xi32>, vector<4xi32>
    %k32 = arith.index_cast %k : index to i32
    %old = vector.extract %rot[%lane] : i32 from vector<4xi32>
    %new = arith.addi %old, %k32 : i32
    %v2 = vector.insert %new, %rot[%lane] : i32 into vector<4xi32>
    %dm = arith.mulf %d, %dstep : vector<2xf64>
    %d2 = arith.addf %dm, %dstep : vector<2xf64>
    %h2 = arith.mulf %h, %hscale : vector<3xf16>
    %w2 = arith.addi %w, %wstep : vector<4xi16>
    scf.yield %v2, %d2, %h2, %w2 : vector<4xi32>, vector<2xf64>, vector<3xf16>, vector<4xi16>
  }
  coro.suspend "reduce"
  %weights = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %weighted = arith.muli %res#0, %weights : vector<4xi32>
  %sum = vector.reduction <add>, %weighted : vector<4xi32> into i32
  %wide = arith.extsi %res#3 : vector<4xi16> to vector<4xi32>
  %wweighted = arith.muli %wide, %weights : vector<4xi32>
  %wsum = vector.reduction <add>, %wweighted : vector<4xi32> into i32
  %total = arith.addi %sum, %wsum : i32
  memref.store %total, %out[%id] : memref<?xi32>
  %dx = vector.extract %res#1[0] : f64 from vector<2xf64>
  %dy = vector.extract %res#1[1] : f64 from vector<2xf64>
  %ten = arith.constant 10.0 : f64
  %dy10 = arith.mulf %dy, %ten : f64
  %dsum = arith.addf %dx, %dy10 : f64
  %hw = arith.extf %res#2 : vector<3xf16> to vector<3xf32>
  %hweights = arith.constant dense<[1.0, 3.0, 9.0]> : vector<3xf32>
  %hmul = arith.mulf %hw, %hweights : vector<3xf32>
  %hsum = vector.reduction <add>, %hmul : vector<3xf32> into f32
  %df = arith.truncf %dsum : f64 to f32
  %f = arith.addf %df, %hsum : f32
  memref.store %f, %fout[%id] : memref<?xf32>
  coro.return
}

// vector_slices: strided slices and vector.step, whose operands cross
// suspensions. A vector<4xf32> loaded
// before the "load" suspension gives a vector<3xf32> slice after it; a
// vector<2xi32> slice of a lane vector built from vector.step is inserted
// into another at an offset after the "insert" suspension. The PTX pipeline rewrites these ops before the GPU to
// NVVM conversion (coro-nvvm-lower-vector-ops); SPIR-V converts them.
// Output (grid 37): out[3 id + c] (f32) = the slice times (c + 1) plus
// twice the first lane; iout[id] (i32) = the lanes of the inserted vector,
// weighted by their position.
coro.func @vector_slices(%in: memref<?xf32>, %out: memref<?xf32>,
                         %iout: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %id, %c4 : index
  %v = vector.load %in[%base] : memref<?xf32>, vector<4xf32>
  %id32 = arith.index_cast %id : index to i32
  %step = vector.step : vector<4xindex>
  %lanes = arith.index_cast %step : vector<4xindex> to vector<4xi32>
  %idv = vector.broadcast %id32 : i32 to vector<4xi32>
  %w = arith.addi %lanes, %idv : vector<4xi32>
  coro.suspend "load"
  %s = vector.extract_strided_slice %v
      {offsets = [1], sizes = [3], strides = [1]}
      : vector<4xf32> to vector<3xf32>
  %scale = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %scaled = arith.mulf %s, %scale : vector<3xf32>
  %part = vector.extract_strided_slice %w
      {offsets = [2], sizes = [2], strides = [1]}
      : vector<4xi32> to vector<2xi32>
  coro.suspend "insert"
  %ten = arith.constant dense<10> : vector<4xi32>
  %into = arith.muli %w, %ten : vector<4xi32>
  %offset = arith.remui %id, %c3 : index
  %zero = arith.constant 0 : index
  %atZero = arith.cmpi eq, %offset, %zero : index
  %ins0 = vector.insert_strided_slice %part, %into
      {offsets = [0], strides = [1]} : vector<2xi32> into vector<4xi32>
  %ins2 = vector.insert_strided_slice %part, %into
      {offsets = [2], strides = [1]} : vector<2xi32> into vector<4xi32>
  %ins = arith.select %atZero, %ins0, %ins2 : vector<4xi32>
  %weights = arith.constant dense<[1, 100, 10000, 1000000]> : vector<4xi32>
  %weighted = arith.muli %ins, %weights : vector<4xi32>
  %sum = vector.reduction <add>, %weighted : vector<4xi32> into i32
  memref.store %sum, %iout[%id] : memref<?xi32>
  %first = vector.extract %v[0] : f32 from vector<4xf32>
  %pair = vector.broadcast %first : f32 to vector<2xf32>
  %b = vector.reduction <add>, %pair : vector<2xf32> into f32
  %bv = vector.broadcast %b : f32 to vector<3xf32>
  %result = arith.addf %scaled, %bv : vector<3xf32>
  %o = arith.muli %id, %c3 : index
  vector.store %result, %out[%o] : memref<?xf32>, vector<3xf32>
  coro.return
}

// local_arrays: local arrays (memref.alloca) live across suspensions, with
// static and dynamic indices. A memref<8xi32> is filled before the first
// suspension ("fill"), then a loop of 3 + id % 4 iterations suspends
// ("update") and updates the element at the dynamic index (id + k) % 8 from
// the element at the static index 3; a memref<3x4xf32> is written at a
// dynamic row and column and read back whole after the last suspension
// ("read").
// Output (grid 37): out[id] (i32) = sum over i of (i + 1) * a[i] (position
// weighted, so a misplaced element is caught); fout[id] (f32) = sum of the
// 3x4 array weighted by (row * 4 + column + 1).
coro.func @local_arrays(%out: memref<?xi32>, %fout: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %id32 = arith.index_cast %id : index to i32
  %a = memref.alloca() : memref<8xi32>
  %m = memref.alloca() : memref<3x4xf32>
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %sq = arith.muli %i32, %i32 : i32
    %v = arith.addi %sq, %id32 : i32
    memref.store %v, %a[%i] : memref<8xi32>
  }
  scf.for %r = %c0 to %c3 step %c1 {
    scf.for %c = %c0 to %c4 step %c1 {
      memref.store %zero, %m[%r, %c] : memref<3x4xf32>
    }
  }
  coro.suspend "fill"
  %rem = arith.remui %id, %c4 : index
  %n = arith.addi %rem, %c3 : index
  %col = arith.remui %id, %c4 : index
  scf.for %k = %c0 to %n step %c1 {
    coro.suspend "update"
    %s = memref.load %a[%c3] : memref<8xi32>
    %pos = arith.addi %id, %k : index
    %at = arith.remui %pos, %c8 : index
    %old = memref.load %a[%at] : memref<8xi32>
    %k32 = arith.index_cast %k : index to i32
    %inc = arith.addi %s, %k32 : i32
    %new = arith.addi %old, %inc : i32
    memref.store %new, %a[%at] : memref<8xi32>
    %row = arith.remui %k, %c3 : index
    %cell = memref.load %m[%row, %col] : memref<3x4xf32>
    %newf = arith.sitofp %new : i32 to f32
    %sumf = arith.addf %cell, %newf : f32
    memref.store %sumf, %m[%row, %col] : memref<3x4xf32>
  }
  coro.suspend "read"
  %total = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %id32) -> (i32) {
    %v = memref.load %a[%i] : memref<8xi32>
    %i1 = arith.addi %i, %c1 : index
    %w = arith.index_cast %i1 : index to i32
    %vw = arith.muli %v, %w : i32
    %acc2 = arith.addi %acc, %vw : i32
    scf.yield %acc2 : i32
  }
  memref.store %total, %out[%id] : memref<?xi32>
  %ftotal = scf.for %r = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f32) {
    %rowsum = scf.for %c = %c0 to %c4 step %c1 iter_args(%acc1 = %acc) -> (f32) {
      %v = memref.load %m[%r, %c] : memref<3x4xf32>
      %r4 = arith.muli %r, %c4 : index
      %rc = arith.addi %r4, %c : index
      %rc1 = arith.addi %rc, %c1 : index
      %w64 = arith.index_cast %rc1 : index to i64
      %w = arith.sitofp %w64 : i64 to f32
      %vw = arith.mulf %v, %w : f32
      %acc2 = arith.addf %acc1, %vw : f32
      scf.yield %acc2 : f32
    }
    scf.yield %rowsum : f32
  }
  memref.store %ftotal, %fout[%id] : memref<?xf32>
  coro.return
}

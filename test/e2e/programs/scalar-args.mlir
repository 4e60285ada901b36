// scalar_args: scalar arguments of every type coro-run passes -- i32, i64,
// f32, f64 and index -- used before and after suspensions. Arguments are
// never stored in the frame (every subroutine receives them), so this
// checks that each kernel of the split program gets them right. A loop of
// %count iterations suspends ("tick") and accumulates an f64 from all of
// them; one more suspension ("done") comes before the stores.
// Output (grid 37, --arg=3 --arg=5000000000 --arg=0.25 --arg=1.5e-3
// --arg=4): out[id] (f64) = sum over k < count of (id * scale + 0.5 +
// k * tiny) + stride * id; wide[id] (i64) = big + id * count (beyond 32
// bits, compared exactly).
coro.func @scalar_args(%count: i32, %big: i64, %scale: f32, %tiny: f64, %stride: index,
                       %out: memref<?xf64>, %wide: memref<?xi64>) {
  %id = coro.id : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %id64 = arith.index_cast %id : index to i64
  %idf = arith.sitofp %id64 : i64 to f32
  %scaled = arith.mulf %idf, %scale : f32
  %offset = arith.constant 0.5 : f32
  %start = arith.addf %scaled, %offset : f32
  %startd = arith.extf %start : f32 to f64
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %k = %i0 to %count step %i1 iter_args(%acc = %zero) -> (f64) : i32 {
    coro.suspend "tick"
    %kd = arith.sitofp %k : i32 to f64
    %kt = arith.mulf %kd, %tiny : f64
    %v = arith.addf %startd, %kt : f64
    %acc2 = arith.addf %acc, %v : f64
    scf.yield %acc2 : f64
  }
  coro.suspend "done"
  %s = arith.muli %id, %stride : index
  %s64 = arith.index_cast %s : index to i64
  %sd = arith.sitofp %s64 : i64 to f64
  %t = arith.addf %sum, %sd : f64
  memref.store %t, %out[%id] : memref<?xf64>
  %count64 = arith.extsi %count : i32 to i64
  %idc = arith.muli %id64, %count64 : i64
  %w = arith.addi %big, %idc : i64
  memref.store %w, %wide[%id] : memref<?xi64>
  coro.return
}

// wide_float_math: math ops on f64 and f16 values that cross a suspension.
// convert-math-to-spirv saw only the default SPIR-V target (no Float64 /
// Float16) and left them unconverted ("failed to legalize operation
// 'math.absf'") before coro-spirv-expose-target-env (issue 13, found by
// coro-fuzz).
// Output (grid 37, --arg=-2.5): out[id] (f64) = |d| + sqrt(|d|) * 2 + |h|
// with d = (id - 18) * x as f64 and h = (id - 18) as f16.
coro.func @wide_float_math(%x: f32, %out: memref<?xf64>) {
  %id = coro.id : index
  %k18 = arith.constant 18 : i32
  %two = arith.constant 2.0 : f64
  %id32 = arith.index_cast %id : index to i32
  %v = arith.subi %id32, %k18 : i32
  %vf = arith.sitofp %v : i32 to f32
  %p = arith.mulf %vf, %x : f32
  %d = arith.extf %p : f32 to f64
  %h = arith.sitofp %v : i32 to f16
  %ad = math.absf %d : f64
  coro.suspend "half"
  %ah = math.absf %h : f16
  %r = math.sqrt %ad : f64
  coro.suspend "sum"
  %r2 = arith.mulf %r, %two : f64
  %ahd = arith.extf %ah : f16 to f64
  %s1 = arith.addf %ad, %r2 : f64
  %s = arith.addf %s1, %ahd : f64
  memref.store %s, %out[%id] : memref<?xf64>
  coro.return
}

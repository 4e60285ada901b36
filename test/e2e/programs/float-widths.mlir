// float_widths: f16, f32 and f64 carried through a loop whose body suspends
// ("step"), then live across one more suspension ("store"). Each instance
// starts from in[id] (random in [0, 1)) and runs 1 + id % 5 iterations:
//   h = h * 1.25 + 0.5 (f16, rounded to half precision at every step),
//   s = s * 0.75 + k   (f32),
//   d = d * 3 + 1 / (k + 1) (f64, beyond f32 precision).
// Output (grid 100): out[id] (f32) = h + s; dbl[2 id] (f64) = d + h and
// dbl[2 id + 1] = (d - (f64)(f32)d) * 2^30, the part of d that an f32 would
// lose (0 if d were kept in 32 bits).
coro.func @float_widths(%in: memref<?xf32>, %out: memref<?xf32>, %dbl: memref<?xf64>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %x = memref.load %in[%id] : memref<?xf32>
  %h0 = arith.truncf %x : f32 to f16
  %d0 = arith.extf %x : f32 to f64
  %r = arith.remui %id, %c5 : index
  %n = arith.addi %r, %c1 : index
  %h_mul = arith.constant 1.25 : f16
  %h_add = arith.constant 0.5 : f16
  %s_mul = arith.constant 0.75 : f32
  %d_mul = arith.constant 3.0 : f64
  %d_one = arith.constant 1.0 : f64
  %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%h = %h0, %s = %x, %d = %d0)
      -> (f16, f32, f64) {
    coro.suspend "step"
    %hm = arith.mulf %h, %h_mul : f16
    %h2 = arith.addf %hm, %h_add : f16
    %k64 = arith.index_cast %k : index to i64
    %kf = arith.sitofp %k64 : i64 to f32
    %sm = arith.mulf %s, %s_mul : f32
    %s2 = arith.addf %sm, %kf : f32
    %kd = arith.sitofp %k64 : i64 to f64
    %kd1 = arith.addf %kd, %d_one : f64
    %inv = arith.divf %d_one, %kd1 : f64
    %dm = arith.mulf %d, %d_mul : f64
    %d2 = arith.addf %dm, %inv : f64
    scf.yield %h2, %s2, %d2 : f16, f32, f64
  }
  coro.suspend "store"
  %hf = arith.extf %res#0 : f16 to f32
  %sum = arith.addf %hf, %res#1 : f32
  memref.store %sum, %out[%id] : memref<?xf32>
  %hd = arith.extf %res#0 : f16 to f64
  %dsum = arith.addf %res#2, %hd : f64
  %c2 = arith.constant 2 : index
  %at = arith.muli %id, %c2 : index
  memref.store %dsum, %dbl[%at] : memref<?xf64>
  %narrow = arith.truncf %res#2 : f64 to f32
  %back = arith.extf %narrow : f32 to f64
  %lost = arith.subf %res#2, %back : f64
  %scale = arith.constant 1073741824.0 : f64
  %lost_scaled = arith.mulf %lost, %scale : f64
  %at1 = arith.addi %at, %c1 : index
  memref.store %lost_scaled, %dbl[%at1] : memref<?xf64>
  coro.return
}

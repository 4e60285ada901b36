// promise_fields: several named promise fields (coro.promise) of different
// types -- i32 "steps", f32 "energy", vector<2xf32> "position" and i1
// "done" -- written before, between and after suspensions, in a loop
// ("move", 1 + id % 6 iterations) and in both branches of an scf.if
// ("bounce" / "glide"). Promise fields never share frame storage, so they
// must survive every suspension next to the live state; the values the
// program stores are the ones it promised.
// Output (grid 100): out[4 id .. 4 id + 3] (f32) = steps, energy, and the
// two coordinates of the position, the values promised last. (The promise
// fields themselves are for schedulers and hosts to read; coro-run compares
// the buffers.)
coro.func @promise_fields(%out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %i0 = arith.constant 0 : i32
  %false = arith.constant false
  %true = arith.constant true
  %id32 = arith.index_cast %id : index to i32
  %idf = arith.sitofp %id32 : i32 to f32
  %e0 = arith.constant 100.0 : f32
  %energy0 = arith.addf %e0, %idf : f32
  %p0 = vector.from_elements %idf, %e0 : vector<2xf32>
  coro.promise "steps", %i0 : i32
  coro.promise "energy", %energy0 : f32
  coro.promise "position", %p0 : vector<2xf32>
  coro.promise "done", %false : i1
  %rem = arith.remui %id, %c6 : index
  %n = arith.addi %rem, %c1 : index
  %i1 = arith.constant 1 : i32
  %half = arith.constant 0.5 : f32
  %vel = arith.constant dense<[1.5, -2.0]> : vector<2xf32>
  %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%steps = %i0, %energy = %energy0, %pos = %p0)
      -> (i32, f32, vector<2xf32>) {
    coro.suspend "move"
    %steps2 = arith.addi %steps, %i1 : i32
    coro.promise "steps", %steps2 : i32
    %k32 = arith.index_cast %k : index to i32
    %parity = arith.andi %k32, %i1 : i32
    %odd = arith.cmpi eq, %parity, %i1 : i32
    %r:2 = scf.if %odd -> (f32, vector<2xf32>) {
      coro.suspend "bounce"
      %e = arith.mulf %energy, %half : f32
      %neg = arith.negf %pos : vector<2xf32>
      scf.yield %e, %neg : f32, vector<2xf32>
    } else {
      coro.suspend "glide"
      %kf = arith.sitofp %k32 : i32 to f32
      %e = arith.subf %energy, %kf : f32
      %p = arith.addf %pos, %vel : vector<2xf32>
      scf.yield %e, %p : f32, vector<2xf32>
    }
    coro.promise "energy", %r#0 : f32
    coro.promise "position", %r#1 : vector<2xf32>
    scf.yield %steps2, %r#0, %r#1 : i32, f32, vector<2xf32>
  }
  coro.promise "done", %true : i1
  coro.suspend "report"
  %at = arith.muli %id, %c4 : index
  %sf = arith.sitofp %res#0 : i32 to f32
  memref.store %sf, %out[%at] : memref<?xf32>
  %at1 = arith.addi %at, %c1 : index
  memref.store %res#1, %out[%at1] : memref<?xf32>
  %px = vector.extract %res#2[0] : f32 from vector<2xf32>
  %py = vector.extract %res#2[1] : f32 from vector<2xf32>
  %at2 = arith.addi %at1, %c1 : index
  memref.store %px, %out[%at2] : memref<?xf32>
  %at3 = arith.addi %at2, %c1 : index
  memref.store %py, %out[%at3] : memref<?xf32>
  coro.return
}

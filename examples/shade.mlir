// A small shading coroutine: each instance (one per pixel) traces a few
// bounces; the suspension points split it where a wavefront renderer would
// start a new kernel.
coro.func @shade(%bounces: i32, %image: memref<?xf32>) {
  %pixel = coro.id : index
  %tenth = arith.constant 0.1 : f32
  %half = arith.constant 0.5 : f32
  %sky = arith.constant 0.75 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // Each pixel starts with its own throughput, so rays take different paths.
  %p = arith.index_cast %pixel : index to i32
  %pf = arith.sitofp %p : i32 to f32
  %offset = arith.mulf %pf, %tenth : f32
  %start = arith.addf %offset, %half : f32
  %throughput = scf.for %bounce = %c0 to %bounces step %c1
      iter_args(%beta = %start) -> (f32) : i32 {
    coro.suspend "intersect"
    %hit = arith.cmpf ogt, %beta, %half : f32
    %next = scf.if %hit -> (f32) {
      coro.suspend "surface"
      %scaled = arith.mulf %beta, %half : f32
      scf.yield %scaled : f32
    } else {
      coro.suspend "miss"
      %lit = arith.mulf %beta, %sky : f32
      scf.yield %lit : f32
    }
    scf.yield %next : f32
  }
  coro.promise "radiance", %throughput : f32
  memref.store %throughput, %image[%pixel] : memref<?xf32>
  coro.return
}

// A generator of the first %n odd numbers.
coro.func @odds(%n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %twice = arith.muli %i, %c2 : i32
    %odd = arith.addi %twice, %c1 : i32
    coro.yield %odd : i32
  }
  coro.return
}

// The kernel of docs/tutorial.md: a Julia set, one coroutine per pixel. The
// escape-time loop suspends after every iteration ("iterate"), and pixels
// near the set iterate far longer than the others, so the instances diverge
// as the paths of a path tracer do. Grid (size, size):
//   image[x + size * y] = (iterations before |z| > 2, at most 64) / 64
// and the promise "band" (iterations / 8, an integer) is a key to sort the
// waiting instances by (--sort-by=band).
coro.func @julia(%size: i32, %image: memref<?xf32>) {
  %x = coro.id 0 : index
  %y = coro.id 1 : index
  %pixel = coro.id : index
  %sizef = arith.sitofp %size : i32 to f32
  %half = arith.constant 0.5 : f32
  %three = arith.constant 3.0 : f32
  %offset = arith.constant 1.5 : f32
  // z0 = 3 (p + 0.5) / size - 1.5, in [-1.5, 1.5]^2.
  %xi = arith.index_cast %x : index to i32
  %xf = arith.sitofp %xi : i32 to f32
  %xc = arith.addf %xf, %half : f32
  %xn = arith.divf %xc, %sizef : f32
  %xs = arith.mulf %xn, %three : f32
  %zr0 = arith.subf %xs, %offset : f32
  %yi = arith.index_cast %y : index to i32
  %yf = arith.sitofp %yi : i32 to f32
  %yc = arith.addf %yf, %half : f32
  %yn = arith.divf %yc, %sizef : f32
  %ys = arith.mulf %yn, %three : f32
  %zi0 = arith.subf %ys, %offset : f32
  %cr = arith.constant -0.8 : f32
  %ci = arith.constant 0.156 : f32
  %four = arith.constant 4.0 : f32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %eight = arith.constant 8 : i32
  %limit = arith.constant 64 : i32
  %z:3 = scf.while (%zr = %zr0, %zi = %zi0, %n = %zero)
      : (f32, f32, i32) -> (f32, f32, i32) {
    %rr = arith.mulf %zr, %zr : f32
    %ii = arith.mulf %zi, %zi : f32
    %magnitude = arith.addf %rr, %ii : f32
    %inside = arith.cmpf olt, %magnitude, %four : f32
    %more = arith.cmpi slt, %n, %limit : i32
    %go = arith.andi %inside, %more : i1
    scf.condition(%go) %zr, %zi, %n : f32, f32, i32
  } do {
  ^bb0(%zr: f32, %zi: f32, %n: i32):
    // z = z^2 + c
    %rr = arith.mulf %zr, %zr : f32
    %ii = arith.mulf %zi, %zi : f32
    %ri = arith.mulf %zr, %zi : f32
    %re = arith.subf %rr, %ii : f32
    %zr2 = arith.addf %re, %cr : f32
    %im = arith.addf %ri, %ri : f32
    %zi2 = arith.addf %im, %ci : f32
    %n2 = arith.addi %n, %one : i32
    %band = arith.divui %n2, %eight : i32
    coro.promise "band", %band : i32
    coro.suspend "iterate"
    scf.yield %zr2, %zi2, %n2 : f32, f32, i32
  }
  %iterations = arith.sitofp %z#2 : i32 to f32
  %limitf = arith.constant 64.0 : f32
  %brightness = arith.divf %iterations, %limitf : f32
  memref.store %brightness, %image[%pixel] : memref<?xf32>
  coro.return
}

// RGB output: three floats per pixel, out[3 * id + c], on a 2-D grid
// (coro.id 0 and 1 are x and y). coro-run --png writes it as an image and
// --output-dir as a (height, width, 3) NumPy array.
coro.func @rgb(%width: i32, %out: memref<?xf32>) {
  %x = coro.id 0 : index
  %y = coro.id 1 : index
  %pixel = coro.id : index
  %w = arith.sitofp %width : i32 to f32
  %xi = arith.index_cast %x : index to i32
  %yi = arith.index_cast %y : index to i32
  %xf = arith.sitofp %xi : i32 to f32
  %yf = arith.sitofp %yi : i32 to f32
  %r = arith.divf %xf, %w : f32
  coro.suspend "shade"
  %g = arith.divf %yf, %w : f32
  %b = arith.constant 0.25 : f32
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %base = arith.muli %pixel, %c3 : index
  %gi = arith.addi %base, %c1 : index
  %bi = arith.addi %base, %c2 : index
  memref.store %r, %out[%base] : memref<?xf32>
  memref.store %g, %out[%gi] : memref<?xf32>
  memref.store %b, %out[%bi] : memref<?xf32>
  coro.return
}

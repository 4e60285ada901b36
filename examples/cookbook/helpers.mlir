// Helper functions: a coroutine calls ordinary func.func helpers (inlined
// before the split), and suspends between the calls. Each instance shades
// one value: out[id] = shade(id) + 1 after two bounces.
func.func @shade(%x: f32) -> f32 {
  %half = arith.constant 0.5 : f32
  %y = arith.mulf %x, %half : f32
  return %y : f32
}

coro.func @helpers(%out: memref<?xf32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  %x = arith.sitofp %i : i32 to f32
  %a = func.call @shade(%x) : (f32) -> f32
  coro.suspend "bounce"
  %b = func.call @shade(%a) : (f32) -> f32
  %one = arith.constant 1.0 : f32
  %c = arith.addf %b, %one : f32
  memref.store %c, %out[%id] : memref<?xf32>
  coro.return
}

// while_false: an scf.while that suspends in its condition region, carries
// nothing and has a constant false condition. coro-split put an scf.yield
// of its own next to the one the scf.if builder adds when there are no
// results, and rejected the program ("'scf.yield' op must be the last
// operation in the parent block") under every split scheduler (coro-fuzz
// seed 556, reduced).
// Output (grid 37): out[id] = 1.
coro.func @while_false(%out: memref<?xi32>) {
  %id = coro.id : index
  %false = arith.constant false
  %one = arith.constant 1 : i32
  scf.while : () -> () {
    coro.suspend
    scf.condition(%false)
  } do {
    scf.yield
  }
  memref.store %one, %out[%id] : memref<?xi32>
  coro.return
}

// A select on a branch condition whose value is passed on in the branch
// (`r` is `v` where the id is even), in a coroutine a handle drives:
// coro-resolve-handles materializes @sib's frame, and the pipeline
// materializes every split again. The first run makes the even path's
// store of `r` a copy of `v` in the same word and drops it; a second run
// took `v`'s stores for dead (nothing loads `v` any more) and dropped the
// entry's too, so `r` was read from a word nothing wrote (a review found 0
// at even ids). A split materialized once is now left alone.
// Output (grid 8, in = iota): out[id] = 7 at odd ids, in[id] at even ones.
coro.func @sib(%in: memref<?xi32>, %out: memref<?xi32>) {
  %i = coro.id : index
  %v = memref.load %in[%i] : memref<?xi32>
  coro.suspend "first"
  %k = arith.constant 7 : i32
  %ii = arith.index_cast %i : index to i32
  %one = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %b = arith.andi %ii, %one : i32
  %c = arith.cmpi ne, %b, %z : i32
  %r = arith.select %c, %k, %v : i32
  scf.if %c {
    coro.suspend "then"
  } else {
    coro.suspend "else"
  }
  memref.store %r, %out[%i] : memref<?xi32>
  coro.return
}

// Runs @sib to the end through a handle.
coro.func @drive(%in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %true = arith.constant true
  %h = coro.handle.create @sib[%id] : !coro.handle<@sib>
  scf.while : () -> () {
    %done = coro.handle.done %h : !coro.handle<@sib>
    %more = arith.xori %done, %true : i1
    scf.condition(%more)
  } do {
    coro.handle.resume %h(%in, %out) : !coro.handle<@sib>, (memref<?xi32>, memref<?xi32>) -> ()
    scf.yield
  }
  coro.return
}

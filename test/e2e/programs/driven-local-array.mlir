// A coroutine that a handle drives, launched on its own too: @kept keeps a
// one-element local array across two suspensions, and its second subroutine
// reads the element's old value before it overwrites it. coro-resolve-handles
// splits @kept and materializes its frame for @drive, and the pipeline
// materializes every split again: the second run must not move that load past
// the store, which coro-materialize-frame had moved up to just after it (a
// review found out[i] = 30, the new value's square plus the new value, where
// i * i + 5 is right).
coro.func @kept(%in: memref<?xf32>, %out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %acc = memref.alloca() : memref<1xf32>
  %init = memref.load %in[%id] : memref<?xf32>
  memref.store %init, %acc[%c0] : memref<1xf32>
  coro.suspend "first"
  %new = memref.load %out[%id] : memref<?xf32>
  %old = memref.load %acc[%c0] : memref<1xf32>
  memref.store %new, %acc[%c0] : memref<1xf32>
  %square = arith.mulf %old, %old : f32
  memref.store %square, %out[%id] : memref<?xf32>
  coro.suspend "second"
  %x = memref.load %acc[%c0] : memref<1xf32>
  %sum = arith.addf %x, %square : f32
  memref.store %sum, %out[%id] : memref<?xf32>
  coro.return
}

// Runs @kept to the end through a handle.
coro.func @drive(%in: memref<?xf32>, %out: memref<?xf32>) {
  %id = coro.id : index
  %true = arith.constant true
  %h = coro.handle.create @kept[%id] : !coro.handle<@kept>
  scf.while : () -> () {
    %done = coro.handle.done %h : !coro.handle<@kept>
    %more = arith.xori %done, %true : i1
    scf.condition(%more)
  } do {
    coro.handle.resume %h(%in, %out) : !coro.handle<@kept>, (memref<?xf32>, memref<?xf32>) -> ()
    scf.yield
  }
  coro.return
}

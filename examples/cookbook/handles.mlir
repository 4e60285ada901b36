// Handles (the paper's low-level interface): @drive creates a frame of
// @count, resumes it until it returns, and reads its promise "n" while it
// runs. The frame lives in @drive's frame, so @drive may suspend too.
// out[id] = the number of resumptions (id % 4 + 2) times 10 + the last "n".
coro.func @count(%limit: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  scf.for %k = %c0 to %limit step %c1 iter_args(%n = %zero) -> (i32) {
    %next = arith.addi %n, %one : i32
    coro.promise "n", %next : i32
    coro.suspend "tick"
    scf.yield %next : i32
  }
  coro.return
}

coro.func @drive(%out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.remui %id, %c4 : index
  %limit = arith.addi %r, %c1 : index
  %one = arith.constant 1 : i32
  %true = arith.constant true
  %h = coro.handle.create @count[%id] : !coro.handle<@count>
  coro.handle.resume %h(%limit) : !coro.handle<@count>, (index) -> ()
  %runs = scf.while (%runs = %one) : (i32) -> i32 {
    %done = coro.handle.done %h : !coro.handle<@count>
    %more = arith.xori %done, %true : i1
    scf.condition(%more) %runs : i32
  } do {
  ^bb0(%runs: i32):
    coro.suspend "wait"
    coro.handle.resume %h(%limit) : !coro.handle<@count>, (index) -> ()
    %next = arith.addi %runs, %one : i32
    scf.yield %next : i32
  }
  %n = coro.handle.promise %h["n"] : !coro.handle<@count> -> i32
  %ten = arith.constant 10 : i32
  %tens = arith.muli %runs, %ten : i32
  %v = arith.addi %tens, %n : i32
  memref.store %v, %out[%id] : memref<?xi32>
  coro.return
}

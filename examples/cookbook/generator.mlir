// A generator (a coroutine that yields) consumed by a range-for
// (coro.for_each) in a kernel: out[id] = 1 + 3 + ... (the first id % 6 odd
// numbers), with a suspension in the consumer's loop.
coro.func @odds(%n: index) yields i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %twice = arith.muli %ii, %two : i32
    %odd = arith.addi %twice, %one : i32
    coro.yield %odd : i32
  }
  coro.return
}

coro.func @sum_odds(%out: memref<?xi32>) {
  %id = coro.id : index
  %c6 = arith.constant 6 : index
  %n = arith.remui %id, %c6 : index
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %sum = coro.for_each @odds[%id](%n : index) iter_args(%zero : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    coro.suspend "add"
    %next = arith.addi %acc, %v : i32
    coro.for_each.yield %true, %next : i32
  }
  memref.store %sum, %out[%id] : memref<?xi32>
  coro.return
}

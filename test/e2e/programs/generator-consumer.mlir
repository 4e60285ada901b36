// Generators consumed in code through handles (the iterator form of paper
// Listing 1: advance = coro.handle.resume, terminated = coro.handle.done,
// value = the promise "__yielded_value").
//
// @squares yields k * k for k = 0 .. id % 7 + n - 1, and writes how many it
// yielded to out[id] when it returns.
//
// @sum_squares drives a frame of @squares per instance and adds the values
// up, leaving the loop early (Listing 1's break) once the sum passes
// %limit: sums[2 id] = the sum, sums[2 id + 1] = the values taken. When the
// generator ran to its end, out[id] holds its count; after a break it stays
// 0 (the generator never returned). @sum_suspending (at the end) does the
// same in a coroutine that suspends in its loop. Grid 12, --arg=3 --arg=50: out = [3, 4,
// 5, 6, 0, 0, 0, 3, 4, 5, 6, 0]; sums = [5, 3, 14, 4, 30, 5, 55, 6, ...]: by
// hand, instance 0 takes 0, 1, 4 (sum 5, 3 values) and the generator returns.
coro.func @squares(%n: i32, %out: memref<?xi32>) yields i32 {
  %id = coro.id : index
  %c7 = arith.constant 7 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %rem = arith.remui %id, %c7 : index
  %rem32 = arith.index_cast %rem : index to i32
  %trips = arith.addi %rem32, %n : i32
  %count = scf.for %k = %i0 to %trips step %i1 iter_args(%yielded = %i0) -> (i32) : i32 {
    %sq = arith.muli %k, %k : i32
    coro.yield %sq : i32
    %next = arith.addi %yielded, %i1 : i32
    scf.yield %next : i32
  }
  memref.store %count, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @sum_squares(%n: i32, %limit: i32, %out: memref<?xi32>, %sums: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %false = arith.constant false
  %g = coro.handle.create @squares[%id] : !coro.handle<@squares>
  %r:2 = scf.while (%sum = %i0, %taken = %i0) : (i32, i32) -> (i32, i32) {
    // advance; stop when the generator returned or the sum passed the limit
    coro.handle.resume %g(%n, %out) : !coro.handle<@squares>, (i32, memref<?xi32>) -> ()
    %done = coro.handle.done %g : !coro.handle<@squares>
    %over = arith.cmpi sgt, %sum, %limit : i32
    %stop = arith.ori %done, %over : i1
    %go = arith.cmpi eq, %stop, %false : i1
    scf.condition(%go) %sum, %taken : i32, i32
  } do {
  ^bb0(%sum: i32, %taken: i32):
    %v = coro.handle.promise %g["__yielded_value"] : !coro.handle<@squares> -> i32
    %sum2 = arith.addi %sum, %v : i32
    %taken2 = arith.addi %taken, %i1 : i32
    scf.yield %sum2, %taken2 : i32, i32
  }
  %base = arith.muli %id, %c2 : index
  %at1 = arith.addi %base, %c1 : index
  memref.store %r#0, %sums[%base] : memref<?xi32>
  memref.store %r#1, %sums[%at1] : memref<?xi32>
  coro.return
}

// @sum_suspending: the same sum in a coroutine that suspends in its consumer
// loop, after every value ("taken"): the generator's frame lives across the
// suspensions in this coroutine's frame. Same outputs as @sum_squares.
coro.func @sum_suspending(%n: i32, %limit: i32, %out: memref<?xi32>, %sums: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %false = arith.constant false
  %g = coro.handle.create @squares[%id] : !coro.handle<@squares>
  %r:2 = scf.while (%sum = %i0, %taken = %i0) : (i32, i32) -> (i32, i32) {
    coro.handle.resume %g(%n, %out) : !coro.handle<@squares>, (i32, memref<?xi32>) -> ()
    %done = coro.handle.done %g : !coro.handle<@squares>
    %over = arith.cmpi sgt, %sum, %limit : i32
    %stop = arith.ori %done, %over : i1
    %go = arith.cmpi eq, %stop, %false : i1
    scf.condition(%go) %sum, %taken : i32, i32
  } do {
  ^bb0(%sum: i32, %taken: i32):
    %v = coro.handle.promise %g["__yielded_value"] : !coro.handle<@squares> -> i32
    coro.suspend "taken"
    %sum2 = arith.addi %sum, %v : i32
    %taken2 = arith.addi %taken, %i1 : i32
    scf.yield %sum2, %taken2 : i32, i32
  }
  %base = arith.muli %id, %c2 : index
  %at1 = arith.addi %base, %c1 : index
  memref.store %r#0, %sums[%base] : memref<?xi32>
  memref.store %r#1, %sums[%at1] : memref<?xi32>
  coro.return
}

// @sum_for_each and @sum_for_each_suspending: the same sums with the
// range-for of Listing 1 (coro.for_each), its early exit taken when the
// sum before the value passes %limit; the second suspends in the body.
// Same outputs as @sum_squares.
coro.func @sum_for_each(%n: i32, %limit: i32, %out: memref<?xi32>, %sums: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %true = arith.constant true
  %r:2 = coro.for_each @squares[%id](%n, %out : i32, memref<?xi32>) iter_args(%i0, %i0 : i32, i32) -> (i32, i32) {
  ^bb0(%v: i32, %sum: i32, %taken: i32):
    %over = arith.cmpi sgt, %sum, %limit : i32
    %added = arith.addi %sum, %v : i32
    %sum2 = arith.select %over, %sum, %added : i32
    %more = arith.addi %taken, %i1 : i32
    %taken2 = arith.select %over, %taken, %more : i32
    %go = arith.xori %over, %true : i1
    coro.for_each.yield %go, %sum2, %taken2 : i32, i32
  }
  %base = arith.muli %id, %c2 : index
  %at1 = arith.addi %base, %c1 : index
  memref.store %r#0, %sums[%base] : memref<?xi32>
  memref.store %r#1, %sums[%at1] : memref<?xi32>
  coro.return
}

coro.func @sum_for_each_suspending(%n: i32, %limit: i32, %out: memref<?xi32>, %sums: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %true = arith.constant true
  %r:2 = coro.for_each @squares[%id](%n, %out : i32, memref<?xi32>) iter_args(%i0, %i0 : i32, i32) -> (i32, i32) {
  ^bb0(%v: i32, %sum: i32, %taken: i32):
    coro.suspend "taken"
    %over = arith.cmpi sgt, %sum, %limit : i32
    %added = arith.addi %sum, %v : i32
    %sum2 = arith.select %over, %sum, %added : i32
    %more = arith.addi %taken, %i1 : i32
    %taken2 = arith.select %over, %taken, %more : i32
    %go = arith.xori %over, %true : i1
    coro.for_each.yield %go, %sum2, %taken2 : i32, i32
  }
  %base = arith.muli %id, %c2 : index
  %at1 = arith.addi %base, %c1 : index
  memref.store %r#0, %sums[%base] : memref<?xi32>
  memref.store %r#1, %sums[%at1] : memref<?xi32>
  coro.return
}

// @sum_never: a loop over a generator that returns without yielding runs its
// body never, and gives its initial values (out[id] = 7).
coro.func @never_yields(%n: i32) yields i32 {
  coro.return
}

coro.func @sum_never(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %seven = arith.constant 7 : i32
  %r = coro.for_each @never_yields[%id](%n : i32) iter_args(%seven : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %sum = arith.addi %acc, %v : i32
    %true = arith.constant true
    coro.for_each.yield %true, %sum : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

// @nested_sums: for each value a of @squares (instance id), a loop over the
// values b of @squares for instance id + 1, summing a * b, with a
// suspension in the inner body: sums[id] = (sum of a) * (sum of b), the
// squares k * k for k < id % 7 + n and k < (id + 1) % 7 + n.
coro.func @nested_sums(%n: i32, %out: memref<?xi32>, %sums: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i32
  %true = arith.constant true
  %next = arith.addi %id, %c1 : index
  %total = coro.for_each @squares[%id](%n, %out : i32, memref<?xi32>) iter_args(%i0 : i32) -> (i32) {
  ^bb0(%a: i32, %acc: i32):
    %inner = coro.for_each @squares[%next](%n, %out : i32, memref<?xi32>) iter_args(%acc : i32) -> (i32) {
    ^bb0(%b: i32, %acc2: i32):
      coro.suspend "inner"
      %ab = arith.muli %a, %b : i32
      %sum = arith.addi %acc2, %ab : i32
      coro.for_each.yield %true, %sum : i32
    }
    coro.for_each.yield %true, %inner : i32
  }
  memref.store %total, %sums[%id] : memref<?xi32>
  coro.return
}

// Nested generators: @even_squares is a generator over a generator. It
// yields the even values of @squares (instance id) from inside its own
// coro.for_each, so @squares' frame lives across its yields; @squares runs to
// its end, and writes out[id]. @sum_even sums them in a loop over
// @even_squares that suspends in its body and leaves it early once the sum
// passes %limit (Listing 1's break): sums[2 id] = the sum, sums[2 id + 1] =
// the values taken. Grid 12, --arg=3 --arg=50: instance 0 takes 0, 4 (sum 4,
// 2 values); instance 4 takes 0, 4, 16, 36 (sum 56) and leaves the loop.
coro.func @even_squares(%n: i32, %out: memref<?xi32>) yields i32 {
  %id = coro.id : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %true = arith.constant true
  coro.for_each @squares[%id](%n, %out : i32, memref<?xi32>) {
  ^bb0(%v: i32):
    %odd = arith.andi %v, %i1 : i32
    %even = arith.cmpi eq, %odd, %i0 : i32
    scf.if %even {
      coro.yield %v : i32
    }
    coro.for_each.yield %true
  }
  coro.return
}

coro.func @sum_even(%n: i32, %limit: i32, %out: memref<?xi32>, %sums: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %true = arith.constant true
  %r:2 = coro.for_each @even_squares[%id](%n, %out : i32, memref<?xi32>) iter_args(%i0, %i0 : i32, i32) -> (i32, i32) {
  ^bb0(%v: i32, %sum: i32, %taken: i32):
    coro.suspend "even"
    %sum2 = arith.addi %sum, %v : i32
    %taken2 = arith.addi %taken, %i1 : i32
    %over = arith.cmpi sgt, %sum2, %limit : i32
    %go = arith.xori %over, %true : i1
    coro.for_each.yield %go, %sum2, %taken2 : i32, i32
  }
  %base = arith.muli %id, %c2 : index
  %at1 = arith.addi %base, %c1 : index
  memref.store %r#0, %sums[%base] : memref<?xi32>
  memref.store %r#1, %sums[%at1] : memref<?xi32>
  coro.return
}

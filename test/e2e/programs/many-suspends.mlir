// many_suspends: a straight line of eight suspension points, tagged and
// anonymous, some back to back, two inside an scf.if and one inside an
// scf.execute_region, with an i32 hash, an f32 and an i1 updated between
// every pair of them. Every subroutine of the split program runs once per
// instance; the frame must carry the state from each to the next. The state
// starts from out[2 id + 1] (iota: 2 id + 1), a buffer the coroutine writes
// later, so it cannot be recomputed from coro.id after a suspension.
// Output (grid 100, --arg=5): out[2 id] (i32) = the final hash; out[2 id + 1]
// = the f32 value truncated to an integer times 2 + the flag.
coro.func @many_suspends(%salt: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c2_i32 = arith.constant 2 : i32
  %id32 = arith.index_cast %id : index to i32
  %k = arith.constant 31 : i32
  %f3 = arith.constant 3.0 : f32
  %true = arith.constant true
  %at_seed0 = arith.muli %id, %c2 : index
  %at_seed = arith.addi %at_seed0, %c1 : index
  %seed = memref.load %out[%at_seed] : memref<?xi32>
  %h0 = arith.addi %seed, %salt : i32
  %x0 = arith.sitofp %h0 : i32 to f32
  %odd_bit = arith.constant 1 : i32
  %seed_half = arith.shrui %seed, %odd_bit : i32
  %b = arith.andi %seed_half, %odd_bit : i32
  %flag0 = arith.cmpi eq, %b, %odd_bit : i32
  coro.suspend "s1"
  %h1m = arith.muli %h0, %k : i32
  %h1 = arith.addi %h1m, %salt : i32
  %x1 = arith.addf %x0, %f3 : f32
  coro.suspend "s2"
  coro.suspend
  %h2 = arith.xori %h1, %seed : i32
  %flag1 = arith.xori %flag0, %true : i1
  coro.suspend "s4"
  %h3m = arith.muli %h2, %k : i32
  %h3 = arith.addi %h3m, %id32 : i32
  %x2 = arith.mulf %x1, %f3 : f32
  %r:2 = scf.if %flag1 -> (i32, f32) {
    coro.suspend "then"
    %h = arith.addi %h3, %salt : i32
    %x = arith.subf %x2, %f3 : f32
    scf.yield %h, %x : i32, f32
  } else {
    coro.suspend "else"
    %h = arith.subi %h3, %salt : i32
    %x = arith.addf %x2, %x2 : f32
    scf.yield %h, %x : i32, f32
  }
  %e:2 = scf.execute_region -> (i32, f32) {
    coro.suspend "region"
    %h = arith.muli %r#0, %k : i32
    %x = arith.addf %r#1, %f3 : f32
    scf.yield %h, %x : i32, f32
  }
  coro.suspend
  %flag2 = arith.cmpf ogt, %e#1, %x1 : f32
  %flag3 = arith.xori %flag2, %flag1 : i1
  coro.suspend "last"
  %at = arith.muli %id, %c2 : index
  memref.store %e#0, %out[%at] : memref<?xi32>
  %xi = arith.fptosi %e#1 : f32 to i32
  %x2i = arith.muli %xi, %c2_i32 : i32
  %fl = arith.extui %flag3 : i1 to i32
  %v = arith.addi %x2i, %fl : i32
  %at1 = arith.addi %at, %c1 : index
  memref.store %v, %out[%at1] : memref<?xi32>
  coro.return
}

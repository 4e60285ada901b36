// collatz_switch: an scf.while whose trip count is data-dependent (the
// Collatz sequence of id + 1, 0 to 118 steps for the 100 instances), with a
// suspension in its "before" region ("test") and an scf.index_switch in its
// "after" region that dispatches on step % 4: case 0 suspends once
// ("case0"), case 1 not at all, case 2 twice ("case2a", "case2b") and the
// default once ("other"). The loop carries the value, the step count and a
// checksum (i64) across all of those suspensions.
// Output (grid 100): out[2 id] (i32) = number of steps; out[2 id + 1] =
// low 31 bits of the checksum, which depends on every value of the sequence
// and on which switch case saw it.
coro.func @collatz_switch(%out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i3 = arith.constant 3 : i32
  %l0 = arith.constant 0 : i64
  %id32 = arith.index_cast %id : index to i32
  %v0 = arith.addi %id32, %i1 : i32
  %res:3 = scf.while (%v = %v0, %steps = %i0, %sum = %l0) : (i32, i32, i64) -> (i32, i32, i64) {
    coro.suspend "test"
    %more = arith.cmpi ne, %v, %i1 : i32
    scf.condition(%more) %v, %steps, %sum : i32, i32, i64
  } do {
  ^bb0(%v: i32, %steps: i32, %sum: i64):
    %odd_bit = arith.andi %v, %i1 : i32
    %odd = arith.cmpi eq, %odd_bit, %i1 : i32
    %tripled = arith.muli %v, %i3 : i32
    %up = arith.addi %tripled, %i1 : i32
    %down = arith.shrui %v, %i1 : i32
    %next = arith.select %odd, %up, %down : i32
    %steps_idx = arith.index_cast %steps : i32 to index
    %case = arith.remui %steps_idx, %c4 : index
    %v64 = arith.extsi %v : i32 to i64
    %mix = scf.index_switch %case -> i64
    case 0 {
      coro.suspend "case0"
      %k = arith.constant 31 : i64
      %m = arith.muli %sum, %k : i64
      %a = arith.addi %m, %v64 : i64
      scf.yield %a : i64
    }
    case 1 {
      %a = arith.xori %sum, %v64 : i64
      scf.yield %a : i64
    }
    case 2 {
      coro.suspend "case2a"
      %k = arith.constant 7 : i64
      %a = arith.addi %sum, %k : i64
      coro.suspend "case2b"
      %m = arith.muli %a, %v64 : i64
      scf.yield %m : i64
    }
    default {
      coro.suspend "other"
      %s = arith.constant 3 : i64
      %a = arith.shli %sum, %s : i64
      %b = arith.subi %a, %v64 : i64
      scf.yield %b : i64
    }
    %steps2 = arith.addi %steps, %i1 : i32
    %mask = arith.constant 1099511627775 : i64
    %sum2 = arith.andi %mix, %mask : i64
    scf.yield %next, %steps2, %sum2 : i32, i32, i64
  }
  %at = arith.muli %id, %c2 : index
  memref.store %res#1, %out[%at] : memref<?xi32>
  %low = arith.constant 2147483647 : i64
  %cs = arith.andi %res#2, %low : i64
  %cs32 = arith.trunci %cs : i64 to i32
  %at1 = arith.addi %at, %c1 : index
  memref.store %cs32, %out[%at1] : memref<?xi32>
  coro.return
}

// generator_types: generators whose types once went wrong (issue 42, found
// by a random-program generator written apart from ours), each consumed by
// coro.for_each:
// - vec_sum: a generator that yields vector<2xi32> ([i, i + 10] for
//   i < n); the loop body never ran (its value lives in one frame field per
//   lane, and the loop looked for a field of the whole vector). Output
//   (grid 2, n = 3): out[2 id] = the sum of all lanes, 36; out[2 id + 1] =
//   the number of values, 3.
// - flag_sum, byte_sum: generators with an i1 and an i8 parameter; every
//   coroutine becomes a kernel, and a kernel argument of i1 or i8 made
//   invalid SPIR-V (a buffer of bool) or needed 8-bit storage. They yield
//   i + flag (i + x) for i < n, with flag = id & 1 (x = id). Output (grid 4,
//   n = 3): flag_sum [3, 6, 3, 6], byte_sum [3, 6, 9, 12].
// - bool_digits: a generator that yields i1 from an scf.index_switch in an
//   scf.for (only at i = 7), then once more (id & 1) after the loop; the
//   loop body makes digits of the values. Output (grid 4): for n <= 7 only
//   the last value, [0, 1, 0, 1]; for n = 8 also i = 7's (1): [10, 11, 10,
//   11].
coro.func @vec_gen(%n: i32) yields vector<2xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %b = vector.broadcast %i : i32 to vector<2xi32>
    %j = arith.addi %i, %c10 : i32
    %v = vector.insert %j, %b [1] : i32 into vector<2xi32>
    coro.yield %v : vector<2xi32>
  }
  coro.return
}

coro.func @vec_sum(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = coro.for_each @vec_gen[%id](%n : i32) iter_args(%c0, %c0 : i32, i32) -> (i32, i32) {
  ^bb0(%v: vector<2xi32>, %acc: i32, %cnt: i32):
    %x = vector.extract %v[0] : i32 from vector<2xi32>
    %y = vector.extract %v[1] : i32 from vector<2xi32>
    %s = arith.addi %x, %y : i32
    %a = arith.addi %acc, %s : i32
    %c = arith.addi %cnt, %c1 : i32
    %t = arith.constant true
    coro.for_each.yield %t, %a, %c : i32, i32
  }
  %c2 = arith.constant 2 : index
  %i0 = arith.muli %id, %c2 : index
  %one = arith.constant 1 : index
  %i1 = arith.addi %i0, %one : index
  memref.store %r#0, %out[%i0] : memref<?xi32>
  memref.store %r#1, %out[%i1] : memref<?xi32>
  coro.return
}

coro.func @flag_gen(%flag: i1, %n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f = arith.extui %flag : i1 to i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = arith.addi %i, %f : i32
    coro.yield %v : i32
  }
  coro.return
}

coro.func @flag_sum(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %id32 = arith.index_cast %id : index to i32
  %flag = arith.trunci %id32 : i32 to i1
  %c0 = arith.constant 0 : i32
  %r = coro.for_each @flag_gen[%id](%flag, %n : i1, i32) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %a = arith.addi %acc, %v : i32
    %t = arith.constant true
    coro.for_each.yield %t, %a : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @byte_gen(%x: i8, %n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %w = arith.extui %x : i8 to i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = arith.addi %i, %w : i32
    coro.yield %v : i32
  }
  coro.return
}

coro.func @byte_sum(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %id32 = arith.index_cast %id : index to i32
  %x = arith.trunci %id32 : i32 to i8
  %c0 = arith.constant 0 : i32
  %r = coro.for_each @byte_gen[%id](%x, %n : i8, i32) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %a = arith.addi %acc, %v : i32
    %t = arith.constant true
    coro.for_each.yield %t, %a : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @bool_gen(%n: i32) yields i1 {
  %id_x = coro.id : index
  %id = arith.index_cast %id_x : index to i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = arith.index_cast %i : i32 to index
    scf.index_switch %x
    case 7 {
      %b = arith.trunci %i : i32 to i1
      coro.yield %b : i1
      scf.yield
    }
    default {
      scf.yield
    }
  }
  %last = arith.trunci %id : i32 to i1
  coro.yield %last : i1
  coro.return
}

coro.func @bool_digits(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : i32
  %r = coro.for_each @bool_gen[%id](%n : i32) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i1, %acc: i32):
    %e = arith.extui %v : i1 to i32
    %a10 = arith.muli %acc, %c10 : i32
    %a = arith.addi %a10, %e : i32
    %true = arith.constant true
    coro.for_each.yield %true, %a : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

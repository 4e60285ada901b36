// Early return: an instance returns from inside a loop as soon as it finds
// what it looks for (here the first k with (id * k) % 7 == 3), after a
// suspension per step; out[id] = that k, or -1 after 10 steps.
coro.func @early_return(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  cf.br ^loop(%c0 : index)
^loop(%k: index):
  %more = arith.cmpi ult, %k, %c10 : index
  cf.cond_br %more, ^step, ^none
^step:
  coro.suspend "step"
  %p = arith.muli %id, %k : index
  %r = arith.remui %p, %c7 : index
  %found = arith.cmpi eq, %r, %c3 : index
  cf.cond_br %found, ^found, ^next
^found:
  %ki = arith.index_cast %k : index to i32
  memref.store %ki, %out[%id] : memref<?xi32>
  coro.return
^next:
  %k1 = arith.addi %k, %c1 : index
  cf.br ^loop(%k1 : index)
^none:
  %minus = arith.constant -1 : i32
  memref.store %minus, %out[%id] : memref<?xi32>
  coro.return
}

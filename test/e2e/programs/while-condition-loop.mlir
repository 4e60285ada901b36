// while_condition_loop: `while (intersect(ray)) { ... }` with the traversal
// loop inside the scf.while condition region: an scf.for (id % 4 trips) and
// an scf.if in the `before` region, suspending inside that inner loop
// ("traverse") and in the body ("shade"). LLVM 22's SCF to SPIR-V conversion
// made invalid SPIR-V of this shape (spirv-val: "OpPhi's incoming basic
// block ... is not a predecessor") before coro-spirv-structurize-while;
// `condition_loop` is issue 13's reproducer as reported, without
// suspensions.
// Output (grid 37): out[2 id] = the accumulator after the loop (i32, it
// crossed every suspension); out[2 id + 1] = number of body runs.
coro.func @while_condition_loop(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %k3 = arith.constant 3 : i32
  %k7 = arith.constant 7 : i32
  %id32 = arith.index_cast %id : index to i32
  %n = arith.andi %id32, %k3 : i32
  %ub = arith.index_cast %n : i32 to index
  %r:2 = scf.while (%i = %k0, %a = %id32) : (i32, i32) -> (i32, i32) {
    %v = scf.for %j = %c0 to %ub step %c1 iter_args(%acc = %a) -> (i32) {
      coro.suspend "traverse"
      %x = arith.addi %acc, %k3 : i32
      scf.yield %x : i32
    }
    %odd = arith.andi %v, %k1 : i32
    %isodd = arith.cmpi eq, %odd, %k1 : i32
    %w = scf.if %isodd -> (i32) {
      %y = arith.xori %v, %k7 : i32
      scf.yield %y : i32
    } else {
      scf.yield %v : i32
    }
    %go = arith.cmpi ult, %i, %n : i32
    scf.condition(%go) %i, %w : i32, i32
  } do {
  ^bb0(%i2: i32, %a2: i32):
    coro.suspend "shade"
    %nx = arith.addi %i2, %k1 : i32
    %a3 = arith.muli %a2, %k3 : i32
    scf.yield %nx, %a3 : i32, i32
  }
  %slot = arith.muli %id, %c2 : index
  %slot1 = arith.addi %slot, %c1 : index
  memref.store %r#1, %out[%slot] : memref<?xi32>
  memref.store %r#0, %out[%slot1] : memref<?xi32>
  coro.return
}

coro.func @condition_loop(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %k3 = arith.constant 3 : i32
  %id32 = arith.index_cast %id : index to i32
  %n = arith.andi %id32, %k3 : i32
  %ub = arith.index_cast %n : i32 to index
  %r:2 = scf.while (%i = %k0, %a = %id32) : (i32, i32) -> (i32, i32) {
    %v = scf.for %j = %c0 to %ub step %c1 iter_args(%acc = %a) -> (i32) {
      %x = arith.addi %acc, %k3 : i32
      scf.yield %x : i32
    }
    %go = arith.cmpi ult, %i, %n : i32
    scf.condition(%go) %i, %v : i32, i32
  } do {
  ^bb0(%i2: i32, %a2: i32):
    %nx = arith.addi %i2, %k1 : i32
    %a3 = arith.muli %a2, %k3 : i32
    scf.yield %nx, %a3 : i32, i32
  }
  memref.store %r#1, %out[%id] : memref<?xi32>
  coro.return
}

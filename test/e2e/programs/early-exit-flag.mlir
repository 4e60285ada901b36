// early_exit_flag: a multi-block body whose early coro.return sits behind
// a suspension and a comparison, and whose other path suspends before the
// common exit. coro-normalize-control-flow picks the exit with an
// scf.index_switch on a flag; coro-split's clean-up folds that flag into
// `arith.index_castui %b : i1 to index`, which the SPIR-V conversion
// rejected before coro-spirv-expand-arith (issue 13).
// Output (grid 37): out[id] = id + 5 for 0 < id < 5 (early return), 100 + id
// for the others.
coro.func @early_exit_flag(%out: memref<?xi32>) {
  %id = coro.id : index
  %c5 = arith.constant 5 : i32
  %c100 = arith.constant 100 : i32
  %id32 = arith.index_cast %id : index to i32
  %lt = arith.cmpi slt, %id32, %c5 : i32
  cf.cond_br %lt, ^a, ^b
^a:
  coro.suspend "a"
  %x = arith.addi %id32, %c5 : i32
  %gt = arith.cmpi sgt, %x, %c5 : i32
  cf.cond_br %gt, ^early, ^b
^early:
  memref.store %x, %out[%id] : memref<?xi32>
  coro.return
^b:
  coro.suspend "b"
  %y = arith.addi %id32, %c100 : i32
  memref.store %y, %out[%id] : memref<?xi32>
  coro.return
}

// coro-split used ub.poison for values never read after a suspension (here:
// the values scf.condition forwards where the loop leaves at "test"); the
// canonicalizer in coro-materialize-frame then folded
// `vector.insert %poison, %dense_constant[0]` and LLVM 22's vector.insert
// folder crashed (coro-fuzz seed 45, reduced). Such values are zero
// constants now (createPlaceholderValue).
// RUN: coro-run %s --coro=vector_insert --scheduler=state-machine --emit=ptx --emit-to=%t.sm.ptx
// RUN: coro-run %s --coro=vector_insert --scheduler=wavefront --emit=ptx --emit-to=%t.wf.ptx
// RUN: coro-run %s --coro=vector_insert --scheduler=persistent --emit=ptx --emit-to=%t.pt.ptx
// RUN: FileCheck %s < %t.sm.ptx
// CHECK: .entry vector_insert
coro.func @vector_insert(%table: memref<?xi32>) {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : index
  %cst = arith.constant dense<[-1, 24, -29, -7]> : vector<4xi32>
  %r:2 = scf.while (%trip = %c0, %v = %c1) : (i32, i32) -> (i32, i32) {
    %next = arith.addi %trip, %c1 : i32
    coro.suspend "test"
    %loaded = memref.load %table[%c5] : memref<?xi32>
    %narrow = arith.trunci %loaded : i32 to i16
    %wide = arith.extsi %narrow : i16 to i32
    %go = arith.cmpi sle, %next, %c1 : i32
    scf.condition(%go) %next, %wide : i32, i32
  } do {
  ^bb0(%trip2: i32, %v2: i32):
    %vec = vector.insert %v2, %cst [0] : i32 into vector<4xi32>
    coro.promise "p", %vec : vector<4xi32>
    scf.yield %trip2, %v2 : i32, i32
  }
  coro.return
}

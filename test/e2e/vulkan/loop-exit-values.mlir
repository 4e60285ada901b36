// Loops whose trip count differs between the lanes of a subgroup, and whose
// values after the exit are computed in the loop header (the scf.while
// condition region): lavapipe (Mesa 22.3) gives the lanes that left early the
// header's values of a later pass, made with them masked off (Bug 1 of
// test/e2e/known/driver/README.md). coro-spirv-structurize-while moves such
// condition regions into the loop body, so the header only forwards its own
// arguments. The expected values are written out, not taken from the
// mega-kernel, which was wrong before the rewrite (the values it gave then are
// in the comments). On Vulkan every scf.while condition region also records,
// by default, whether the loop was to run on (the loop-iteration check of
// --termination-checks): that store alone makes the pass move every such
// region. So each coroutine also runs with --termination-checks=false, which
// tests the pass's rule for the condition regions themselves.
// REQUIRES: vulkan

// A cf loop carrying a vector, whose exit value is the header's (lifted to an
// scf.while that forwards the header's value), with a suspension in the
// header: out[id] = id + id % 3. The mega-kernel gave [0, 0, 4, 3, 0, 7].
// RUN: coro-run %s --coro=cf_loop --grid=6 --buffer=i32:6:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=CF
// RUN: coro-run %s --coro=cf_loop --grid=6 --buffer=i32:6:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=CF
// RUN: coro-run %s --coro=cf_loop --grid=6 --buffer=i32:6:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefix=CF
// RUN: coro-run %s --coro=cf_loop --grid=6 --buffer=i32:6:zeros --scheduler=persistent --validate | FileCheck %s --check-prefix=CF
// RUN: coro-run %s --coro=cf_loop --grid=6 --buffer=i32:6:zeros --scheduler=megakernel --termination-checks=false --validate | FileCheck %s --check-prefix=CF
// RUN: coro-run %s --coro=cf_loop --grid=6 --buffer=i32:6:zeros --scheduler=wavefront --termination-checks=false --validate | FileCheck %s --check-prefix=CF
// CF: buffer 0 (i32 x 6): [0, 2, 4, 3, 5, 7]
coro.func @cf_loop(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant dense<1> : vector<2xi32>
  %id32 = arith.index_cast %id : index to i32
  %v0 = vector.broadcast %id32 : i32 to vector<2xi32>
  %n = arith.remui %id, %c3 : index
  cf.br ^head(%c0, %v0 : index, vector<2xi32>)
^head(%i: index, %v: vector<2xi32>):
  coro.suspend
  %next = arith.addi %v, %one : vector<2xi32>
  %i1 = arith.addi %i, %c1 : index
  %again = arith.cmpi ule, %i1, %n : index
  cf.cond_br %again, ^head(%i1, %next : index, vector<2xi32>), ^exit
^exit:
  %e = vector.extract %v[1] : i32 from vector<2xi32>
  memref.store %e, %out[%id] : memref<?xi32>
  coro.return
}

// A value the condition region loads leaves the loop: out[id] = table[id +
// id % 4], with table[k] = 100 + k. The mega-kernel gave 0 to every lane
// that left before the last one of its subgroup.
// RUN: %python -c "import struct; open('%t.bin', 'wb').write(struct.pack('<64i', *range(100, 164)))"
// RUN: coro-run %s --coro=loaded_exit_value --grid=16 --buffer=i32:64:file=%t.bin --buffer=i32:16:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=LOADED
// RUN: coro-run %s --coro=loaded_exit_value --grid=16 --buffer=i32:64:file=%t.bin --buffer=i32:16:zeros --scheduler=wavefront --check-bounds --validate | FileCheck %s --check-prefix=LOADED
// RUN: coro-run %s --coro=loaded_exit_value --grid=16 --buffer=i32:64:file=%t.bin --buffer=i32:16:zeros --scheduler=megakernel --termination-checks=false --validate | FileCheck %s --check-prefix=LOADED
// LOADED: buffer 1 (i32 x 16): [100, 102, 104, 106, 104, 106, 108, 110, 108, 110, 112, 114, 112, 114, 116, 118]
coro.func @loaded_exit_value(%table: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %c64 = arith.constant 64 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %k4 = arith.constant 4 : i32
  %id32 = arith.index_cast %id : index to i32
  %trips = arith.remui %id32, %k4 : i32
  %r:2 = scf.while (%trip = %k0, %last = %k0) : (i32, i32) -> (i32, i32) {
    %at = arith.addi %id32, %trip : i32
    %ix = arith.index_castui %at : i32 to index
    %wrapped = arith.remui %ix, %c64 : index
    %x = memref.load %table[%wrapped] : memref<?xi32>
    %go = arith.cmpi slt, %trip, %trips : i32
    scf.condition(%go) %trip, %x : i32, i32
  } do {
  ^bb0(%t: i32, %x: i32):
    %t1 = arith.addi %t, %k1 : i32
    coro.suspend
    scf.yield %t1, %x : i32, i32
  }
  memref.store %r#1, %out[%id] : memref<?xi32>
  coro.return
}

// The shape of driver/divergent-loop.comp: the condition region forwards a
// sum of its arguments and the next value of one of them. Instance i: a =
// 1000 i, c = 7, trips = i % 4; out[i] = c + a of the last pass through the
// header.
// RUN: coro-run %s --coro=computed_exit_value --grid=8 --buffer=i32:8:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=COMPUTED
// RUN: coro-run %s --coro=computed_exit_value --grid=8 --buffer=i32:8:zeros --scheduler=megakernel --termination-checks=false --validate | FileCheck %s --check-prefix=COMPUTED
// COMPUTED: buffer 0 (i32 x 8): [7, 4004, 8008, 12012, 4007, 20004, 24008, 28012]
coro.func @computed_exit_value(%out: memref<?xi32>) {
  %id = coro.id : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %k3 = arith.constant 3 : i32
  %k4 = arith.constant 4 : i32
  %k7 = arith.constant 7 : i32
  %k1000 = arith.constant 1000 : i32
  %id32 = arith.index_cast %id : index to i32
  %a0 = arith.muli %id32, %k1000 : i32
  %trips = arith.remui %id32, %k4 : i32
  %r:4 = scf.while (%a = %a0, %c = %k7, %done = %k0)
      : (i32, i32, i32) -> (i32, i32, i32, i32) {
    %sum = arith.addi %c, %a : i32
    %n = arith.addi %a, %k1 : i32
    %go = arith.cmpi ult, %done, %trips : i32
    scf.condition(%go) %sum, %n, %c, %done : i32, i32, i32, i32
  } do {
  ^bb0(%sum: i32, %n: i32, %c: i32, %done: i32):
    %done1 = arith.addi %done, %k1 : i32
    %c1 = arith.muli %n, %k3 : i32
    scf.yield %n, %c1, %done1 : i32, i32, i32
  }
  memref.store %r#0, %out[%id] : memref<?xi32>
  coro.return
}

// The two shapes a review found the rule missed while it left alone a value
// whose result nothing reads: the header computes the next vector and
// forwards it (its result unused) along with its argument, and the body
// yields it back as that argument; and the same loop written with cf, with no
// suspension. out[id] = id + id % 3; with --termination-checks=false the
// mega-kernel gave [0, 3, 4, 3, 6, 7, 6, 9] and [0, 0, 4, 3, 0, 7, 6, 0].
// RUN: coro-run %s --coro=unused_next --grid=8 --buffer=i32:8:zeros --scheduler=megakernel --termination-checks=false --validate | FileCheck %s --check-prefix=NEXT
// RUN: coro-run %s --coro=unused_next --grid=8 --buffer=i32:8:zeros --scheduler=megakernel --validate | FileCheck %s --check-prefix=NEXT
// RUN: coro-run %s --coro=cf_loop_plain --grid=8 --buffer=i32:8:zeros --scheduler=megakernel --termination-checks=false --validate | FileCheck %s --check-prefix=NEXT
// RUN: coro-run %s --coro=cf_loop_plain --grid=8 --buffer=i32:8:zeros --scheduler=state-machine --termination-checks=false --validate | FileCheck %s --check-prefix=NEXT
// NEXT: buffer 0 (i32 x 8): [0, 2, 4, 3, 5, 7, 6, 8]
coro.func @unused_next(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant dense<1> : vector<2xi32>
  %id32 = arith.index_cast %id : index to i32
  %v0 = vector.broadcast %id32 : i32 to vector<2xi32>
  %n = arith.remui %id, %c3 : index
  %r:3 = scf.while (%i = %c0, %v = %v0)
      : (index, vector<2xi32>) -> (index, vector<2xi32>, vector<2xi32>) {
    %next = arith.addi %v, %one : vector<2xi32>
    %i1 = arith.addi %i, %c1 : index
    %again = arith.cmpi ule, %i1, %n : index
    scf.condition(%again) %i1, %next, %v : index, vector<2xi32>, vector<2xi32>
  } do {
  ^bb0(%i2: index, %next2: vector<2xi32>, %v2: vector<2xi32>):
    scf.yield %i2, %next2 : index, vector<2xi32>
  }
  %e = vector.extract %r#2[1] : i32 from vector<2xi32>
  memref.store %e, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @cf_loop_plain(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant dense<1> : vector<2xi32>
  %id32 = arith.index_cast %id : index to i32
  %v0 = vector.broadcast %id32 : i32 to vector<2xi32>
  %n = arith.remui %id, %c3 : index
  cf.br ^head(%c0, %v0 : index, vector<2xi32>)
^head(%i: index, %v: vector<2xi32>):
  %next = arith.addi %v, %one : vector<2xi32>
  %i1 = arith.addi %i, %c1 : index
  %again = arith.cmpi ule, %i1, %n : index
  cf.cond_br %again, ^head(%i1, %next : index, vector<2xi32>), ^exit
^exit:
  %e = vector.extract %v[1] : i32 from vector<2xi32>
  memref.store %e, %out[%id] : memref<?xi32>
  coro.return
}

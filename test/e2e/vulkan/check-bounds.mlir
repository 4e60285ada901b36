// coro-run --check-bounds: every memref load, store and atomic of the
// coroutine tests its indices against its buffer's size under every
// scheduler; an access out of bounds is skipped (a load or an atomic gives
// 0), all are counted and the first 16 instances that met one report their
// first since they last suspended: source line, memref, index, size,
// instance and where the instance last resumed; coro-run exits with code 6. Without --check-bounds lavapipe drops such accesses
// silently (exit 0).
// REQUIRES: lavapipe

// Loads past the end (shift 2: instances 6 and 7 read in[8], in[9]):
// RUN: not coro-run %s --coro=shifted_copy --grid=8 --arg=2 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not coro-run %s --coro=shifted_copy --grid=8 --arg=2 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=state-machine 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not coro-run %s --coro=shifted_copy --grid=8 --arg=2 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: not coro-run %s --coro=shifted_copy --grid=8 --arg=2 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=persistent 2>&1 | FileCheck %s --check-prefix=PAST
// PAST-DAG: coro-run: error: {{megakernel|state-machine|wavefront|persistent}}: 2 memory accesses were out of bounds and skipped (a load or an atomic gave 0)
// PAST-DAG: check-bounds.mlir:{{[0-9]+}}:8: memref.load of argument 0 (memref<?xf32>): index 8 in dimension 0 of size 8; instance 6, before its first suspension
// PAST-DAG: check-bounds.mlir:{{[0-9]+}}:8: memref.load of argument 0 (memref<?xf32>): index 9 in dimension 0 of size 8; instance 7, before its first suspension
// PAST-DAG: buffer 1 (f32 x 8): [2, 3, 4, 5, 6, 7, 0, 0]
// RUN: coro-run %s --coro=shifted_copy --grid=8 --arg=2 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=wavefront >/dev/null 2>&1; test $? -eq 6
// The skipped accesses are the same in the mega-kernel reference:
// RUN: not coro-run %s --coro=shifted_copy --grid=8 --arg=2 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=persistent --check 2>&1 | FileCheck %s --check-prefix=PAST-CHECK
// PAST-CHECK: check: persistent matches the mega-kernel reference

// A negative index (shift -1, instance 0), as --json reports it:
// RUN: not coro-run %s --coro=shifted_copy --grid=8 --arg=-1 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=wavefront --json 2>/dev/null | FileCheck %s --check-prefix=JSON
// JSON:      "bounds_violations": {
// JSON-NEXT:   "count": 1,
// JSON-NEXT:   "recorded": [
// JSON-NEXT:     {
// JSON-NEXT:       "dimension": 0,
// JSON-NEXT:       "index": -1,
// JSON-NEXT:       "instance": 0,
// JSON-NEXT:       "location": "{{.*}}check-bounds.mlir:{{[0-9]+}}:8",
// JSON-NEXT:       "memref": "argument 0 (memref<?xf32>)",
// JSON-NEXT:       "op": "memref.load",
// JSON-NEXT:       "resumed_at": "entry",
// JSON-NEXT:       "size": 8
// JSON-NEXT:     }

// In bounds, the same output as without the checks, and exit code 0:
// RUN: coro-run %s --coro=shifted_copy --grid=8 --arg=0 --buffer=f32:8:iota --buffer=f32:8:zeros --check-bounds --scheduler=persistent | FileCheck %s --check-prefix=IN
// RUN: coro-run %s --coro=shifted_copy --grid=8 --arg=0 --buffer=f32:8:iota --buffer=f32:8:zeros --scheduler=persistent | FileCheck %s --check-prefix=IN
// IN: buffer 1 (f32 x 8): [0, 1, 2, 3, 4, 5, 6, 7]
// Without the checks nothing is reported:
// RUN: coro-run %s --coro=shifted_copy --grid=8 --arg=2 --buffer=f32:8:iota --buffer=f32:8:zeros --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=SILENT
// SILENT-NOT: out of bounds

// Stores and atomics after suspensions, a local array of two dimensions,
// and more violations than records (instance i stores at out[2i], adds at
// out[i + base], and reads row i % 3 of a 2x4 local array: 40 instances
// with 40 elements and base 20 make 20 stores, 20 atomics and 13 loads out
// of bounds; 6 instances with 8 elements and base 5, 2 stores, 3 atomics and
// 2 loads):
// RUN: not coro-run %s --coro=spread --grid=40 --arg=20 --buffer=i32:40:zeros --check-bounds --scheduler=state-machine 2>&1 | FileCheck %s --check-prefix=SPREAD
// RUN: not coro-run %s --coro=spread --grid=40 --arg=20 --buffer=i32:40:zeros --check-bounds --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=SPREAD
// RUN: not coro-run %s --coro=spread --grid=40 --arg=20 --buffer=i32:40:zeros --check-bounds --scheduler=persistent 2>&1 | FileCheck %s --check-prefix=SPREAD
// RUN: not coro-run %s --coro=spread --grid=40 --arg=20 --buffer=i32:40:zeros --check-bounds --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=SPREAD
// SPREAD: 53 memory accesses were out of bounds and skipped (a load or an atomic gave 0); 16 recorded (an instance's first since it last suspended)
// SPREAD-COUNT-16: check-bounds.mlir:{{[0-9]+}}:{{[0-9]+}}: memref.{{store|atomic_rmw|load}} of {{argument 0 \(memref<\?xi32>\)|local array \(memref<2x4xi32>\)}}: index {{[0-9]+}} in dimension {{0|1}} of size {{40|2|4}}; instance {{[0-9]+}}, resumed at suspension {{"store"|#2 \(anonymous\)}}
// SPREAD-NOT: check-bounds.mlir
// RUN: not coro-run %s --coro=spread --grid=6 --arg=5 --buffer=i32:8:zeros --check-bounds --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: not coro-run %s --coro=spread --grid=6 --arg=5 --buffer=i32:8:zeros --check-bounds --scheduler=persistent 2>&1 | FileCheck %s --check-prefix=ROW
// Instance 5's atomic comes after its load out of bounds, since the same
// suspension: counted, not recorded.
// ROW: 7 memory accesses were out of bounds and skipped (a load or an atomic gave 0); 6 recorded
// ROW-DAG: memref.load of local array (memref<2x4xi32>): index 2 in dimension 0 of size 2; instance 2, resumed at suspension #2 (anonymous)
// ROW-DAG: memref.load of local array (memref<2x4xi32>): index 2 in dimension 0 of size 2; instance 5, resumed at suspension #2 (anonymous)
// ROW-DAG: memref.atomic_rmw of argument 0 (memref<?xi32>): index 8 in dimension 0 of size 8; instance 3, resumed at suspension #2 (anonymous)
// ROW-DAG: memref.atomic_rmw of argument 0 (memref<?xi32>): index 9 in dimension 0 of size 8; instance 4, resumed at suspension #2 (anonymous)
// ROW-DAG: memref.store of argument 0 (memref<?xi32>): index 8 in dimension 0 of size 8; instance 4, resumed at suspension "store"
// ROW-DAG: memref.store of argument 0 (memref<?xi32>): index 10 in dimension 0 of size 8; instance 5, resumed at suspension "store"

// A search that runs off the end of its buffer never finds what it looks
// for (the skipped loads give 0) and runs into the round limit; the
// violations reported until then are printed with the limit's error:
// RUN: not coro-run %s --coro=search --grid=2 --buffer=i32:4:zeros --buffer=i32:2:zeros --check-bounds --scheduler=wavefront --max-rounds=64 2>&1 | FileCheck %s --check-prefix=SEARCH
// RUN: not coro-run %s --coro=search --grid=2 --buffer=i32:4:zeros --buffer=i32:2:zeros --check-bounds --scheduler=persistent --max-rounds=2 --persistent-batches-per-launch=1 2>&1 | FileCheck %s --check-prefix=SEARCH
// SEARCH: coro-run: error: {{wavefront|persistent}}: {{.*(stopped after 64 rounds|stopped after 2 launches|had a loop cut short)}}
// SEARCH: coro-run: error: {{wavefront|persistent}}: {{[0-9]+}} memory accesses were out of bounds and skipped
// SEARCH: memref.load of argument 0 (memref<?xi32>): index 4 in dimension 0 of size 4; instance 0, resumed at suspension "next"
// RUN: coro-run %s --coro=search --grid=2 --buffer=i32:4:zeros --buffer=i32:2:zeros --check-bounds --scheduler=wavefront --max-rounds=64 >/dev/null 2>&1; test $? -eq 5

coro.func @search(%in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %found = scf.while (%i = %id) : (index) -> (index) {
    %v = memref.load %in[%i] : memref<?xi32>
    %go = arith.cmpi ne, %v, %one : i32
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    coro.suspend "next"
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2 : index
  }
  %f32 = arith.index_cast %found : index to i32
  memref.store %f32, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @shifted_copy(%in: memref<?xf32>, %out: memref<?xf32>, %shift: index) {
  %id = coro.id : index
  %i = arith.addi %id, %shift : index
  %x = memref.load %in[%i] : memref<?xf32>
  coro.suspend "copy"
  memref.store %x, %out[%id] : memref<?xf32>
  coro.return
}

coro.func @spread(%out: memref<?xi32>, %base: index) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %a = memref.alloca() : memref<2x4xi32>
  memref.store %one, %a[%c0, %c0] : memref<2x4xi32>
  memref.store %one, %a[%c1, %c0] : memref<2x4xi32>
  coro.suspend "store"
  %at = arith.muli %id, %c2 : index
  %id32 = arith.index_cast %id : index to i32
  memref.store %id32, %out[%at] : memref<?xi32>
  coro.suspend
  %row = arith.remui %id, %c3 : index
  %v = memref.load %a[%row, %c0] : memref<2x4xi32>
  %bin = arith.addi %id, %base : index
  %old = memref.atomic_rmw addi %v, %out[%bin] : (i32, memref<?xi32>) -> i32
  coro.return
}

// Out of bounds inside a generator consumed by a loop (coro.for_each):
// coro-resolve-handles inlines the generator's code into the consumer
// before the checks, so its accesses are checked too (instances 6 and 7
// store past the end of out), and reported at the generator's line:
// RUN: not coro-run %s --coro=consume_shifted --grid=8 --arg=2 --buffer=i32:8:zeros --buffer=i32:8:zeros --check-bounds --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=GEN
// RUN: not coro-run %s --coro=consume_shifted --grid=8 --arg=2 --buffer=i32:8:zeros --buffer=i32:8:zeros --check-bounds --scheduler=state-machine 2>&1 | FileCheck %s --check-prefix=GEN
// RUN: not coro-run %s --coro=consume_shifted --grid=8 --arg=2 --buffer=i32:8:zeros --buffer=i32:8:zeros --check-bounds --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=GEN
// RUN: not coro-run %s --coro=consume_shifted --grid=8 --arg=2 --buffer=i32:8:zeros --buffer=i32:8:zeros --check-bounds --scheduler=persistent 2>&1 | FileCheck %s --check-prefix=GEN
// GEN-DAG: coro-run: error: {{megakernel|state-machine|wavefront|persistent}}: 2 memory accesses were out of bounds and skipped (a load or an atomic gave 0)
// GEN-DAG: check-bounds.mlir:[[@LINE+9]]:3: memref.store of argument 2 (memref<?xi32>): index 8 in dimension 0 of size 8; instance 6, resumed at suspension "body"
// GEN-DAG: check-bounds.mlir:[[@LINE+8]]:3: memref.store of argument 2 (memref<?xi32>): index 9 in dimension 0 of size 8; instance 7, resumed at suspension "body"
// GEN-DAG: buffer 0 (i32 x 8): [1, 1, 1, 1, 1, 1, 1, 1]
// GEN-DAG: buffer 1 (i32 x 8): [0, 0, 1, 1, 1, 1, 1, 1]
coro.func @shifted_ones(%shift: index, %out: memref<?xi32>) yields i32 {
  %id = coro.id : index
  %at = arith.addi %id, %shift : index
  %one = arith.constant 1 : i32
  coro.yield %one : i32
  memref.store %one, %out[%at] : memref<?xi32>
  coro.return
}
coro.func @consume_shifted(%shift: index, %sums: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  %sum = coro.for_each @shifted_ones[%id](%shift, %out : index, memref<?xi32>) iter_args(%zero : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    coro.suspend "body"
    %next = arith.addi %acc, %v : i32
    coro.for_each.yield %true, %next : i32
  }
  memref.store %sum, %sums[%id] : memref<?xi32>
  coro.return
}

// A vector load is checked element by element (it becomes one memref.load
// per element first): instance 2 of 3 loads in[8..11] of 10 floats, and
// its elements 10 and 11 read 0.
// RUN: not coro-run %s --coro=vector_halo --grid=3 --buffer=f32:10:iota --buffer=f32:3:zeros --check-bounds --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=VECTOR
// VECTOR-DAG: coro-run: error: wavefront: 2 memory accesses were out of bounds and skipped (a load or an atomic gave 0)
// VECTOR-DAG: check-bounds.mlir:[[# @LINE + 7]]:8: memref.load of argument 0 (memref<?xf32>): index 10 in dimension 0 of size 10; instance 2, resumed at suspension #1 (anonymous)
// VECTOR-DAG: buffer 1 (f32 x 3): [6, 22, 17]
coro.func @vector_halo(%in: memref<?xf32>, %out: memref<?xf32>) {
  %id = coro.id : index
  %c4 = arith.constant 4 : index
  %at = arith.muli %id, %c4 : index
  coro.suspend
  %v = vector.load %in[%at] : memref<?xf32>, vector<4xf32>
  %sum = vector.reduction <add>, %v : vector<4xf32> into f32
  memref.store %sum, %out[%id] : memref<?xf32>
  coro.return
}

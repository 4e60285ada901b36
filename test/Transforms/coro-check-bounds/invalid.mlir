// RUN: coro-opt %s --split-input-file --coro-check-bounds --verify-diagnostics
// RUN: not coro-opt %s --coro-check-bounds='records=0' 2>&1 | FileCheck %s --check-prefix=RECORDS

// RECORDS: error: coro-check-bounds: records must be at least 1

coro.func @view(%in: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.subview %in[%c0][%n][%c1] : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  // expected-error @+1 {{coro-check-bounds: cannot tell the size of 'memref<?xf32, strided<[?], offset: ?>>' here: bounds are checked for accesses to the coroutine's memref arguments, to local arrays (memref.alloca) and to memrefs of static shape}}
  %x = memref.load %v[%c0] : memref<?xf32, strided<[?], offset: ?>>
  coro.return
}

// -----

coro.func @copy(%in: memref<4xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{coro-check-bounds: cannot check the accesses of 'memref.copy'; it checks memref.load, memref.store, memref.atomic_rmw, vector.load and vector.store}}
  memref.copy %in, %out : memref<4xf32> to memref<4xf32>
  coro.return
}

// -----

func.func @helper(%m: memref<?xf32>, %i: index) -> f32 {
  %x = memref.load %m[%i] : memref<?xf32>
  return %x : f32
}

coro.func @calls(%in: memref<?xf32>) {
  %id = coro.id : index
  // expected-error @+1 {{coro-check-bounds: run coro-inline-callables and coro-inline-awaits first; the accesses of a callee would not be checked}}
  %x = func.call @helper(%in, %id) : (memref<?xf32>, index) -> f32
  coro.return
}

// -----

// expected-note @+1 {{the coroutine}}
coro.func @launched(%out: memref<?xi32>) {
  coro.return
}

func.func @main(%out: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{coro-check-bounds: @launched is launched or awaited here, and would miss the violation buffer the pass adds to its arguments; run it with coro-run --check-bounds, or after coro-inline-awaits}}
  coro.launch @launched[%c1](%out) : (memref<?xi32>) -> ()
  return
}

// -----

// Frames driven through coro.handle ops run code the pass sees only once
// coro-resolve-handles has inlined it.
coro.func @driver(%out: memref<?xf32>) {
  %id = coro.id : index
  // expected-error @+1 {{coro-check-bounds: @driver drives frames; run coro-resolve-handles first, which inlines the code they run here, so that it is checked too (coro-run --check-bounds does)}}
  %h = coro.handle.create @driven[%id] : !coro.handle<@driven>
  coro.handle.resume %h(%out) : !coro.handle<@driven>, (memref<?xf32>) -> ()
  coro.return
}
coro.func @driven(%out: memref<?xf32>) {
  coro.suspend "next"
  coro.return
}

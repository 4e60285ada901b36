// RUN: coro-opt %s --split-input-file --coro-split --verify-diagnostics

// expected-error @+1 {{'coro.func' op has unstructured control flow; run coro-normalize-control-flow before coro-split}}
coro.func @unstructured(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  coro.return
^b:
  coro.return
}

// -----

coro.func @callee() {
  coro.return
}
coro.func @await() {
  // expected-error @+1 {{'coro.await' op must be inlined before coro-split; run coro-inline-awaits first}}
  coro.await @callee() : () -> ()
  coro.return
}

// -----

coro.func @gen(%v: i32) yields i32 {
  // expected-error @+1 {{'coro.yield' op must be expanded before coro-split; run coro-expand-yield first}}
  coro.yield %v : i32
  coro.return
}

// -----

coro.func @in_execute_region() {
  // expected-note @+1 {{enclosing op is here}}
  scf.execute_region {
    // expected-error @+1 {{'coro.suspend' op cannot be split inside 'scf.execute_region'; run coro-normalize-control-flow before coro-split}}
    coro.suspend
    scf.yield
  }
  coro.return
}

// -----

coro.func @dynamic_array(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{this value of type 'memref<?xf32>' is live across suspension point 's1' and cannot be kept in the frame; only scalars, fixed-size vectors and local arrays (memref.alloca of static shape, at most 1024 elements) may cross; buffers are passed as arguments (and views recomputed from them)}}
  %a = memref.alloca(%n) : memref<?xf32>
  coro.suspend
  %v = memref.load %a[%c0] : memref<?xf32>
  memref.store %v, %out[%c0] : memref<?xf32>
  coro.return
}

// -----

// A suspension inside a loop over a generator: coro-split alone cannot split
// it (coro-resolve-handles lowers the loop first).
coro.func @inner(%n: i32) yields i32 {
  coro.promise "__yielded_value", %n : i32
  coro.suspend
  coro.return
}
coro.func @outer(%n: i32) {
  %id = coro.id : index
  // expected-note @+1 {{enclosing op is here}}
  coro.for_each @inner[%id](%n : i32) {
  ^bb0(%v: i32):
    %true = arith.constant true
    // expected-error @+1 {{'coro.suspend' op cannot be split inside 'coro.for_each'; run coro-resolve-handles before coro-split (it splits the generator and lowers the loop)}}
    coro.suspend "inside"
    coro.for_each.yield %true
  }
  coro.return
}

// RUN: coro-opt %s --split-input-file --coro-megakernel-to-gpu --verify-diagnostics
// RUN: not coro-opt %s --split-input-file --coro-megakernel-to-gpu=workgroup-size=0 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not coro-opt %s --split-input-file --coro-megakernel-to-gpu=workgroup-size=4294967360 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: coro-megakernel-to-gpu: workgroup-size must be in [1, 2^31), got 4294967360

// SIZE: error: coro-megakernel-to-gpu: workgroup-size must be in [1, 2^31), got 0

// expected-error @+1 {{'coro.func' op has unstructured control flow, which SPIR-V cannot express; run coro-normalize-control-flow first}}
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
  // expected-error @+1 {{'coro.await' op must be inlined before the GPU mega-kernel lowering; run coro-inline-awaits first}}
  coro.await @callee() : () -> ()
  coro.return
}

// -----

// expected-error @+1 {{'coro.func' op argument #1 has type 'memref<?x?xf32>': GPU kernels take memrefs of rank 1 (static or dynamic size) or of a static shape; pass it flattened, as 'memref<?xf32>'}}
coro.func @two_dimensional(%n: i32, %a: memref<?x?xf32>, %b: memref<4x4xf32>) {
  coro.return
}

// -----

func.func private @external(i32) -> i32
coro.func @calls_a_declaration(%v: i32) {
  // expected-error @+1 {{'func.call' op calls @external, a declaration without a body: GPU kernels can only call functions defined in the module (which coro-inline-callables inlines)}}
  %w = func.call @external(%v) : (i32) -> i32
  coro.return
}

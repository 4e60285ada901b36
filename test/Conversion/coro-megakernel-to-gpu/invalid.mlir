// RUN: coro-opt %s --split-input-file --coro-megakernel-to-gpu --verify-diagnostics
// RUN: not coro-opt %s --split-input-file --coro-megakernel-to-gpu=workgroup-size=0 2>&1 | FileCheck %s --check-prefix=SIZE

// SIZE: error: coro-megakernel-to-gpu: workgroup-size must be positive, got 0

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

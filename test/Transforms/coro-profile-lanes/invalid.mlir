// RUN: coro-opt %s --split-input-file --coro-profile-lanes -verify-diagnostics

// A coroutine that host code launches would miss the profile buffer.
// expected-note @below {{the coroutine}}
coro.func @launched(%out: memref<?xi32>) {
  coro.return
}
func.func @main(%out: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{coro-profile-lanes: @launched is launched, awaited or driven here, by code that would not pass the profile buffer the pass adds to its arguments; profile it with coro-run --profile-lanes}}
  coro.launch @launched[%c1](%out) : (memref<?xi32>) -> ()
  return
}

// -----

// The sites are structured control flow: normalize it first.
coro.func @unstructured(%c: i1) {
  // expected-error @below {{coro-profile-lanes: @unstructured has unstructured control flow here; run coro-normalize-control-flow first}}
  cf.cond_br %c, ^a, ^b
^a:
  coro.return
^b:
  coro.return
}

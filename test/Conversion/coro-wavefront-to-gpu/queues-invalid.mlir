// RUN: coro-opt %s --coro-wavefront-to-gpu --verify-diagnostics
// RUN: coro-opt %s "--coro-wavefront-to-gpu=design=classify" | FileCheck %s

// A split written by hand whose subroutine asks for the entry again: the
// queue design starts the entry only on new instances, so it would lose the
// instance; the classify design runs it.
// CHECK: #coro_plan.wavefront<{{.*}}design = "classify">
coro.func @f(%out: memref<?xf32>) {
  coro.suspend "again"
  coro.return
}
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__again(%frame: !coro.frame, %out: memref<?xf32>) {
  // expected-error @+1 {{'coro.frame.set_target' op targets token 0: the wavefront's queue design resumes tokens 1 to 1 (the entry runs once, on a new instance); use design=classify}}
  coro.frame.set_target %frame, 0
  return
}
coro.split @f subroutines [@f__entry, @f__again] names ["entry", "again"] fields [] transitions [array<i32: 0, 1>, array<i32: 1, 0>]

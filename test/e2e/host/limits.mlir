// A coroutine that never returns: every scheduler's host loop stops it at a
// limit and the program ends with an error that names the launch, instead
// of hanging or going on with what the instances left.
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=megakernel | not %run_host 2>&1 | FileCheck %s --check-prefix=MEGA
// RUN: coro-opt %s "--coro-host-to-llvm=scheduler=state-machine scheduler-options='state-machine-steps=64'" | env COROGPU_MAX_ROUNDS=50 not %run_host 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=wavefront | env COROGPU_MAX_ROUNDS=50 not %run_host 2>&1 | FileCheck %s --check-prefix=WAVE
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=persistent | not %run_host 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=wavefront | env COROGPU_MAX_ROUNDS=ten not %run_host 2>&1 | FileCheck %s --check-prefix=BAD
// MEGA: coro-runtime-wrappers: error: launch of @forever (megakernel): only 0 of 2 instances returned
// STEPS: coro-runtime-wrappers: error: launch of @forever (state-machine): the state-machine scheduler stopped after 50 launches {{.*}}COROGPU_MAX_ROUNDS and COROGPU_TIME_LIMIT (seconds) set the limits
// WAVE: coro-runtime-wrappers: error: launch of @forever (wavefront): the wavefront scheduler stopped after {{[0-9]+}} rounds{{.*}}its limit
// PERSISTENT: coro-runtime-wrappers: error: launch of @forever (persistent): {{.*}}loop cut short
// BAD: coro-runtime-wrappers: error: COROGPU_MAX_ROUNDS='ten' is not a positive integer
module attributes {gpu.container_module} {
  coro.func @forever(%out: memref<?xi32>) {
    %id = coro.id : index
    %true = arith.constant true
    scf.while : () -> () {
      scf.condition(%true)
    } do {
      coro.suspend "again"
      scf.yield
    }
    %c1 = arith.constant 1 : i32
    memref.store %c1, %out[%id] : memref<?xi32>
    coro.return
  }
  func.func @main() {
    %c2 = arith.constant 2 : index
    %out = memref.alloc(%c2) : memref<?xi32>
    coro.launch @forever[%c2](%out) : (memref<?xi32>) -> ()
    memref.dealloc %out : memref<?xi32>
    return
  }
}

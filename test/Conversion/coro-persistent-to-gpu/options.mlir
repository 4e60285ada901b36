// Bad options get one clear error each; a batch whose slots do not fit in
// the workgroup memory budget is an error at the coroutine's split.
// RUN: not coro-opt %s "--coro-persistent-to-gpu=batch=0" 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not coro-opt %s "--coro-persistent-to-gpu=batch=768614336404564651" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not coro-opt %s "--coro-persistent-to-gpu=shared-memory=1099511627776" 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not coro-opt %s "--coro-persistent-to-gpu=workgroup-size=0" 2>&1 | FileCheck %s --check-prefix=WORKGROUP
// RUN: not coro-opt %s "--coro-persistent-to-gpu=layout=diagonal" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not coro-opt %s "--coro-persistent-to-gpu=batch=2000" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not coro-opt %s "--coro-persistent-to-gpu=batch=4 shared-memory=64" 2>&1 | FileCheck %s --check-prefix=SMALL

// BATCH: error: coro-persistent-to-gpu: batch must be in [1, 1048576], got 0
// HUGE: error: coro-persistent-to-gpu: batch must be in [1, 1048576], got 768614336404564651
// MEMORY: error: coro-persistent-to-gpu: shared-memory must be in [0, 2^31), got 1099511627776
// WORKGROUP: error: coro-persistent-to-gpu: workgroup-size must be in [1, 2^31), got 0
// LAYOUT: for the --layout option: Cannot find option named 'diagonal'!
// SMALL: error: 'coro.split' op needs 128 bytes of workgroup memory for 4 persistent-threads slots (tokens, ids, queue), 2 subroutines (counts, runs) and the control words, more than shared-memory=64; lower the batch
coro.func @f(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__s1(%frame: !coro.frame, %out: memref<?xf32>) {
  coro.frame.set_target %frame, -1
  return
}
// BUDGET: :[[# @LINE + 1]]:1: error: 'coro.split' op needs 24080 bytes of workgroup memory for 2000 persistent-threads slots (tokens, ids, queue), 2 subroutines (counts, runs) and the control words, more than shared-memory=16384; lower the batch
coro.split @f subroutines [@f__entry, @f__s1]
    names ["entry", "s1"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}

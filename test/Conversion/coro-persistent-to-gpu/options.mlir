// Bad options get one clear error each; a batch whose slots do not fit in
// the workgroup memory budget is an error at the coroutine's split.
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=batch=0" 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=batch=768614336404564651" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=shared-memory=1099511627776" 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=workgroup-size=0" 2>&1 | FileCheck %s --check-prefix=WORKGROUP
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=layout=diagonal" 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=batch=2000" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not coro-opt %s --coro-split --coro-materialize-frame "--coro-persistent-to-gpu=batch=4 shared-memory=64" 2>&1 | FileCheck %s --check-prefix=SMALL

// BATCH: error: coro-persistent-to-gpu: batch must be in [1, 1048576], got 0
// HUGE: error: coro-persistent-to-gpu: batch must be in [1, 1048576], got 768614336404564651
// MEMORY: error: coro-persistent-to-gpu: shared-memory must be in [0, 2^31), got 1099511627776
// WORKGROUP: error: coro-persistent-to-gpu: workgroup-size must be in [1, 2^31), got 0
// LAYOUT: for the --layout option: Cannot find option named 'diagonal'!
// BUDGET: :[[# @LINE + 2]]:1: error: 'coro.split' op needs 24080 bytes of workgroup memory for 2000 persistent-threads slots (tokens, ids, queue), 2 subroutines (counts, runs) and the control words, more than shared-memory=16384; lower the batch
// SMALL: error: 'coro.split' op needs 128 bytes of workgroup memory for 4 persistent-threads slots (tokens, ids, queue), 2 subroutines (counts, runs) and the control words, more than shared-memory=64; lower the batch
coro.func @f(%out: memref<?xf32>) {
  coro.suspend
  coro.return
}

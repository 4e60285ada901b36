// What lavapipe's loop limiter (termination.mlir) does to a persistent
// workgroup that runs every batch of a large grid in one launch, and how
// coro-run copes: with no limit on batches per launch, one workgroup of 64
// threads stops after about 215 batches of 256 instances, and the runtime,
// which counts the loop iterations of each thread and the instances that
// returned, fails with an explanation (the workgroup size and batch are
// given, as a CPU device has other defaults, and the switch: with
// fall-through the steps are fewer and stay within the limit);
// with one batch per launch (lavapipe's default without bounded steps)
// every instance returns and the image matches the mega-kernel; so it does
// with the default, bounded steps (a few launches, each workgroup parking
// its slots between them: persistent-bounded-steps.mlir).
// REQUIRES: lavapipe
// RUN: not coro-run %coro_src/test/e2e/cpu/path-tracer.mlir --coro=trace_paths --grid=100000 --buffer=f32:100000:zeros --arg=8 --scheduler=persistent --persistent-workgroup-size=64 --persistent-batch=256 --persistent-threads=64 --persistent-batches-per-launch=0 --persistent-steps=0 --fall-through=false --quiet 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: coro-run: error: persistent: a thread of the persistent-threads kernel in launch 1 had a loop cut short: the loop may never end (does its condition change, does every instance return?); or it ends later than llvmpipe {{.*}} allows, which ends the loops of a thread after 65535 iterations in all, as if they had finished, so the results cannot be trusted: bound the steps per launch (--persistent-steps), take fewer batches per launch
// Without the loop counters (--termination-checks=false), the count of
// instances that returned still catches it:
// RUN: not coro-run %coro_src/test/e2e/cpu/path-tracer.mlir --coro=trace_paths --grid=100000 --buffer=f32:100000:zeros --arg=8 --scheduler=persistent --persistent-workgroup-size=64 --persistent-batch=256 --persistent-threads=64 --persistent-batches-per-launch=0 --persistent-steps=0 --fall-through=false --termination-checks=false --quiet 2>&1 | FileCheck %s --check-prefix=STOPPED
// STOPPED: coro-run: error: persistent: the persistent-threads kernel started {{[0-9]+}} and finished {{[0-9]+}} of 100000 instances: it stopped early (lavapipe ends the loops of a thread after 65535 iterations in all
// RUN: coro-run %coro_src/test/e2e/cpu/path-tracer.mlir --coro=trace_paths --grid=100000 --buffer=f32:100000:zeros --arg=8 --scheduler=persistent --persistent-workgroup-size=64 --persistent-batch=256 --persistent-threads=64 --persistent-steps=0 --quiet --check --scheduler-stats | FileCheck %s --check-prefix=RELAUNCHED
// RELAUNCHED: persistent: 1 workgroup, 391 launches, {{[0-9]+}} steps, 391 batches
// RELAUNCHED: check: persistent matches the mega-kernel reference
// RUN: coro-run %coro_src/test/e2e/cpu/path-tracer.mlir --coro=trace_paths --grid=100000 --buffer=f32:100000:zeros --arg=8 --scheduler=persistent --persistent-workgroup-size=64 --persistent-batch=256 --persistent-threads=64 --quiet --check --scheduler-stats | FileCheck %s --check-prefix=BOUNDED
// BOUNDED: persistent: 1 workgroup, {{[2-9]|[1-9][0-9]}} launches, {{[0-9]+}} steps, 391 batches
// BOUNDED: check: persistent matches the mega-kernel reference

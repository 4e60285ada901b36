// Termination accounting: every scheduler knows whether its instances
// returned, and none passes lavapipe's loop limit off as a result. lavapipe
// (Mesa 22.3, gallivm) ends the loops of a shader invocation once they have
// run 65535 iterations in all, as if they had finished, and the code after
// them runs on: a loop of 70000 iterations counts to 65535. The kernels of
// the SPIR-V pipeline count their loop iterations (count-loop-iterations)
// and coro-run fails with exit code 5 when a thread reached the limit, or
// when fewer instances returned than started. The count is an estimate
// (lavapipe also counts passes its compiler adds); the other check is that
// a loop whose exit condition said to run on did not: the limit cut it.
// REQUIRES: lavapipe

// A loop of 70000 iterations in one thread, under each scheduler:
// RUN: not coro-run %s --coro=count --grid=1 --arg=70000 --buffer=i32:1:zeros --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not coro-run %s --coro=count --grid=1 --arg=70000 --buffer=i32:1:zeros --scheduler=state-machine 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: coro-run: error: {{megakernel|state-machine}}: an instance{{( in launch 1)?}} had a loop cut short: the loop may never end (does its condition change, does every instance return?); or it ends later than llvmpipe {{.*}} allows, which ends the loops of a thread after 65535 iterations in all, as if they had finished, so the results cannot be trusted (1 of 1 instances returned){{(; --state-machine-steps=N runs at most N passes of an instance.s state machine per launch)?}}; under the wavefront and persistent-threads schedulers
// RUN: not coro-run %s --coro=count --grid=1 --arg=70000 --buffer=i32:1:zeros --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=WAVEFRONT
// WAVEFRONT: coro-run: error: wavefront: a subroutine run had a loop cut short: the loop may never end (does its condition change, does every instance return?); or it ends later than llvmpipe {{.*}} allows, which ends the loops of a thread after 65535 iterations in all
// RUN: not coro-run %s --coro=count --grid=1 --arg=70000 --buffer=i32:1:zeros --scheduler=persistent 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT: coro-run: error: persistent: a thread of the persistent-threads kernel in launch 1 had a loop cut short: the loop may never end (does its condition change, does every instance return?); or it ends later than llvmpipe {{.*}} allows, which ends the loops of a thread after 65535 iterations in all
// RUN: coro-run %s --coro=count --grid=1 --arg=70000 --buffer=i32:1:zeros --scheduler=megakernel 2>/dev/null; test $? -eq 5
// RUN: coro-run %s --coro=count --grid=1 --arg=70000 --buffer=i32:1:zeros --scheduler=wavefront 2>/dev/null; test $? -eq 5

// lavapipe counts every pass through a loop, the last one (which finds the
// loop done) included: 11 passes for a loop of 10 iterations, then 65531
// for one of 65530, is past the limit; so is an outer loop of 30000
// iterations around an inner loop of 1 (30001 + 30000 x 2 passes).
// RUN: not coro-run %s --coro=two_loops --grid=1 --arg=10 --arg=65530 --buffer=i32:1:zeros --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not coro-run %s --coro=two_loops --grid=1 --arg=30000 --arg=1 --buffer=i32:1:zeros --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: coro-run %s --coro=two_loops --grid=1 --arg=10 --arg=65000 --buffer=i32:1:zeros --scheduler=megakernel | FileCheck %s --check-prefix=TWO
// TWO: buffer 0 (i32 x 1): [65010]

// 60000 iterations are within the limit, and counted right:
// RUN: coro-run %s --coro=count --grid=2 --arg=60000 --buffer=i32:2:zeros --scheduler=megakernel | FileCheck %s --check-prefix=FINE
// RUN: coro-run %s --coro=count --grid=2 --arg=60000 --buffer=i32:2:zeros --scheduler=state-machine | FileCheck %s --check-prefix=FINE
// RUN: coro-run %s --coro=count --grid=2 --arg=60000 --buffer=i32:2:zeros --scheduler=wavefront | FileCheck %s --check-prefix=FINE
// RUN: coro-run %s --coro=count --grid=2 --arg=60000 --buffer=i32:2:zeros --scheduler=persistent | FileCheck %s --check-prefix=FINE
// FINE: buffer 0 (i32 x 2): [60000, 60000]

// Split into resumptions, the same 70000 iterations run under the
// schedulers that resume instances in fresh threads, and under the state
// machine in bounded steps per launch:
// RUN: coro-run %s --coro=count_suspending --grid=2 --arg=70000 --buffer=i32:2:zeros --scheduler=wavefront | FileCheck %s --check-prefix=SPLIT
// RUN: coro-run %s --coro=count_suspending --grid=2 --arg=70000 --buffer=i32:2:zeros --scheduler=state-machine --state-machine-steps=8 | FileCheck %s --check-prefix=SPLIT
// By default on lavapipe the state machine runs in bounded steps: an
// instance stops for the launch once its thread made 16384 loop passes.
// DEFAULT-STEPS: state-machine: {{[0-9]+}} launches, {{.*}}bounded steps (16384 per launch)
// SPLIT: buffer 0 (i32 x 2): [70000, 70000]
// In one launch (--state-machine-steps=0) the state machine's thread reaches the limit although it
// counts fewer passes than lavapipe (65269 iterations ran): the cut loop
// gives it away.
// RUN: not coro-run %s --coro=count_suspending --grid=1 --arg=65300 --buffer=i32:1:zeros --scheduler=state-machine --state-machine-steps=0 2>&1 | FileCheck %s --check-prefix=STEPS-HINT
// RUN: coro-run %s --coro=count_suspending --grid=2 --arg=70000 --buffer=i32:2:zeros --scheduler=state-machine --scheduler-stats | FileCheck %s --check-prefixes=SPLIT,DEFAULT-STEPS
// STEPS-HINT: coro-run: error: state-machine: an instance had a loop cut short: the loop may never end {{.*}} llvmpipe {{.*}} (1 of 1 instances returned); --state-machine-steps=N runs at most N passes of an instance's state machine per launch; under the wavefront

// Cut loops that the count alone misses (found by a reviewer): one instance
// resuming 1000 times, then an scf.while of 64500 iterations (lavapipe also
// counts passes of the loops coro-spirv-structurize-while adds, so the
// thread counts fewer than 65535 passes; it returned 62534); and two threads
// of one subgroup, one in an scf.for of 10000 iterations, the other in an
// scf.while of 20000 iterations around an scf.for of 1 (each counts fewer
// than 65535; it returned 18512). The cut scf.while gives both away.
// RUN: not coro-run %s --coro=resume_then_while --grid=1 --arg=1000 --arg=64500 --buffer=i32:1:zeros --scheduler=state-machine 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: not coro-run %s --coro=two_threads --grid=2 --arg=10000 --arg=20000 --arg=1 --buffer=i32:2:zeros --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: not coro-run %s --coro=two_threads --grid=2 --arg=10000 --arg=20000 --arg=1 --buffer=i32:2:zeros --scheduler=state-machine 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: not coro-run %s --coro=two_threads --grid=2 --arg=10000 --arg=20000 --arg=1 --buffer=i32:2:zeros --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: not coro-run %s --coro=two_threads --grid=2 --arg=10000 --arg=20000 --arg=1 --buffer=i32:2:zeros --scheduler=persistent 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: coro-run: error: {{megakernel|state-machine|wavefront|persistent}}: {{an instance|an instance in launch 1|a subroutine run|a thread of the persistent-threads kernel in launch 1}} had a loop cut short: the loop may never end {{.*}} llvmpipe
// In bounded steps (10 launches of 100 resumptions) the state machine
// finishes it; so does the wavefront scheduler:
// RUN: coro-run %s --coro=resume_then_while --grid=1 --arg=1000 --arg=64500 --buffer=i32:1:zeros --scheduler=state-machine --state-machine-steps=100 | FileCheck %s --check-prefix=STEPPED
// RUN: coro-run %s --coro=resume_then_while --grid=1 --arg=1000 --arg=64500 --buffer=i32:1:zeros --scheduler=wavefront | FileCheck %s --check-prefix=STEPPED
// STEPPED: buffer 0 (i32 x 1): [64500]
// A pass count past the limit is no error by itself: a loop of 14000
// iterations around a constant loop of 4, which lavapipe unrolls, counts
// 84001 passes here and runs.
// RUN: coro-run %s --coro=unrolled --grid=1 --arg=14000 --buffer=i32:1:zeros --scheduler=megakernel | FileCheck %s --check-prefix=UNROLLED
// UNROLLED: buffer 0 (i32 x 1): [56000]
// Below the limit, the same programs run:
// RUN: coro-run %s --coro=resume_then_while --grid=1 --arg=1000 --arg=60000 --buffer=i32:1:zeros --scheduler=state-machine | FileCheck %s --check-prefix=UNCUT
// UNCUT: buffer 0 (i32 x 1): [60000]
// RUN: coro-run %s --coro=two_threads --grid=2 --arg=10000 --arg=15000 --arg=1 --buffer=i32:2:zeros --scheduler=megakernel | FileCheck %s --check-prefix=UNCUT2
// UNCUT2: buffer 0 (i32 x 2): [15000, 10000]

// A coroutine that never returns: the one-thread-per-instance schedulers
// reach the loop limit (the mega-kernel's threads do not even get past
// the endless loop: none returns); the wavefront host loop stops at its
// round limit.
// RUN: not coro-run %s --coro=forever --grid=3 --buffer=i32:3:zeros --scheduler=megakernel 2>&1 | FileCheck %s --check-prefix=FOREVER
// RUN: not coro-run %s --coro=forever --grid=3 --buffer=i32:3:zeros --scheduler=state-machine --state-machine-steps=0 2>&1 | FileCheck %s --check-prefix=FOREVER
// RUN: not coro-run %s --coro=forever --grid=3 --buffer=i32:3:zeros --scheduler=state-machine --max-rounds=20 2>&1 | FileCheck %s --check-prefix=SM-ROUNDS
// FOREVER: coro-run: error: {{megakernel|state-machine}}: {{an instance had a loop cut short|only 0 of 3 instances returned: the kernel stopped early}}
// RUN: not coro-run %s --coro=forever --grid=3 --buffer=i32:3:zeros --scheduler=wavefront --max-rounds=100 2>&1 | FileCheck %s --check-prefix=ROUNDS
// ROUNDS: coro-run: error: wavefront: the wavefront scheduler stopped after
// The state machine and the persistent threads in bounded steps (lavapipe's
// default) park and
// are launched again until the launch limit; without the bound, the loop
// limit ends the first launch:
// RUN: not coro-run %s --coro=forever --grid=3 --buffer=i32:3:zeros --scheduler=persistent --max-rounds=20 2>&1 | FileCheck %s --check-prefix=PT-ROUNDS
// SM-ROUNDS: coro-run: error: state-machine: the state-machine scheduler stopped after 20 launches
// PT-ROUNDS: coro-run: error: persistent: the persistent-threads scheduler stopped after 20 launches
// RUN: not coro-run %s --coro=forever --grid=3 --buffer=i32:3:zeros --scheduler=persistent --persistent-steps=0 2>&1 | FileCheck %s --check-prefix=STOPPED
// STOPPED: coro-run: error: persistent: a thread of the persistent-threads kernel in launch 1 had a loop cut short

coro.func @count(%n: i32, %out: memref<?xi32>) {
  %i = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %c1 : i32
    scf.yield %a : i32
  }
  memref.store %r, %out[%i] : memref<?xi32>
  coro.return
}

// Two loops of `first` and `second` iterations: one after the other when
// first < second, else the second nested in the first.
coro.func @two_loops(%first: i32, %second: i32, %out: memref<?xi32>) {
  %i = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %nested = arith.cmpi ult, %first, %second : i32
  %r = scf.if %nested -> (i32) {
    %a = scf.for %k = %c0 to %first step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %b = arith.addi %acc, %c1 : i32
      scf.yield %b : i32
    }
    %s = scf.for %k = %c0 to %second step %c1 iter_args(%acc = %a) -> (i32) : i32 {
      %b = arith.addi %acc, %c1 : i32
      scf.yield %b : i32
    }
    scf.yield %s : i32
  } else {
    %s = scf.for %k = %c0 to %first step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %in = scf.for %j = %c0 to %second step %c1 iter_args(%acc2 = %acc) -> (i32) : i32 {
        %b = arith.addi %acc2, %c1 : i32
        scf.yield %b : i32
      }
      scf.yield %in : i32
    }
    scf.yield %s : i32
  }
  memref.store %r, %out[%i] : memref<?xi32>
  coro.return
}

// Suspends every 1000 iterations.
coro.func @count_suspending(%n: i32, %out: memref<?xi32>) {
  %i = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1000 = arith.constant 1000 : i32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %a = arith.addi %acc, %c1 : i32
    %rem = arith.remui %k, %c1000 : i32
    %boundary = arith.cmpi eq, %rem, %c0 : i32
    scf.if %boundary {
      coro.suspend
    }
    scf.yield %a : i32
  }
  memref.store %r, %out[%i] : memref<?xi32>
  coro.return
}

coro.func @forever(%out: memref<?xi32>) {
  %id = coro.id : index
  %true = arith.constant true
  %one = arith.constant 1 : i32
  scf.while : () -> () {
    scf.condition(%true)
  } do {
    %v = memref.load %out[%id] : memref<?xi32>
    %w = arith.addi %v, %one : i32
    memref.store %w, %out[%id] : memref<?xi32>
    coro.suspend
    scf.yield
  }
  coro.return
}

// %r resumptions, then an scf.while of %n iterations: out[id] = n.
coro.func @resume_then_while(%r: i32, %n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  scf.for %k = %zero to %r step %one : i32 {
    coro.suspend
  }
  %res:2 = scf.while (%j = %zero, %acc = %zero) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi slt, %j, %n : i32
    scf.condition(%more) %j, %acc : i32, i32
  } do {
  ^bb0(%j: i32, %acc: i32):
    %acc2 = arith.addi %acc, %one : i32
    %j2 = arith.addi %j, %one : i32
    scf.yield %j2, %acc2 : i32, i32
  }
  memref.store %res#1, %out[%id] : memref<?xi32>
  coro.return
}

// Instance 1: an scf.for of %p iterations; instance 0: an scf.while of %n
// iterations around an scf.for of %m. out[0] = n * m, out[1] = p.
coro.func @two_threads(%p: i32, %n: i32, %m: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %id, %c0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %fors = arith.select %first, %zero, %p : i32
  %whiles = arith.select %first, %n, %zero : i32
  %a = scf.for %k = %zero to %fors step %one iter_args(%acc = %zero) -> (i32) : i32 {
    %b = arith.addi %acc, %one : i32
    scf.yield %b : i32
  }
  %r:2 = scf.while (%j = %zero, %acc = %a) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi slt, %j, %whiles : i32
    scf.condition(%more) %j, %acc : i32, i32
  } do {
  ^bb0(%j: i32, %acc: i32):
    %in = scf.for %k = %zero to %m step %one iter_args(%x = %acc) -> (i32) : i32 {
      %y = arith.addi %x, %one : i32
      scf.yield %y : i32
    }
    %j2 = arith.addi %j, %one : i32
    scf.yield %j2, %in : i32, i32
  }
  memref.store %r#1, %out[%id] : memref<?xi32>
  coro.return
}

// %n iterations around a constant loop of 4: out[id] = 4 n.
coro.func @unrolled(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %four = arith.constant 4 : i32
  %r = scf.for %k = %zero to %n step %one iter_args(%acc = %zero) -> (i32) : i32 {
    %in = scf.for %j = %zero to %four step %one iter_args(%x = %acc) -> (i32) : i32 {
      %y = arith.addi %x, %one : i32
      scf.yield %y : i32
    }
    scf.yield %in : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

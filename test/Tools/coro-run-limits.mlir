// The host loops of the wavefront, persistent-threads and bounded-steps
// state-machine schedulers stop at a limit, with exit code 5 and an error
// that says where the run stood, instead of spinning until killed.
// REQUIRES: vulkan
// RUN: not coro-run %s --coro=forever --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --max-rounds=40 2>&1 | FileCheck %s --check-prefix=ROUNDS
// ROUNDS: coro-run: error: wavefront: the wavefront scheduler stopped after {{4[0-9]}} rounds ({{4[0-9]}} rounds, 4 of 4 instances started, 4 alive), its limit: does every instance return? (--time-limit=S sets the limit of seconds (default 300, 0: none), --max-rounds=N that of rounds or launches (default 2^20))
// RUN: coro-run %s --coro=forever --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --max-rounds=40 2>/dev/null; test $? -eq 5
// RUN: not coro-run %s --coro=forever --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --max-rounds=0 --time-limit=0.5 2>&1 | FileCheck %s --check-prefix=SECONDS
// SECONDS: coro-run: error: wavefront: the wavefront scheduler stopped after {{[0-9]+}} seconds ({{[0-9]+}} rounds, 4 of 4 instances started, 4 alive)
// RUN: not coro-run %s --coro=forever --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=5 --max-rounds=30 2>&1 | FileCheck %s --check-prefix=LAUNCHES
// LAUNCHES: coro-run: error: state-machine: the state-machine scheduler stopped after 30 launches (30 launches, 4 of 4 instances started, 4 alive), its limit: does every instance return? (--time-limit=S sets the limit of seconds (default 300, 0: none), --max-rounds=N that of rounds or launches (default 2^20))
// RUN: not coro-run %s --coro=forever --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=5 --max-rounds=0 --time-limit=0.5 2>&1 | FileCheck %s --check-prefix=SM-SECONDS
// SM-SECONDS: coro-run: error: state-machine: the state-machine scheduler stopped after {{[0-9]+}} seconds ({{[0-9]+}} launches, 4 of 4 instances started, 4 alive)
// Without bounded steps the persistent-threads kernel runs until
// lavapipe's loop limit ends its threads; in bounded steps (lavapipe's
// default) it parks and is launched again, until --max-rounds launches:
// RUN: coro-run %s --coro=forever --grid=4 --buffer=i32:4:zeros --scheduler=persistent --persistent-steps=0 2>/dev/null; test $? -eq 5
// RUN: not coro-run %s --coro=forever --grid=4 --buffer=i32:4:zeros --scheduler=persistent --max-rounds=6 2>&1 | FileCheck %s --check-prefix=PT-LAUNCHES
// PT-LAUNCHES: coro-run: error: persistent: the persistent-threads scheduler stopped after 6 launches
// A finite run within the limits is not affected:
// RUN: coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --max-rounds=16 | FileCheck %s --check-prefix=STEPS
// RUN: coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=persistent --max-rounds=1 --time-limit=60 | FileCheck %s --check-prefix=STEPS
// RUN: coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 --max-rounds=4 | FileCheck %s --check-prefix=STEPS
// STEPS: buffer 0 (i32 x 4): [3, 3, 3, 3]
// One subroutine per launch takes 4 launches (entry, two resumptions, the
// return); a limit of 3 stops it:
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 --max-rounds=3 --fall-through=false 2>&1 | FileCheck %s --check-prefix=THREE
// With fall-through (coro-run's default on lavapipe) the entry goes on to
// the first resumption in the same pass (a later token); the resumptions
// come back to their own token, a pass each: 3 launches.
// RUN: coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 --max-rounds=3 --fall-through | FileCheck %s --check-prefix=STEPS
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=1 --max-rounds=2 --fall-through 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: coro-run: error: state-machine: the state-machine scheduler stopped after 2 launches (2 launches, 4 of 4 instances started, 4 alive)
// THREE: coro-run: error: state-machine: the state-machine scheduler stopped after 3 launches (3 launches, 4 of 4 instances started, 4 alive)
// Limits of a host loop mean nothing to a single launch:
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=megakernel --max-rounds=3 2>&1 | FileCheck %s --check-prefix=SINGLE
// SINGLE: coro-run: error: --max-rounds is an option of the wavefront and persistent schedulers and of the state machine in bounded steps (--state-machine-steps=N, the default on a device that limits loops); --scheduler=megakernel does not use it
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=0 --time-limit=3 2>&1 | FileCheck %s --check-prefix=SINGLE-SM
// SINGLE-SM: coro-run: error: --time-limit is an option of the wavefront and persistent schedulers and of the state machine in bounded steps (--state-machine-steps=N, the default on a device that limits loops); --scheduler=state-machine does not use it
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --state-machine-steps=3 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: coro-run: error: --state-machine-steps is an option of the state-machine scheduler; --scheduler=wavefront does not use it
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=3 --termination-checks=false 2>&1 | FileCheck %s --check-prefix=NO-STATUS
// NO-STATUS: coro-run: error: --state-machine-steps needs --termination-checks: the host relaunches until every instance returned
// RUN: coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=3 --termination-checks=false 2>/dev/null; test $? -eq 2
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=4294967295 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=state-machine --state-machine-steps=-1 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: coro-run: error: --state-machine-steps must be in [0, 2^31)
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --time-limit=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: coro-run: error: --time-limit must not be negative (or NaN)
// A workgroup larger than the device allows is an input error before any
// launch, with or without --validate:
// RUN: not coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --wavefront-workgroup-size=2048 2>&1 | FileCheck %s --check-prefix=WORKGROUP
// WORKGROUP: coro-run: error: wavefront: the wavefront kernels of 'steps' have 2048 threads per workgroup; {{.*}} has at most {{[0-9]+}} (lower --wavefront-workgroup-size)
// RUN: coro-run %s --coro=steps --grid=4 --buffer=i32:4:zeros --scheduler=wavefront --wavefront-workgroup-size=2048 2>/dev/null; test $? -eq 2

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

coro.func @steps(%out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %out[%id] : memref<?xi32>
    %w = arith.addi %v, %one : i32
    memref.store %w, %out[%id] : memref<?xi32>
    coro.suspend
  }
  coro.return
}

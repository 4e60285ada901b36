// The wavefront's tail kernel (--wavefront-tail-below=P): once the grid is
// exhausted and fewer than P % of the slots are alive, a round runs the
// tail kernel instead of one kernel per subroutine, and its threads take
// their instances through their subroutines to the end (as the state
// machine does), in one launch instead of many near-empty rounds.
// REQUIRES: vulkan
//
// Instance i resumes i % 100 times and sums 0 .. i % 100 - 1, so the alive
// instances fall by about 1 % a round: 100 rounds without a tail; with one
// from under 20 % alive, 79 rounds and a tail round that finishes the 127
// left. The statistics count the subroutines the tail ran.
// RUN: coro-run %s --coro=k --grid=640 --arg=100 --buffer=i32:640:zeros --scheduler=wavefront --check --validate --scheduler-stats | FileCheck %s --check-prefix=NONE
// NONE: wavefront: 640 slots, 100 rounds, 100 subroutine launches
// NONE: wavefront: instances per subroutine: entry:640 step:30480
// NONE-NOT: __wf_tail
// NONE: check: wavefront matches the mega-kernel reference
// RUN: coro-run %s --coro=k --grid=640 --arg=100 --buffer=i32:640:zeros --scheduler=wavefront --wavefront-tail-below=20 --check --validate --scheduler-stats | FileCheck %s --check-prefix=TAIL
// TAIL: wavefront: 640 slots, 80 rounds, 80 subroutine launches
// TAIL: wavefront: instances per subroutine: entry:640 step:30480
// TAIL: wavefront: GPU time per kernel: k__wf_init {{[0-9.]+}} ms; k__wf_advance {{[0-9.]+}} ms; k__wf_0 {{[0-9.]+}} ms; k__wf_1 {{[0-9.]+}} ms; k__wf_tail {{[0-9.]+}} ms;
// TAIL: buffer 0 (i32 x 640): [0, 0, 1, 3, 6, 10, 15,
// TAIL: check: wavefront matches the mega-kernel reference
//
// Every round after the first a tail round (the grid fits in a fifth of the
// slots), also with grid-stride kernels, as CUDA runs them, and per-slot
// appends:
// RUN: coro-run %s --coro=k --grid=640 --arg=100 --buffer=i32:640:zeros --scheduler=wavefront --capacity=3200 --wavefront-tail-below=100 --check --validate --scheduler-stats | FileCheck %s --check-prefix=ALL
// RUN: coro-run %s --coro=k --grid=640 --arg=100 --buffer=i32:640:zeros --scheduler=wavefront --capacity=3200 --wavefront-tail-below=100 --wavefront-grid-stride --wavefront-subgroup-appends=false --check --validate --scheduler-stats | FileCheck %s --check-prefix=ALL
// ALL: wavefront: 3200 slots, 2 rounds, 2 subroutine launches
// ALL: wavefront: instances per subroutine: entry:640 step:30480
// ALL: check: wavefront matches the mega-kernel reference
//
// A tail launch runs an instance for at most 1024 subroutines: 3000
// resumptions (of 4 loop passes each) take three tail rounds after the
// entry's.
// RUN: coro-run %s --coro=inner --grid=64 --arg=3000 --arg=4 --buffer=i32:64:zeros --scheduler=wavefront --capacity=128 --wavefront-tail-below=100 --check --scheduler-stats | FileCheck %s --check-prefix=LONG
// LONG: wavefront: 128 slots, 4 rounds, 4 subroutine launches
// LONG: wavefront: instances per subroutine: entry:64 step:192000
// LONG: buffer 0 (i32 x 64): [18000, 18000,
// LONG: check: wavefront matches the mega-kernel reference
//
// Long loops inside a subroutine: on a device that ends a thread's loops
// after 65535 passes in all (lavapipe), a tail thread stops stepping once
// it made 16384 loop passes and its instance goes on in the next round.
// Each instance resumes 40 times and runs 1000 loop passes after each,
// summing 40 x (1000 / 4) x (0 + 1 + 2 + 3) = 60000.
// RUN: coro-run %s --coro=inner --grid=64 --arg=40 --arg=1000 --buffer=i32:64:zeros --scheduler=wavefront --capacity=128 --wavefront-tail-below=100 --check --scheduler-stats | FileCheck %s --check-prefix=INNER
// INNER: wavefront: 128 slots, {{[3-9]}} rounds
// INNER: buffer 0 (i32 x 64): [60000, 60000,
// INNER: check: wavefront matches the mega-kernel reference
//
// The lane profile gives the tail kernel's share of the GPU time on a row
// of its own; the subroutines it ran count in their rows.
// RUN: coro-run %s --coro=k --grid=640 --arg=100 --buffer=i32:640:zeros --scheduler=wavefront --wavefront-tail-below=20 --profile-lanes --quiet | FileCheck %s --check-prefix=PROFILE
// PROFILE: step {{.*}} 30480
// PROFILE-NEXT: tail kernel {{ *[0-9.]+}} %   (the subroutines it ran are counted above)
// PROFILE-NEXT: scheduling
//
// The classify design has no tail kernel:
// RUN: not coro-run %s --coro=k --grid=640 --arg=100 --buffer=i32:640:zeros --scheduler=wavefront --wavefront-tail-below=20 --compact-below=50 2>&1 | FileCheck %s --check-prefix=CLASSIFY
// CLASSIFY: error: coro-wavefront-to-gpu: tail-below needs the queue design

coro.func @k(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %id32 = arith.index_cast %id : index to i32
  %count = arith.remui %id32, %n : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    coro.suspend "step"
    %a = arith.addi %acc, %i : i32
    scf.yield %a : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @inner(%n: i32, %m: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    coro.suspend "step"
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%a = %acc) -> (i32) : i32 {
      %low = arith.andi %j, %c3 : i32
      %b = arith.addi %a, %low : i32
      scf.yield %b : i32
    }
    scf.yield %s : i32
  }
  memref.store %r, %out[%id] : memref<?xi32>
  coro.return
}


// coro-run --scheduler=wavefront: statistics, JSON, bad options, and a
// --check that fails.
// REQUIRES: vulkan
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --validate --scheduler-stats | FileCheck %s
// The classify design: its own scheduling kernels, the same results.
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --wavefront-design=classify --validate --scheduler-stats | FileCheck %s --check-prefix=CLASSIFY
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --json | FileCheck %s --check-prefix=JSON
// Each submission's rounds recorded once and launched again (the command
// buffer submitted again): the same results and rounds, each submission
// timed whole.
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --rounds-per-check=1 --replay-rounds --validate --scheduler-stats | FileCheck %s --check-prefix=REPLAY
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --rounds-per-check=3 --replay-rounds --json --quiet | FileCheck %s --check-prefix=REPLAY-JSON
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=persistent --replay-rounds 2>&1 | FileCheck %s --check-prefix=REPLAY-PERSISTENT
// With --quiet the JSON leaves the buffers out:
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --json --quiet | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: "buffers"
// QUIET: "scheduler": "wavefront",
// QUIET-NOT: "buffers"
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --check 2>&1 | FileCheck %s --check-prefix=DIFFERS
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --check >/dev/null 2>&1; test $? -eq 1
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --refill=sometimes 2>&1 | FileCheck %s --check-prefix=REFILL
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --compact-below=101 2>&1 | FileCheck %s --check-prefix=PERCENT
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --capacity=100000000 2>&1 | FileCheck %s --check-prefix=CAPACITY
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --sort-by=nothing 2>&1 | FileCheck %s --check-prefix=SORT
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --wavefront-design=fast 2>&1 | FileCheck %s --check-prefix=DESIGN
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --wavefront-design=queues --compact-below=50 2>&1 | FileCheck %s --check-prefix=QUEUES
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --wavefront-stride-workgroups=3 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: not coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:100000000000:zeros --buffer=i32:1:zeros 2>&1 | FileCheck %s --check-prefix=MEMORY

// Instance i waits 7 - i rounds before taking a ticket, so under the
// wavefront scheduler exactly one instance takes one per round: the tickets
// come out reversed, whatever order the GPU runs threads in.
// CHECK: wavefront: 8 slots, 8 rounds, 8 subroutine launches, 2 submissions, 0 compactions
// CHECK-NEXT: wavefront: instances per subroutine: entry:8 wait:28
// CHECK-NEXT: wavefront: GPU time {{[0-9.]+}} ms: scheduling {{[0-9.]+}} ms ({{[0-9.]+}}%), subroutines {{[0-9.]+}} ms ({{[0-9.]+}}%)
// CHECK-NEXT: wavefront: GPU time per kernel: tickets__wf_init {{[0-9.]+}} ms; tickets__wf_advance {{[0-9.]+}} ms; tickets__wf_0 {{[0-9.]+}} ms; tickets__wf_1 {{[0-9.]+}} ms;
// 8 slots of 4 words in aosoa tiles of 32 slots:
// CHECK-NEXT: wavefront: frame buffer: aosoa, 512 bytes
// CHECK-NEXT: buffer 0 (i32 x 8): [7, 6, 5, 4, 3, 2, 1, 0]
// CHECK-NEXT: buffer 1 (i32 x 1): [8]
// CLASSIFY: wavefront: 8 slots, 8 rounds, 8 subroutine launches, 2 submissions, 0 compactions
// CLASSIFY-NEXT: wavefront: instances per subroutine: entry:8 wait:28
// CLASSIFY-NEXT: wavefront: GPU time
// CLASSIFY-NEXT: wavefront: GPU time per kernel: tickets__wf_init {{[0-9.]+}} ms; tickets__wf_classify {{[0-9.]+}} ms; tickets__wf_scan {{[0-9.]+}} ms; tickets__wf_scatter {{[0-9.]+}} ms; tickets__wf_0 {{[0-9.]+}} ms; tickets__wf_1 {{[0-9.]+}} ms;
// CLASSIFY-NEXT: wavefront: frame buffer: aosoa, 512 bytes
// CLASSIFY-NEXT: buffer 0 (i32 x 8): [7, 6, 5, 4, 3, 2, 1, 0]

// REPLAY: wavefront: 8 slots, 8 rounds, 8 subroutine launches, 9 submissions, 0 compactions
// REPLAY-NEXT: wavefront: instances per subroutine: entry:8 wait:28
// REPLAY-NEXT: wavefront: GPU time {{[0-9.]+}} ms, each submission timed whole (the first with the init kernel, then one recording of the rounds launched 8 times; no time per kernel)
// REPLAY-NEXT: wavefront: frame buffer: aosoa, 512 bytes
// REPLAY-NEXT: buffer 0 (i32 x 8): [7, 6, 5, 4, 3, 2, 1, 0]
// REPLAY-NEXT: buffer 1 (i32 x 1): [8]

// REPLAY-JSON: "kernel_gpu_ms": {},
// REPLAY-JSON-NEXT: "launches": 8,
// REPLAY-JSON-NEXT: "recorded": true,
// REPLAY-JSON-NEXT: "recorded_gpu_ms": {{[0-9.e+-]+}},
// REPLAY-JSON-NEXT: "replays": 2,
// REPLAY-JSON-NEXT: "rounds": 8,
// REPLAY-JSON: "submissions": 3,

// REPLAY-PERSISTENT: coro-run: error: --replay-rounds is an option of the wavefront scheduler; --scheduler=persistent does not use it

// JSON: "scheduler": "wavefront",
// JSON: "wavefront": {
// JSON-NEXT: "capacity": 8,
// JSON-NEXT: "compactions": 0,
// JSON-NEXT: "frame_buffer_bytes": 512,
// JSON-NEXT: "frame_layout": "aosoa",
// JSON-NEXT: "instances_per_subroutine": [
// JSON-NEXT: 8,
// JSON-NEXT: 28
// JSON-NEXT: ],
// JSON-NEXT: "kernel_gpu_ms": {
// JSON-NEXT: "tickets__wf_0": {{[0-9.e+-]+}},
// JSON: "launches": 8,
// JSON-NEXT: "recorded": false,
// JSON-NEXT: "recorded_gpu_ms": 0,
// JSON-NEXT: "replays": 0,
// JSON-NEXT: "rounds": 8,
// JSON-NEXT: "scheduling_gpu_ms": {{[0-9.e+-]+}},
// JSON-NEXT: "submissions": 2,
// JSON-NEXT: "subroutine_gpu_ms": {{[0-9.e+-]+}},
// JSON-NEXT: "subroutines": [
// JSON-NEXT: "entry",
// JSON-NEXT: "wait"
// JSON-NEXT: ]

// The program depends on the order in which instances finish, which the
// mega-kernel does not fix: --check catches it.
// DIFFERS: coro-run: mismatch in buffer 0 at
// DIFFERS: coro-run: --check FAILED: wavefront differs from the mega-kernel reference

// REFILL: for the --refill option: 'sometimes' is not one of always, half{{$}}
// PERCENT: coro-run: error: wavefront: the compaction threshold is a percentage, got 101
// CAPACITY: coro-run: error: wavefront: a wavefront capacity of 100000000 needs 1562500 workgroups, more than 65535; lower it
// SORT: coro-run: error: --sort-by: @tickets has no integer promise named "nothing" (it has none)
// DESIGN: coro-run: for the --wavefront-design option: Cannot find option named 'fast'!
// QUEUES: coro-run: error: wavefront: compaction, the most-first order and the half-empty refill need the classify wavefront design; 'tickets' was compiled with the queue design (coro-run --wavefront-design=classify)
// STRIDE: coro-run: error: --wavefront-stride-workgroups sizes grid-stride kernels: add --wavefront-grid-stride (CUDA kernels always stride)
// MEMORY: coro-run: error: out of memory: buffer 'i32:100000000000:zeros' needs 400000000000 bytes, this machine has
coro.func @tickets(%n: index, %out: memref<?xi32>, %counter: memref<1xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rest = arith.subi %n, %id : index
  %waits = arith.subi %rest, %c1 : index
  scf.for %k = %c0 to %waits step %c1 {
    coro.suspend "wait"
  }
  %one = arith.constant 1 : i32
  %ticket = memref.atomic_rmw addi %one, %counter[%c0] : (i32, memref<1xi32>) -> i32
  memref.store %ticket, %out[%id] : memref<?xi32>
  coro.return
}

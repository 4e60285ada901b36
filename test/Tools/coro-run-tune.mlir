// coro-run --tune runs the coroutine under every scheduler and its main
// options, each in a coro-run of its own with --check against the
// mega-kernel, and ranks them by median GPU time.
// REQUIRES: vulkan
// RUN: coro-run %s --coro=scaled_sum --grid=70 --arg=3 --buffer=i32:70:iota --buffer=i32:70:zeros --tune --tune-repeat=2 --tune-json=%t.json 2>%t.err | FileCheck %s
// CHECK:      tune: median GPU time of 2 runs per configuration on {{.+}}; every scheduler's results checked against the mega-kernel's
// CHECK-NEXT: rank  configuration GPU ms vs mega-kernel
// CHECK-DAG:  {{^ *[0-9]+}} megakernel {{[0-9.]+}} 1.00x
// CHECK-DAG:  {{^ *[0-9]+}} state-machine {{[0-9.]+}} {{[0-9.]+}}x
// CHECK-DAG:  {{^ *[0-9]+}} state-machine --state-machine-steps=64 {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront --wavefront-design=classify {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront --layout=soa {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront --layout=aos {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront --compact-below=50 {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront --wavefront-tail-below=10 {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront --sort-by=bucket {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} wavefront --sort-by=bucket --wavefront-design=classify {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} persistent {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} persistent --layout=aosoa {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} persistent --persistent-workgroup-size=64 --persistent-batch=256 {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} persistent --persistent-batch=64 {{[0-9.]+}}
// CHECK-DAG:  {{^ *[0-9]+}} persistent --persistent-shared-memory=4096 {{[0-9.]+}}
// CHECK-NOT:  failed
// A line per configuration on stderr when it is not a terminal:
// RUN: FileCheck %s --check-prefix=PROGRESS < %t.err
// PROGRESS: tune: 1/21 megakernel
// PROGRESS: tune: 21/21 persistent --persistent-shared-memory=4096
// The same ranking as JSON, with the ratios to the mega-kernel:
// RUN: %python -c "import json, sys; r = json.load(open(sys.argv[1])); rows = r['results']; print(len(rows), sorted(x['rank'] for x in rows) == list(range(1, len(rows) + 1)), all(x['exit_code'] == 0 for x in rows), [x['vs_megakernel'] for x in rows if x['scheduler'] == 'megakernel'], all(x['checked'] for x in rows if x['scheduler'] != 'megakernel'))" %t.json | FileCheck %s --check-prefix=JSON
// JSON: 21 True True {{\[1(\.0)?\]}} True
// --tune picks the scheduler and its options itself:
// RUN: not coro-run %s --coro=scaled_sum --grid=70 --arg=3 --buffer=i32:70:iota --buffer=i32:70:zeros --tune --compact-below=50 2>&1 | FileCheck %s --check-prefix=CONFLICT
// CONFLICT: coro-run: error: --compact-below cannot be combined with --tune, which runs every scheduler with its own options and checks each against the mega-kernel
// RUN: not coro-run %s --coro=scaled_sum --grid=70 --arg=3 --buffer=i32:70:iota --buffer=i32:70:zeros --tune --scheduler=wavefront 2>&1 | FileCheck %s --check-prefix=SCHEDULER
// SCHEDULER: coro-run: error: --scheduler cannot be combined with --tune
// Each configuration reads the input again: it must be a file.
// RUN: cat %s | not coro-run - --coro=scaled_sum --grid=70 --arg=3 --buffer=i32:70:iota --buffer=i32:70:zeros --tune 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: coro-run: error: --tune needs the input in a file (each configuration runs in a coro-run of its own, and reads it again)
// A JSON file that cannot be written is an error before any run:
// RUN: not coro-run %s --coro=scaled_sum --grid=70 --arg=3 --buffer=i32:70:iota --buffer=i32:70:zeros --tune --tune-json=%t.missing/tune.json 2>&1 | FileCheck %s --check-prefix=JSONPATH
// JSONPATH: coro-run: error: --tune-json: {{.*}}tune.json: No such file or directory
// JSONPATH-NOT: tune: 1/
// Without the mega-kernel there is nothing to check against: --tune stops
// there, with its exit code (2: a bad argument).
// RUN: not coro-run %s --coro=scaled_sum --grid=70 --arg=three --buffer=i32:70:iota --buffer=i32:70:zeros --tune 2>&1 | FileCheck %s --check-prefix=BASELINE
// BASELINE: tune: 1/21 megakernel
// BASELINE-NEXT: coro-run: error: --tune: the mega-kernel rejected the command line (exit 2): coro-run: error: argument #0 is i32, but 'three' is not a value of that type
// BASELINE-NOT: tune: 2/
// RUN: coro-run %s --coro=scaled_sum --grid=70 --arg=three --buffer=i32:70:iota --buffer=i32:70:zeros --tune 2>/dev/null; test $? -eq 2
// The options of the host loops go to the configurations they belong to (a
// flag such as --replay-rounds takes no value from the next argument):
// RUN: coro-run %s --coro=scaled_sum --grid=70 --arg=3 --buffer=i32:70:iota --buffer=i32:70:zeros --tune --tune-repeat=1 --replay-rounds --capacity=16 --persistent-threads 64 --max-rounds=100000 2>/dev/null | FileCheck %s --check-prefix=HOSTLOOP
// HOSTLOOP:      tune: every wavefront configuration with --replay-rounds --capacity=16
// HOSTLOOP-NEXT: tune: every persistent configuration with --persistent-threads=64
// HOSTLOOP-NEXT: tune: every configuration with a host loop with --max-rounds=100000
// HOSTLOOP-NOT:  failed
// Response files are expanded for the configurations:
// RUN: echo "--tune-repeat=1 --quiet" > %t.rsp
// RUN: coro-run %s --coro=scaled_sum --grid=70 --arg=3 --buffer=i32:70:iota --buffer=i32:70:zeros --tune @%t.rsp 2>/dev/null | FileCheck %s --check-prefix=RSP
// RSP: tune: median GPU time of 1 runs per configuration
// RSP-NOT: failed

// out[i] = k * in[i] + (the number of odd values below in[i]), with a
// suspension per loop trip and an integer promise (a --sort-by key).
coro.func @scaled_sum(%k: i32, %in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %x = memref.load %in[%id] : memref<?xi32>
  %bucket = arith.andi %x, %c3 : i32
  coro.promise "bucket", %bucket : i32
  %scaled = arith.muli %x, %k : i32
  %sum = scf.for %i = %c0 to %x step %c1 iter_args(%acc = %scaled) -> (i32) : i32 {
    coro.suspend "trip"
    %odd = arith.andi %i, %c1 : i32
    %next = arith.addi %acc, %odd : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[%id] : memref<?xi32>
  coro.return
}

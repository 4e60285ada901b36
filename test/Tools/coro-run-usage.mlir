// What a new user gets wrong in the first hour is a clear usage error (exit
// code 2) before anything compiles or runs, with a suggestion where one
// name is near; nothing runs silently on a grid nobody asked for.
//
// --grid is required, as X, XxY or XxYxZ (or X,Y,Z):
// RUN: not coro-run %s --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=NOGRID
// RUN: coro-run %s --buffer=f32:4:zeros 2>/dev/null; test $? -eq 2
// NOGRID: coro-run: error: --grid is required: the instances to run, one per element, e.g. --grid=64 or --grid=64x64 (a 64x64 image)
// RUN: not coro-run %s --grid=4xq --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=BADGRID
// BADGRID: coro-run: error: --grid: 'q' is not a positive integer (the grid is X, XxY or XxYxZ)
//
// The module's only coroutine that no other one uses runs without --coro
// (@lookup is awaited by @fill); --coro takes the name with or without
// its '@', and a misspelt one gets the nearest:
// RUN: coro-run %s --grid=2x2 --buffer=f32:4:zeros --scheduler=wavefront | FileCheck %s --check-prefix=ONLY
// RUN: coro-run %s --coro=@fill --grid=2x2 --buffer=f32:4:zeros | FileCheck %s --check-prefix=ONLY
// ONLY: buffer 0 (f32 x 4): [0, 1, 2, 3]
// RUN: not coro-run %s --coro=fil --grid=4 --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=NEAR
// NEAR: coro-run: error: no coro.func @fil in {{.*}}coro-run-usage.mlir; did you mean 'fill'? (--list describes them)
//
// Enum values list the choices and suggest the nearest:
// RUN: not coro-run %s --grid=4 --buffer=f32:4:zeros --scheduler=wavefrnt 2>&1 | FileCheck %s --check-prefix=ENUM
// ENUM: coro-run: for the --scheduler option: 'wavefrnt' is not one of megakernel, state-machine, wavefront, persistent; did you mean 'wavefront'?
//
// Scheduler option values are checked by the command line, not by a pass:
// RUN: not coro-run %s --grid=4 --buffer=f32:4:zeros --scheduler=persistent --persistent-batch=0 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: coro-run: error: --persistent-batch must be in [1, 2^20], got 0
// RUN: not coro-run %s --grid=4 --buffer=f32:4:zeros --scheduler=wavefront --sort-by=materal 2>&1 | FileCheck %s --check-prefix=SORTKEY
// SORTKEY: coro-run: error: --sort-by: @fill has no integer promise named "materal"; did you mean 'material'? (integer promises: material)
// RUN: not coro-run %s --grid=4 --buffer=f32:4:zeros --scheduler=wavefront --sort-by=weight 2>&1 | FileCheck %s --check-prefix=SORTTYPE
// SORTTYPE: coro-run: error: --sort-by: promise "weight" holds f32; the queues sort by an integer or index promise
// RUN: coro-run %s --grid=4 --buffer=f32:4:zeros --scheduler=wavefront --sort-by=materal 2>/dev/null; test $? -eq 2
// A key that only another coroutine of the module has sorts nothing:
// RUN: coro-run %s --coro=lookup --grid=4 --scheduler=wavefront --sort-by=material 2>&1 | FileCheck %s --check-prefix=OTHERS
// OTHERS: coro-run: warning: --sort-by: @lookup and the coroutines it uses have no promise "material" (another coroutine of the module has it): its queues stay unsorted
//
// A grid larger than a buffer the coroutine indexes by its instance id is
// an error at the access (every instance past the end would write out of
// bounds); --check-bounds checks at run time instead:
// RUN: not coro-run %s --grid=1000000000 --buffer=f32:8:zeros 2>&1 | FileCheck %s --check-prefix=TOOBIG
// RUN: coro-run %s --grid=1000000000 --buffer=f32:8:zeros 2>/dev/null; test $? -eq 2
// TOOBIG: coro-run-usage.mlir:[[@LINE+50]]:3: error: --grid=1000000000 runs 1000000000 instances, but this access indexes argument #0 by the instance id and its buffer holds 8 elements: instances 8 and above would access it out of bounds (give a buffer of at least 1000000000 elements or a smaller grid)
// The same where the coroutine is written with cf branches (as front ends
// write it): the access after the loop runs in every instance.
// RUN: echo 'coro.func @after_loop(%%out: memref<?xf32>) { %%id = coro.id : index  %%c0 = arith.constant 0 : index  %%c1 = arith.constant 1 : index  cf.br ^loop(%%c0 : index)  ^loop(%%k: index):  %%more = arith.cmpi ult, %%k, %%id : index  cf.cond_br %%more, ^body, ^done  ^body:  coro.suspend "step"  %%next = arith.addi %%k, %%c1 : index  cf.br ^loop(%%next : index)  ^done:  %%one = arith.constant 1.0 : f32  memref.store %%one, %%out[%%id] : memref<?xf32>  coro.return }' > %t.cfg.mlir
// RUN: not coro-run %t.cfg.mlir --grid=16 --buffer=f32:8:zeros 2>&1 | FileCheck %s --check-prefix=CFG
// CFG: cfg.mlir:1:{{[0-9]+}}: error: --grid=16 runs 16 instances, but this access indexes argument #0 by the instance id and its buffer holds 8 elements
// An access under a guard is correct with a smaller buffer: no error.
// RUN: echo 'coro.func @guarded(%%out: memref<?xf32>, %%n: index) { %%id = coro.id : index  %%in = arith.cmpi ult, %%id, %%n : index  scf.if %%in { %%one = arith.constant 1.0 : f32  memref.store %%one, %%out[%%id] : memref<?xf32> }  coro.return }' > %t.guarded.mlir
// RUN: coro-run %t.guarded.mlir --grid=64 --arg=4 --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=GUARDED
// GUARDED-NOT: error
// GUARDED-NOT: warning
// GUARDED: buffer 0 (f32 x 4): [1, 1, 1, 1]
// Nor is a loop whose trip count comes from the id, nor an access by one
// component of a 2-D id (it ranges over one extent):
// RUN: echo 'coro.func @tripped(%%out: memref<?xi32>, %%n: index) { %%id = coro.id : index  %%c0 = arith.constant 0 : index  %%c1 = arith.constant 1 : index  %%in = arith.cmpi ult, %%id, %%n : index  %%trip = arith.select %%in, %%c1, %%c0 : index  scf.for %%k = %%c0 to %%trip step %%c1 { %%v = arith.index_cast %%id : index to i32  memref.store %%v, %%out[%%id] : memref<?xi32> }  coro.return }' > %t.tripped.mlir
// RUN: coro-run %t.tripped.mlir --grid=8 --arg=4 --buffer=i32:4:zeros 2>&1 | FileCheck %s --check-prefix=TRIPPED
// TRIPPED: buffer 0 (i32 x 4): [0, 1, 2, 3]
// RUN: echo 'coro.func @column(%%w: memref<?xf32>, %%out: memref<?xf32>) { %%x = coro.id 0 : index  %%id = coro.id : index  %%v = memref.load %%w[%%x] : memref<?xf32>  memref.store %%v, %%out[%%id] : memref<?xf32>  coro.return }' > %t.column.mlir
// RUN: coro-run %t.column.mlir --grid=4x2 --buffer=f32:4:iota --buffer=f32:8:zeros 2>&1 | FileCheck %s --check-prefix=COLUMN
// COLUMN: buffer 1 (f32 x 8): [0, 1, 2, 3, 0, 1, 2, 3]
// A buffer written at indices computed from the id is left to
// --check-bounds, with a warning when it is smaller than the grid:
// RUN: echo 'coro.func @rgb(%%out: memref<?xf32>) { %%id = coro.id : index  %%c3 = arith.constant 3 : index  %%i = arith.muli %%id, %%c3 : index  %%one = arith.constant 1.0 : f32  memref.store %%one, %%out[%%i] : memref<?xf32>  coro.return }' > %t.rgb.mlir
// RUN: coro-run %t.rgb.mlir --grid=8 --buffer=f32:6:zeros 2>&1 | FileCheck %s --check-prefix=DERIVED
// DERIVED: coro-run: warning: @rgb writes argument #0 at indices computed from the instance id, and its buffer holds 6 elements, fewer than the 8 instances: --check-bounds checks every access
//
// --scheduler-stats serves every scheduler, so that one command line can
// loop over them:
// RUN: coro-run %s --grid=4 --buffer=f32:4:zeros --scheduler=megakernel --scheduler-stats --quiet | FileCheck %s --check-prefix=MEGA
// MEGA: megakernel: 1 launch, workgroups of {{[0-9]+}} threads
// RUN: coro-run %s --grid=4 --buffer=f32:4:zeros --scheduler=state-machine --state-machine-steps=1 --scheduler-stats --quiet | FileCheck %s --check-prefix=SM
// SM: state-machine: {{[0-9]+ launch(es)?}}, workgroups of {{[0-9]+}} threads, dispatch by {{switch|fall-through}}, bounded steps (1 per launch), frame buffer {{[0-9]+}} bytes
// SM-NEXT: state-machine: subroutines: entry lookup
//
// --version names CoroGPU and its commit; --help lists no option twice:
// RUN: coro-run --version | FileCheck %s --check-prefix=VERSION
// RUN: coro-opt --version | FileCheck %s --check-prefix=VERSION
// VERSION: CoroGPU {{[0-9]+\.[0-9]+\.[0-9]+}} ({{commit [0-9a-f]+|unknown commit}}
// VERSION-NEXT: built with LLVM/MLIR 22.
// RUN: coro-run --help | grep -E '^ +--' | sed -e 's/[ =<].*//' -e 's/^ *//' | sort | uniq -d | not grep .
// REQUIRES: vulkan

coro.func @fill(%out: memref<?xf32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  coro.promise "material", %i : i32
  %w = arith.constant 1.0 : f32
  coro.promise "weight", %w : f32
  coro.await @lookup() : () -> ()
  %f = arith.sitofp %i : i32 to f32
  memref.store %f, %out[%id] : memref<?xf32>
  coro.return
}

coro.func @lookup() {
  coro.suspend "lookup"
  coro.return
}

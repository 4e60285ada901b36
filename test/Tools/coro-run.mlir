// RUN: coro-run %s --list | FileCheck %s
// --help lists coro-run's options, not the hundreds libLLVM registers:
// RUN: coro-run --help | FileCheck %s --check-prefix=HELP
// HELP-NOT: --aarch64
// HELP: Wavefront scheduler options (--scheduler=wavefront):
// HELP: --capacity=
// HELP: coro-run options
// HELP: --check
// HELP: --scheduler=<value>
// HELP-NOT: --aarch64
// Bad input: each a one-line error and a non-zero exit.
// RUN: not coro-run %s --coro=missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not coro-run %s 2>&1 | FileCheck %s --check-prefix=NONAME
// RUN: not coro-run %t.does-not-exist.mlir --list 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: echo 'coro.func @x() { coro.suspend "1" coro.return }' > %t.bad.mlir
// RUN: not coro-run %t.bad.mlir --list 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not coro-run %s --coro=render --grid=4 --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not coro-run %s --coro=render --grid=4 --arg=1 2>&1 | FileCheck %s --check-prefix=BUFFERS
// RUN: not coro-run %s --coro=render --grid=4 --arg=x --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not coro-run %s --coro=render --grid=4 --arg=1 --buffer=i32:4:zeros 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not coro-run %s --coro=fixed --grid=4 --buffer=f32:4:zeros 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not coro-run %s --coro=render --grid=4 --arg=1 --buffer=f32:4:ones 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not coro-run %s --coro=render --grid=4 --arg=1 --buffer=f32:4:file=%t.none 2>&1 | FileCheck %s --check-prefix=INITFILE
// RUN: not coro-run %s --coro=render --arg=1 --buffer=f32:4:zeros --grid=0 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not coro-run %s --coro=render --arg=1 --buffer=f32:4:zeros --grid=1,2,3,4 2>&1 | FileCheck %s --check-prefix=GRID4
// RUN: not coro-run %s --coro=render --arg=1 --buffer=f32:4:zeros --grid=2147483648,2147483648,4 2>&1 | FileCheck %s --check-prefix=GRIDBIG
// RUN: not coro-run %s --coro=render --grid=4 --arg=1 --buffer=f32:4:zeros --scheduler=sorted 2>&1 | FileCheck %s --check-prefix=SCHEDULER
// RUN: not coro-run %s --coro=render --grid=4 --arg=1 --buffer=f32:4:zeros --backend=metal 2>&1 | FileCheck %s --check-prefix=BACKEND
// RUN: not coro-run %s --coro=render --grid=4 --arg=1 --buffer=f32:4:zeros --device=no-such-gpu 2>&1 | FileCheck %s --check-prefix=DEVICE

// CHECK: @render : (i32, memref<?xf32>) -> ()
// CHECK-NEXT:   suspension points: 3 (1 anonymous) "trace" await @shade
// CHECK-NEXT:   promise fields: "radiance"
// CHECK-NEXT: @shade : (i32, memref<?xf32>) -> ()
// CHECK-NEXT:   suspension points: 0
// CHECK-NEXT:   promise fields:{{$}}
// CHECK-NEXT: @gen : (index) -> () yields f32
// CHECK-NEXT:   suspension points: 1 yield
// MISSING: coro-run: error: no coro.func @missing in
// NONAME: coro-run: error: {{.*}}coro-run.mlir has 4 coroutines: name the one to run with --coro (render, shade, gen, fixed; --list describes them)
// NOFILE: coro-run: error: cannot open input file
// BAD: error: 'coro.suspend' op tag "1" is not an identifier
// ARGS: coro-run: error: @render takes 1 scalar argument(s), 0 given with --arg
// BUFFERS: coro-run: error: @render takes 1 buffer(s), 0 given with --buffer
// SCALAR: coro-run: error: argument #0 is i32, but 'x' is not a value of that type
// TYPE: coro-run: error: buffer 'i32:4:zeros' has elements of type i32, but argument #1 is a memref of f32
// SHAPE: coro-run: error: buffer 'f32:4:zeros' has 4 elements, but argument #0 has a static shape of 16
// INIT: coro-run: error: buffer 'f32:4:ones': unknown initializer 'ones' (zeros, iota, const=V, random=SEED, file=PATH, npy=PATH)
// INITFILE: coro-run: error: buffer 'f32:4:file={{.*}}': cannot read
// GRID: coro-run: error: --grid: '0' is not a positive integer
// GRID4: coro-run: error: --grid has more than 3 dimensions: '1,2,3,4'
// GRIDBIG: coro-run: error: --grid: '2147483648,2147483648,4' has more than 2^31 - 1 instances (instance ids are 32-bit integers in the kernels)
// SCHEDULER: for the --scheduler option: 'sorted' is not one of megakernel, state-machine, wavefront, persistent{{$}}
// BACKEND: for the --backend option: 'metal' is not one of vulkan, cuda{{$}}
// DEVICE: coro-run: error: no Vulkan device{{.*}}

coro.func @render(%spp: i32, %image: memref<?xf32>) {
  coro.suspend "trace"
  %c = arith.constant 1.0 : f32
  coro.promise "radiance", %c : f32
  coro.suspend
  coro.await @shade(%spp, %image) : (i32, memref<?xf32>) -> ()
  coro.return
}
coro.func @shade(%spp: i32, %image: memref<?xf32>) {
  coro.return
}
coro.func @gen(%n: index) yields f32 {
  %c = arith.constant 1.0 : f32
  coro.yield %c : f32
  coro.return
}
coro.func @fixed(%image: memref<16xf32>) {
  coro.return
}

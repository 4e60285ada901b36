// RUN: coro-run %s --list | FileCheck %s
// RUN: not coro-run %s --coro=missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not coro-run %s --coro=render 2>&1 | FileCheck %s --check-prefix=NOBACKEND
// RUN: not coro-run %s 2>&1 | FileCheck %s --check-prefix=NONAME
// RUN: not coro-run %t.does-not-exist.mlir --list 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: echo 'coro.func @x() { coro.suspend "1" coro.return }' > %t.bad.mlir
// RUN: not coro-run %t.bad.mlir --list 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: @render : (i32, memref<?xf32>) -> ()
// CHECK-NEXT:   suspension points: 3 (1 anonymous) "trace" await @shade
// CHECK-NEXT:   promise fields: "radiance"
// CHECK-NEXT: @shade : (i32, memref<?xf32>) -> ()
// CHECK-NEXT:   suspension points: 0
// CHECK-NEXT:   promise fields:{{$}}
// CHECK-NEXT: @gen : (index) -> () yields f32
// CHECK-NEXT:   suspension points: 1 yield
// MISSING: coro-run: error: no coro.func @missing in
// NOBACKEND: coro-run: error: this build has no execution backend
// NONAME: coro-run: error: name the coroutine to run with --coro=<symbol> (see --list)
// NOFILE: coro-run: error: cannot open input file
// BAD: error: 'coro.suspend' op tag "1" is not an identifier

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

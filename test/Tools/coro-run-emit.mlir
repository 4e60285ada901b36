// coro-run --emit writes the generated code instead of running it; no device
// and no arguments are needed.
// RUN: coro-run %s --coro=scale --emit=mlir --scheduler=state-machine | FileCheck %s --check-prefix=MLIR
// RUN: coro-run %s --coro=scale --emit=ptx --chip=sm_80 | FileCheck %s --check-prefix=PTX
// RUN: coro-run %s --coro=scale --emit=spirv --emit-to=%t.spv && test -s %t.spv
// RUN: not coro-run %s --coro=scale --emit=spirv --emit-to=%t.missing/dir/x.spv 2>&1 | FileCheck %s --check-prefix=NODIR

// MLIR: spirv.module
// MLIR: spirv.func @scale
// PTX: .target sm_80
// PTX: .entry scale(
// NODIR: coro-run: error: {{.*}}
coro.func @scale(%k: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  coro.suspend "s"
  memref.store %k, %out[%id] : memref<?xf32>
  coro.return
}

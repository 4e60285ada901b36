// The whole front half of the pipeline (inlining callables and awaits,
// expanding yields, structuring control flow) keeps the mega-kernel's memory
// effects: with and without it, each instance of a 4x2 grid writes the same
// values.
// RUN: coro-opt %s --coro-inline-awaits --coro-megakernel-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// RUN: coro-opt %s --coro-inline-callables --coro-inline-awaits --coro-expand-yield --coro-normalize-control-flow --coro-megakernel-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// The split program, run by the state-machine scheduler, writes the same.
// RUN: coro-opt %s --coro-inline-callables --coro-inline-awaits --coro-expand-yield --coro-normalize-control-flow --coro-split --coro-state-machine-to-func %lower_to_llvm | %run_cpu | FileCheck %s

// out[x + 4 * y] = shade(x, y): see @render.
// CHECK: sizes = [8]
// CHECK-NEXT: [100,  1,  4,  -1,  110,  11,  14,  9]

func.func private @printMemrefF32(memref<*xf32>)

// A callable with an early return.
func.func private @clamp_index(%i: index, %hi: index) -> index {
  %big = arith.cmpi sgt, %i, %hi : index
  cf.cond_br %big, ^clamp, ^keep
^clamp:
  return %hi : index
^keep:
  return %i : index
}

// A nested coroutine: adds 10 * y for rows > 0, suspending in between.
coro.func @add_row(%y: index, %cell: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %has_row = arith.cmpi sgt, %y, %c0 : index
  scf.if %has_row {
    coro.suspend "row"
    %y64 = arith.index_cast %y : index to i64
    %yf = arith.sitofp %y64 : i64 to f32
    %ten = arith.constant 10.0 : f32
    %add = arith.mulf %yf, %ten : f32
    %old = memref.load %cell[%c0] : memref<1xf32>
    %new = arith.addf %old, %add : f32
    memref.store %new, %cell[%c0] : memref<1xf32>
  }
  coro.return
}

// x = 0: 100; x = 1: 1; x = 2: 4 (x*x); x = 3: -1 (clamped to 2, then
// switch default); plus 10 * y.
coro.func @render(%out: memref<?xf32>) {
  %x = coro.id 0 : index
  %y = coro.id 1 : index
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %cell = memref.alloca() : memref<1xf32>
  %k = func.call @clamp_index(%x, %c2) : (index, index) -> index
  %i32 = arith.index_cast %k : index to i32
  %same = arith.cmpi eq, %k, %x : index
  cf.cond_br %same, ^pick, ^other
^pick:
  %v = scf.index_switch %k -> f32
  case 0 {
    coro.suspend "zero"
    %h = arith.constant 100.0 : f32
    scf.yield %h : f32
  }
  case 1 {
    %one = arith.constant 1.0 : f32
    scf.yield %one : f32
  }
  default {
    coro.suspend "square"
    %k64 = arith.index_cast %k : index to i64
    %kf = arith.sitofp %k64 : i64 to f32
    %sq = arith.mulf %kf, %kf : f32
    scf.yield %sq : f32
  }
  memref.store %v, %cell[%c0] : memref<1xf32>
  cf.br ^finish
^other:
  %m = arith.constant -1.0 : f32
  memref.store %m, %cell[%c0] : memref<1xf32>
  cf.br ^finish
^finish:
  coro.await @add_row(%y, %cell) : (index, memref<1xf32>) -> ()
  %r = memref.load %cell[%c0] : memref<1xf32>
  memref.store %r, %out[%id] : memref<?xf32>
  coro.return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc(%c8) : memref<?xf32>
  coro.launch @render[%c4, %c2](%out) : (memref<?xf32>) -> ()
  %print = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<?xf32>
  return
}

// The low-level interfaces on the CPU: the coroutines of
// test/e2e/programs/handles.mlir, and a host function that drives frames of
// @steps itself, under the host state machine and the host mega-kernel.
// RUN: cat %S/../programs/handles.mlir %s | coro-opt --coro-split --coro-materialize-frame --coro-lower-handles --coro-state-machine-to-func %lower_to_llvm | %run_cpu | FileCheck %s
// RUN: cat %S/../programs/handles.mlir %s | coro-opt --coro-split=handle-targets-only=true --coro-materialize-frame --coro-lower-handles --coro-megakernel-to-func %lower_to_llvm | %run_cpu | FileCheck %s

// @steps launched, then @listing4 launched, then the host's own loop: the
// same outputs; @listing4's info (subroutines run, promise "n", instance).
// CHECK:      [10,  22,  34,  46,  58,  20,  32]
// CHECK:      [10,  22,  34,  46,  58,  20,  32]
// CHECK:      [3,  1,  0,  4,  2,  1,  5,  3,  2,  6,  4,  3,  7,  5,  4,  3,  1,  5,  4,  2,  6]
// CHECK:      [10,  22,  34,  46,  58,  20,  32]
// CHECK:      [3,  1,  0,  4,  2,  1,  5,  3,  2,  6,  4,  3,  7,  5,  4,  3,  1,  5,  4,  2,  6]

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @print(%out: memref<?xf32>) {
  %cast = memref.cast %out : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
  return
}

func.func @print_info(%info: memref<?xi32>) {
  %cast = memref.cast %info : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c21 = arith.constant 21 : index
  %one = arith.constant 1 : i32
  %true = arith.constant true
  %scale = arith.constant 2.0 : f32
  %out = memref.alloc(%c7) : memref<?xf32>
  %info = memref.alloc(%c21) : memref<?xi32>
  coro.launch @steps[%c7](%scale, %out) : (f32, memref<?xf32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  coro.launch @listing4[%c7](%scale, %out, %info) : (f32, memref<?xf32>, memref<?xi32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  call @print_info(%info) : (memref<?xi32>) -> ()
  // The same state machine written in a host function: one frame per
  // instance, resumed until done.
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c7 step %c1 {
    memref.store %zero, %out[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %c7 step %c1 {
    %h = coro.handle.create @steps[%i] : !coro.handle<@steps>
    %runs = scf.while (%count = %one) : (i32) -> i32 {
      coro.handle.resume %h(%scale, %out) : !coro.handle<@steps>, (f32, memref<?xf32>) -> ()
      %done = coro.handle.done %h : !coro.handle<@steps>
      %more = arith.xori %done, %true : i1
      %next = arith.addi %count, %one : i32
      scf.condition(%more) %next : i32
    } do {
    ^bb0(%count: i32):
      scf.yield %count : i32
    }
    %n = coro.handle.promise %h["n"] : !coro.handle<@steps> -> i32
    %id = coro.handle.id %h : !coro.handle<@steps>
    %id32 = arith.index_cast %id : index to i32
    %ran = arith.subi %runs, %one : i32
    %base = arith.muli %i, %c3 : index
    %at1 = arith.addi %base, %c1 : index
    %c2 = arith.constant 2 : index
    %at2 = arith.addi %base, %c2 : index
    memref.store %ran, %info[%base] : memref<?xi32>
    memref.store %n, %info[%at1] : memref<?xi32>
    memref.store %id32, %info[%at2] : memref<?xi32>
  }
  call @print(%out) : (memref<?xf32>) -> ()
  call @print_info(%info) : (memref<?xi32>) -> ()
  memref.dealloc %out : memref<?xf32>
  memref.dealloc %info : memref<?xi32>
  return
}

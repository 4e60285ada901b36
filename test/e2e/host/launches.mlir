// A host program: main allocates memrefs, launches two coroutines (one
// under the scheduler its launch names, one under the pipeline's default)
// and two ordinary kernels on the same memrefs, and prints them. Every
// scheduler gives the same values (worked out in the CHECK lines' comments).
// REQUIRES: vulkan
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=megakernel | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=state-machine | %run_host | FileCheck %s
// RUN: coro-opt %s "--coro-host-to-llvm=scheduler=state-machine scheduler-options='state-machine-steps=2'" | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=wavefront | %run_host | FileCheck %s
// RUN: coro-opt %s --coro-host-to-llvm=scheduler=persistent | %run_host | FileCheck %s

// data starts as 0..11. @scale2d (k = 1) makes 2i + 1, @negate -(2i + 1),
// @scale2d again -4i - 1.
// CHECK:      sizes = [12]
// CHECK-NEXT: [-1, -5, -9, -13, -17, -21, -25, -29, -33, -37, -41, -45]
// counts start as 0. @tag (base 100) makes 100 + i, @add (5) 105 + i, @tag
// (base 1) 3 (105 + i) + 1 + i = 316 + 4i.
// CHECK:      sizes = [10]
// CHECK-NEXT: [316, 320, 324, 328, 332, 336, 340, 344, 348, 352]

module attributes {gpu.container_module} {
  // data[y * w + x] = 2 * data[...] + k over a 2-D grid, suspending
  // (x + y) % 3 times in between.
  coro.func @scale2d(%k: f32, %w: index, %data: memref<?xf32>) {
    %x = coro.id 0 : index
    %y = coro.id 1 : index
    %row = arith.muli %y, %w : index
    %i = arith.addi %row, %x : index
    %v = memref.load %data[%i] : memref<?xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %s = arith.addi %x, %y : index
    %n = arith.remui %s, %c3 : index
    scf.for %j = %c0 to %n step %c1 {
      coro.suspend "spin"
    }
    %two = arith.constant 2.0 : f32
    %d = arith.mulf %v, %two : f32
    %r = arith.addf %d, %k : f32
    memref.store %r, %data[%i] : memref<?xf32>
    coro.return
  }

  // out[id] = 3 * out[id] + base + id, across a suspension.
  coro.func @tag(%base: i32, %out: memref<?xi32>) {
    %id = coro.id : index
    %old = memref.load %out[%id] : memref<?xi32>
    coro.suspend "scaled"
    %c3 = arith.constant 3 : i32
    %t = arith.muli %old, %c3 : i32
    %idi = arith.index_cast %id : index to i32
    %u = arith.addi %t, %base : i32
    %r = arith.addi %u, %idi : i32
    memref.store %r, %out[%id] : memref<?xi32>
    coro.return
  }

  gpu.module @ext {
    gpu.func @negate(%data: memref<?xf32>, %n: index) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %base = arith.muli %b, %c4 : index
      %i = arith.addi %base, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %data[%i] : memref<?xf32>
        %w = arith.negf %v : f32
        memref.store %w, %data[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @add(%out: memref<?xi32>, %v: i32, %n: index) kernel
        attributes {known_block_size = array<i32: 8, 1, 1>} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %base = arith.muli %b, %c8 : index
      %i = arith.addi %base, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %o = memref.load %out[%i] : memref<?xi32>
        %s = arith.addi %o, %v : i32
        memref.store %s, %out[%i] : memref<?xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c10 = arith.constant 10 : index
    %c12 = arith.constant 12 : index
    %data = memref.alloc(%c12) : memref<?xf32>
    scf.for %i = %c0 to %c12 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %data[%i] : memref<?xf32>
    }
    %k = arith.constant 1.0 : f32
    coro.launch @scale2d[%c4, %c3](%k, %c4, %data) {scheduler = "wavefront"}
        : (f32, index, memref<?xf32>) -> ()
    gpu.launch_func @ext::@negate blocks in (%c3, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%data : memref<?xf32>, %c12 : index)
    coro.launch @scale2d[%c4, %c3](%k, %c4, %data)
        : (f32, index, memref<?xf32>) -> ()
    %du = memref.cast %data : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%du) : (memref<*xf32>) -> ()

    %counts = memref.alloc(%c10) : memref<?xi32>
    %zero = arith.constant 0 : i32
    scf.for %i = %c0 to %c10 step %c1 {
      memref.store %zero, %counts[%i] : memref<?xi32>
    }
    %base100 = arith.constant 100 : i32
    %base1 = arith.constant 1 : i32
    %five = arith.constant 5 : i32
    coro.launch @tag[%c10](%base100, %counts) {scheduler = "persistent"}
        : (i32, memref<?xi32>) -> ()
    gpu.launch_func @ext::@add blocks in (%c2, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%counts : memref<?xi32>, %five : i32, %c10 : index)
    coro.launch @tag[%c10](%base1, %counts) : (i32, memref<?xi32>) -> ()
    %cu = memref.cast %counts : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%cu) : (memref<*xi32>) -> ()
    memref.dealloc %data : memref<?xf32>
    memref.dealloc %counts : memref<?xi32>
    return
  }
}

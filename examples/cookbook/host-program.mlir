// A host program: main allocates a buffer, launches a coroutine over it
// twice (under the wavefront scheduler, then the pipeline's default) and
// prints it. coro-host-to-llvm compiles it; mlir-runner runs it with the
// CoroGPU runtime wrappers. data[i] = 4 i + 3 after both launches.
module attributes {gpu.container_module} {
  coro.func @grow(%data: memref<?xi32>) {
    %id = coro.id : index
    %v = memref.load %data[%id] : memref<?xi32>
    %twice = arith.addi %v, %v : i32
    gpu.printf "%d doubled\n", %v : i32
    coro.suspend "add"
    %one = arith.constant 1 : i32
    %w = arith.addi %twice, %one : i32
    memref.store %w, %data[%id] : memref<?xi32>
    coro.return
  }

  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %data = memref.alloc(%c4) : memref<?xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %data[%i] : memref<?xi32>
    }
    coro.launch @grow[%c4](%data) {scheduler = "wavefront"}
        : (memref<?xi32>) -> ()
    coro.launch @grow[%c4](%data) : (memref<?xi32>) -> ()
    %printed = memref.cast %data : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%printed) : (memref<*xi32>) -> ()
    memref.dealloc %data : memref<?xi32>
    return
  }
}

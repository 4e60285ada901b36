// Printing from a kernel: gpu.printf, each line prefixed with the instance
// and the suspension point it resumed at (coro-run --printf; on Vulkan
// through the validation layer's debug printf).
coro.func @print(%out: memref<?xi32>) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  gpu.printf "hello from %d\n", %i : i32
  coro.suspend "later"
  %twice = arith.addi %i, %i : i32
  gpu.printf "twice %d\n", %twice : i32
  memref.store %twice, %out[%id] : memref<?xi32>
  coro.return
}

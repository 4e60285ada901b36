// vector.load and vector.store on memrefs of scalars run on Vulkan
// (coro-spirv-scalarize-vector-memory; the conversion alone made invalid
// SPIR-V). The values, not only agreement with the mega-kernel, which goes
// through the same pass: out[4i + k] = 2 (4i + 3 - k), iout[3i + k] =
// 10^k (3i + k). The e2e corpus runs the program under every scheduler.
// REQUIRES: vulkan
// RUN: coro-run %S/../programs/vector-memory.mlir --coro=vector_memory --grid=4 --buffer=f32:16:iota --buffer=i32:12:iota --buffer=f32:16:zeros --buffer=i32:12:zeros --scheduler=megakernel --validate | FileCheck %s
// RUN: coro-run %S/../programs/vector-memory.mlir --coro=vector_memory --grid=4 --buffer=f32:16:iota --buffer=i32:12:iota --buffer=f32:16:zeros --buffer=i32:12:zeros --scheduler=persistent --validate | FileCheck %s
// CHECK: buffer 2 (f32 x 16): [6, 4, 2, 0, 14, 12, 10, 8, 22, 20, 18, 16, 30, 28, 26, 24]
// CHECK: buffer 3 (i32 x 12): [0, 10, 200, 3, 40, 500, 6, 70, 800, 9, 100, 1100]

// A local array of vectors (memref<2xvector<4xf32>>), accessed with
// vector.load / vector.store across a suspension: one memref access of the
// element each (the conversion's vector ops failed there). out[4i + k] =
// i + (i + 0.5) = 2i + 0.5, under the state machine (private frame) and
// the wavefront scheduler.
// RUN: coro-run %s --coro=vector_elements --grid=3 --buffer=f32:12:zeros --scheduler=state-machine --validate | FileCheck %s --check-prefix=ELEMENTS
// RUN: coro-run %s --coro=vector_elements --grid=3 --buffer=f32:12:zeros --scheduler=wavefront --validate --check | FileCheck %s --check-prefix=ELEMENTS
// ELEMENTS: buffer 0 (f32 x 12): [0.5, 0.5, 0.5, 0.5, 2.5, 2.5, 2.5, 2.5, 4.5, 4.5, 4.5, 4.5]
coro.func @vector_elements(%out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %half = arith.constant 0.5 : f32
  %array = memref.alloca() : memref<2xvector<4xf32>>
  %id32 = arith.index_cast %id : index to i32
  %idf = arith.sitofp %id32 : i32 to f32
  %idh = arith.addf %idf, %half : f32
  %a = vector.broadcast %idf : f32 to vector<4xf32>
  %b = vector.broadcast %idh : f32 to vector<4xf32>
  vector.store %a, %array[%c1] : memref<2xvector<4xf32>>, vector<4xf32>
  vector.store %b, %array[%c0] : memref<2xvector<4xf32>>, vector<4xf32>
  coro.suspend
  %x = vector.load %array[%c0] : memref<2xvector<4xf32>>, vector<4xf32>
  %y = vector.load %array[%c1] : memref<2xvector<4xf32>>, vector<4xf32>
  %sum = arith.addf %x, %y : vector<4xf32>
  %at = arith.muli %id, %c4 : index
  vector.store %sum, %out[%at] : memref<?xf32>, vector<4xf32>
  coro.return
}

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

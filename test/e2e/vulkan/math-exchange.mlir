// math.exp2, math.atan2 and memref.atomic_rmw assign under
// every scheduler on Vulkan (the SPIR-V conversion rejected all three
// before coro-spirv-expand-math and coro-spirv-convert-gpu; found by the
// Python front end). The program and how its values come about are in
// ../programs/math-exchange.mlir; the values below are Python's.
// REQUIRES: vulkan
// RUN: coro-run %S/../programs/math-exchange.mlir --coro=math_exchange --grid=8 --buffer=i32:48:zeros --buffer=i32:9:iota --scheduler=megakernel --check --validate | FileCheck %s
// RUN: coro-run %S/../programs/math-exchange.mlir --coro=math_exchange --grid=8 --buffer=i32:48:zeros --buffer=i32:9:iota --scheduler=state-machine --check --validate | FileCheck %s
// RUN: coro-run %S/../programs/math-exchange.mlir --coro=math_exchange --grid=8 --buffer=i32:48:zeros --buffer=i32:9:iota --scheduler=wavefront --capacity=3 --check --validate | FileCheck %s
// RUN: coro-run %S/../programs/math-exchange.mlir --coro=math_exchange --grid=8 --buffer=i32:48:zeros --buffer=i32:9:iota --scheduler=persistent --persistent-batch=4 --check --validate | FileCheck %s
// CHECK: buffer 0 (i32 x 48): [1, -63, -138, -101, 0, 1, 2, -50, -151, -101, 1, 11, 4, -30, -171, -101, 2, 21, 8, 0, 201, 0, 3, 31, 16, 30, 171, 101, 4, 41, 32, 50, 151, 101, 5, 51, 64, 63, 138, 101, 6, 61, 128, 71, 130, 101, 7, 71]
// CHECK: buffer 1 (i32 x 9): [100, 101, 102, 103, 104, 105, 106, 107, 5]

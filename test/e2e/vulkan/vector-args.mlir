// Vector scalar arguments: --arg takes a vector's elements comma-separated;
// SPIR-V kernels load them from a buffer of the packed elements
// (coro-spirv-kernel-arguments). Values in test/e2e/programs/vector-args.mlir.
// REQUIRES: vulkan
// RUN: coro-run %S/../programs/vector-args.mlir --coro=vector_args --grid=37 --arg=1,-2,30,400 --arg=7,-300 --arg=0.5,1.25,-2.5 --arg=1.5,2.5 --arg=3,9 --arg=0.25,100.0 --arg=37 --buffer=i32:74:zeros --scheduler=wavefront --validate | FileCheck %s
// CHECK: buffer 0 (i32 x 74): [-295895, -292888, -266925, 109105,
// A vector needs as many elements as it has lanes:
// RUN: not coro-run %S/../programs/vector-args.mlir --coro=vector_args --grid=37 --arg=1,-2,30 --arg=7,-300 --arg=0.5,1.25,-2.5 --arg=1.5,2.5 --arg=3,9 --arg=0.25,100.0 --arg=37 --buffer=i32:74:zeros 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: coro-run: error: argument #0 is vector<4xi32>, but '1,-2,30' has 3 elements (write them comma-separated)
// RUN: not coro-run %S/../programs/vector-args.mlir --coro=vector_args --grid=37 --arg=1,-2,30,x --arg=7,-300 --arg=0.5,1.25,-2.5 --arg=1.5,2.5 --arg=3,9 --arg=0.25,100.0 --arg=37 --buffer=i32:74:zeros 2>&1 | FileCheck %s --check-prefix=ELEMENT
// ELEMENT: coro-run: error: argument #0 is vector<4xi32>, but its element 'x' is not a value of i32
// i8 and i1 elements go in 32 bits each (coro-spirv-kernel-arguments):
// RUN: coro-run %s --coro=bytes --grid=2 --arg=-5,2,3,127 --arg=true,0 --buffer=i32:2:zeros --validate | FileCheck %s --check-prefix=BYTES
// BYTES: buffer 0 (i32 x 2): [-5, 127]
coro.func @bytes(%b: vector<4xi8>, %f: vector<2xi1>, %out: memref<?xi32>) {
  %id = coro.id : index
  %first = vector.extract %b[0] : i8 from vector<4xi8>
  %last = vector.extract %b[3] : i8 from vector<4xi8>
  %flag = vector.extract %f[0] : i1 from vector<2xi1>
  %x = arith.select %flag, %first, %last : i8
  %idi = arith.index_cast %id : index to i32
  %i1 = arith.trunci %idi : i32 to i1
  %y = arith.select %i1, %last, %x : i8
  %w = arith.extsi %y : i8 to i32
  memref.store %w, %out[%id] : memref<?xi32>
  coro.return
}

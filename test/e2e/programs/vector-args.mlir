// vector_args: vector scalar arguments (--arg=a,b,c per vector) of several
// element types and lengths, read before and after a suspension: SPIR-V
// kernels get them in buffers of their packed elements
// (coro-spirv-kernel-arguments), PTX kernels by value. Instance i stores
//   out[i] = 1000 * (s[i % 4] + h[1] + idx[i % 2]) + trunc(f[i % 3] * 10 + d[1])
// with the values read after the suspension, and before it the same sum
// of other lanes into out[n + i] (out has 2 n elements).
// --grid=37 --arg=1,-2,30,400 --arg=7,-300 --arg=0.5,1.25,-2.5 --arg=1.5,2.5
// --arg=3,9 --arg=0.25,100.0 --arg=37 --buffer=i32:74:zeros: instance 0
// stores 1000 * (1 + -300 + 3) + trunc(5 + 100) = -295895, instance 1
// 1000 * (-2 - 300 + 9) + trunc(12.5 + 100) = -292888.
coro.func @vector_args(%s: vector<4xi32>, %h: vector<2xi16>, %f: vector<3xf32>,
                       %hf: vector<2xf16>, %idx: vector<2xindex>, %d: vector<2xf64>,
                       %n: index, %out: memref<?xi32>) {
  %id = coro.id : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %thousand = arith.constant 1000 : i32
  %ten = arith.constant 10.0 : f32
  // Before the suspension: lanes 0 of h, idx and d, and the f16 vector.
  %i4 = arith.remui %id, %c4 : index
  %i2 = arith.remui %id, %c2 : index
  %i3 = arith.remui %id, %c3 : index
  %s0 = vector.extract %s[%i4] : i32 from vector<4xi32>
  %h0 = vector.extract %h[0] : i16 from vector<2xi16>
  %x0 = vector.extract %idx[0] : index from vector<2xindex>
  %hf0 = vector.extract %hf[0] : f16 from vector<2xf16>
  %h0w = arith.extsi %h0 : i16 to i32
  %x0w = arith.index_cast %x0 : index to i32
  %hf0w = arith.fptosi %hf0 : f16 to i32
  %a0 = arith.addi %s0, %h0w : i32
  %a1 = arith.addi %a0, %x0w : i32
  %a2 = arith.muli %a1, %thousand : i32
  %early = arith.addi %a2, %hf0w : i32
  %at = arith.addi %n, %id : index
  memref.store %early, %out[%at] : memref<?xi32>
  coro.suspend "later"
  // After it: the arguments are passed again.
  %s1 = vector.extract %s[%i4] : i32 from vector<4xi32>
  %h1 = vector.extract %h[1] : i16 from vector<2xi16>
  %x1 = vector.extract %idx[%i2] : index from vector<2xindex>
  %f1 = vector.extract %f[%i3] : f32 from vector<3xf32>
  %d1 = vector.extract %d[1] : f64 from vector<2xf64>
  %h1w = arith.extsi %h1 : i16 to i32
  %x1w = arith.index_cast %x1 : index to i32
  %b0 = arith.addi %s1, %h1w : i32
  %b1 = arith.addi %b0, %x1w : i32
  %b2 = arith.muli %b1, %thousand : i32
  %f10 = arith.mulf %f1, %ten : f32
  %fw = arith.extf %f10 : f32 to f64
  %sum = arith.addf %fw, %d1 : f64
  %t = arith.fptosi %sum : f64 to i32
  %late = arith.addi %b2, %t : i32
  memref.store %late, %out[%id] : memref<?xi32>
  coro.return
}

// The loop of divergent-while.mlir alone, with no suspension, so the
// mega-kernel runs the coroutine as written: each instance runs an scf.while
// whose trip count (1 to 4) differs between the lanes of the workgroup and
// whose condition region loads from a table at a computed index. The
// expected values come from a Python model of the program. Before
// coro-spirv-structurize-while moved such condition regions into the loop
// body, lavapipe (Mesa 22.3.6) got 4 of the 32 wrong (545751976 instead of
// 545751988 at [3], and [7], [15], [31]): Bug 1 of
// test/e2e/known/driver/README.md, where driver/divergent-while.test gets
// the same wrong values from this loop written in GLSL.
// REQUIRES: vulkan
// RUN: %python -c "import struct; open('%t.bin', 'wb').write(struct.pack('<32i', 527858757, 1038467225, 1904202612, 1, 1721854523, -1661267722, -1088461400, 1, 317574981, -1216636254, -947116003, 4, 1276236631, 504454731, -1603314586, 1, -2124663886, 1175076011, -1432438260, 3, 1982032882, -1267962325, 818800919, 4, -864195088, -596184694, -1521698716, 1, -722179479, 369973903, 891962283, 1))"
// RUN: coro-run %s --coro=inner --grid=8 --buffer=i32:16:iota --buffer=i32:32:file=%t.bin --buffer=i32:32:zeros --scheduler=megakernel | FileCheck %s
// CHECK: buffer 2 (i32 x 32): [1, 527858772, 393414809, 545751988, 1, 1721854540, -163551570, 1993446764, 4, 317575008, 1832265438, 1829892192, 1, 1276236652, -917095233, -1851665300, 3, -2124663872, 827751653, 1318894528, 4, 1982032896, 1801878539, 2019322880, 1, -864195088, -854034274, 310538736, 1, -722179468, -531353313, -687445356]
coro.func @inner(%table: memref<?xi32>, %in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %k15 = arith.constant 15 : i32
  %true = arith.constant true
  %base = arith.muli %id, %c4 : index
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  %i3 = arith.addi %base, %c3 : index
  %x46 = memref.load %in[%base] : memref<?xi32>
  %x47 = memref.load %in[%i1] : memref<?xi32>
  %x48 = memref.load %in[%i2] : memref<?xi32>
  %b44 = memref.load %in[%i3] : memref<?xi32>
  %r:4 = scf.while (%al = %true, %cn = %k0, %a = %x46, %b = %x47, %c = %x48) : (i1, i32, i32, i32, i32) -> (i32, i32, i32, i32) {
    %v51 = arith.xori %c, %a : i32
    %v52 = arith.addi %c, %v51 : i32
    %a56 = arith.andi %a, %k15 : i32
    %ix57 = arith.index_cast %a56 : i32 to index
    %v55 = memref.load %table[%ix57] : memref<?xi32>
    %v58 = arith.addi %a, %v55 : i32
    %a60 = arith.andi %v52, %k15 : i32
    %ix61 = arith.index_cast %a60 : i32 to index
    %v59 = memref.load %table[%ix61] : memref<?xi32>
    %v62 = arith.addi %v52, %v59 : i32
    scf.condition(%al) %cn, %v58, %b, %v62 : i32, i32, i32, i32
  } do {
  ^bb0(%cn: i32, %y63: i32, %y64: i32, %y65: i32):
    %v68 = arith.muli %y64, %y65 : i32
    %v69 = arith.addi %y64, %v68 : i32
    %v70 = arith.addi %v69, %v69 : i32
    %v71 = arith.addi %v69, %v70 : i32
    %v72 = arith.addi %y65, %y65 : i32
    %v73 = arith.addi %y65, %v72 : i32
    %cn74 = arith.addi %cn, %k1 : i32
    %go = arith.cmpi ult, %cn74, %b44 : i32
    scf.yield %go, %cn74, %y63, %v71, %v73 : i1, i32, i32, i32, i32
  }
  memref.store %r#0, %out[%base] : memref<?xi32>
  memref.store %r#1, %out[%i1] : memref<?xi32>
  memref.store %r#2, %out[%i2] : memref<?xi32>
  memref.store %r#3, %out[%i3] : memref<?xi32>
  coro.return
}

// A loop whose trip count differs between the lanes of a workgroup, under
// the wavefront scheduler: an inner scf.while whose condition region loads
// from a table at a computed index, in the resumed subroutine. Found by a
// random program generator. On lavapipe (Mesa 22.3.6) instances 0, 4 and 7
// got wrong values (out[6] = 1159977301, reference 1340145557) until
// coro-spirv-structurize-while moved such condition regions into the loop
// body: the driver gives the lanes that left a loop the header's values of
// a later pass (Bug 1 of test/e2e/known/driver/README.md, proven there with
// GLSL and no CoroGPU code). It matched with a uniform trip count and with
// --wavefront-workgroup-size=1. divergent-while-megakernel.mlir holds the
// loop alone, with its expected values written out.
// REQUIRES: vulkan
// RUN: coro-run %s --coro=g --grid=8 --arg=3 --buffer=i32:16:iota --buffer=i32:64:zeros --scheduler=wavefront --check --quiet
coro.func @g(%w: i32, %table: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %k2 = arith.constant 2 : i32
  %k3 = arith.constant 3 : i32
  %k5 = arith.constant 5 : i32
  %k7 = arith.constant 7 : i32
  %k15 = arith.constant 15 : i32
  %true = arith.constant true
  %base = arith.muli %id, %c8 : index
  %id32 = arith.index_cast %id : index to i32
  %s0 = arith.muli %id32, %k7 : i32
  %s1 = arith.xori %id32, %k5 : i32
  %s2 = arith.addi %id32, %k3 : i32
    %b8 = arith.andi %s2, %k3 : i32
    %b9 = arith.addi %b8, %k1 : i32
    %r10:5 = scf.while (%al14 = %true, %cn15 = %k0, %x11 = %s0, %x12 = %s1, %x13 = %s2) : (i1, i32, i32, i32, i32) -> (i1, i32, i32, i32, i32) {
      scf.condition(%al14) %al14, %cn15, %x11, %x12, %x13 : i1, i32, i32, i32, i32
    } do {
    ^bb0(%al19: i1, %cn20: i32, %y16: i32, %y17: i32, %y18: i32):
      %m21 = arith.andi %y18, %k3 : i32
      %cc22 = arith.cmpi eq, %m21, %k0 : i32
        %v34 = arith.muli %y17, %y16 : i32
        %v35 = arith.addi %y17, %v34 : i32
        %v36 = arith.addi %y18, %y16 : i32
        %v37 = arith.addi %y18, %v36 : i32
        %v38 = arith.addi %v35, %k1 : i32
        %v39 = arith.addi %v37, %v38 : i32
        %v40 = arith.addi %v39, %k3 : i32
        %v41 = arith.addi %v39, %v40 : i32
      coro.suspend "s2"
      %ix42 = arith.addi %base, %c7 : index
      %b43 = arith.andi %y16, %k3 : i32
      %b44 = arith.addi %b43, %k1 : i32
      %r45:5 = scf.while (%al49 = %true, %cn50 = %k0, %x46 = %y16, %x47 = %v35, %x48 = %v41) : (i1, i32, i32, i32, i32) -> (i1, i32, i32, i32, i32) {
        %v51 = arith.xori %x48, %x48 : i32
        %v52 = arith.addi %x48, %v51 : i32
        %v53 = arith.xori %v52, %x46 : i32
        %v54 = arith.addi %v52, %v53 : i32
        %a56 = arith.andi %x46, %k15 : i32
        %ix57 = arith.index_cast %a56 : i32 to index
        %v55 = memref.load %table[%ix57] : memref<?xi32>
        %v58 = arith.addi %x46, %v55 : i32
        %a60 = arith.andi %v54, %k15 : i32
        %ix61 = arith.index_cast %a60 : i32 to index
        %v59 = memref.load %table[%ix61] : memref<?xi32>
        %v62 = arith.addi %v54, %v59 : i32
        scf.condition(%al49) %al49, %cn50, %v58, %x47, %v62 : i1, i32, i32, i32, i32
      } do {
      ^bb0(%al66: i1, %cn67: i32, %y63: i32, %y64: i32, %y65: i32):
        %v68 = arith.muli %y64, %y65 : i32
        %v69 = arith.addi %y64, %v68 : i32
        %v70 = arith.addi %v69, %v69 : i32
        %v71 = arith.addi %v69, %v70 : i32
        %v72 = arith.addi %y65, %y65 : i32
        %v73 = arith.addi %y65, %v72 : i32
        %cn74 = arith.addi %cn67, %k1 : i32
        %go75 = arith.cmpi ult, %cn74, %b44 : i32
        scf.yield %go75, %cn74, %y63, %v71, %v73 : i1, i32, i32, i32, i32
      }
      %cn76 = arith.addi %cn20, %k1 : i32
      %go77 = arith.cmpi ult, %cn76, %b9 : i32
      scf.yield %go77, %cn76, %r45#2, %r45#3, %r45#4 : i1, i32, i32, i32, i32
    }
  %a148 = arith.andi %r10#2, %k15 : i32
  %ix149 = arith.index_cast %a148 : i32 to index
  %v147 = memref.load %table[%ix149] : memref<?xi32>
  %v150 = arith.addi %r10#4, %v147 : i32
  %ix151 = arith.addi %base, %c5 : index

  %ix152 = arith.addi %base, %c6 : index
  memref.store %r10#3, %out[%ix152] : memref<?xi32>
  %ix153 = arith.addi %base, %c7 : index

  coro.return
}

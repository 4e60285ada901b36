// The lane profile's reductions stay in the branch they count on CUDA:
// both sides of the outer test hold a site of their own (4 reductions each:
// lanes, lowest lane, and the condition's minimum and maximum), which LLVM
// merged into one after the join, where other lanes are active, when they
// were calls of the (convergent) activemask and redux.sync intrinsics.
// Entry 2, outer test 4, the two inner tests 4 each: 14 in the PTX as in
// the MLIR, each in its own asm statement.
// RUN: rm -rf %t && mkdir -p %t
// RUN: coro-run %s --coro=br --grid=64 --buffer=i32:64:zeros --buffer=i32:64:zeros --scheduler=megakernel --profile-lanes --emit=ptx --chip=sm_80 --emit-to=%t/br.ptx
// RUN: grep -c "redux.sync" %t/br.ptx | FileCheck %s --check-prefix=COUNT
// COUNT: {{^}}14{{$}}
// RUN: grep -o "// reduction [0-9]*" %t/br.ptx | sort -u | wc -l | FileCheck %s --check-prefix=COUNT
// REQUIRES: ptxas
// RUN: ptxas -arch=sm_80 %t/br.ptx -o %t/br.cubin
coro.func @br(%in: memref<?xi32>, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %p = arith.remui %id, %c2 : index
  %odd = arith.cmpi ne, %p, %c0 : index
  scf.if %odd {
    %q = arith.remui %id, %c3 : index
    %a = arith.cmpi eq, %q, %c0 : index
    scf.if %a {
      memref.atomic_rmw addi %one, %out[%id] : (i32, memref<?xi32>) -> i32
    }
  } else {
    %q = arith.remui %id, %c5 : index
    %a = arith.cmpi eq, %q, %c0 : index
    scf.if %a {
      memref.atomic_rmw addi %two, %out[%id] : (i32, memref<?xi32>) -> i32
    }
  }
  coro.return
}

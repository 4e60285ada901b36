// frame_copies: a resumption that writes one frame word in each of five
// cases, so that the persistent-threads scheduler, with frames split
// between workgroup memory and the global memory extension, runs it on a
// private copy of the frame (copied in and out in one branch each) instead
// of a branch per access (coro-persistent-to-gpu; coro-fuzz seed 674, whose
// kernel lavapipe did not finish compiling with a branch per access).
// Output (grid 37, out = iota): out[2 id] = x + a and out[2 id + 1] = b,
// where a = 3 out[2 id] + 1, b = out[2 id + 1] + 7 and x is a op t for the
// case id mod 5, t the value of out[2 id + 1] that the case's atomic
// increment returns (an atomic's result cannot be recomputed after the
// suspension, so the case stores x in the frame).
coro.func @frame_copies(%out: memref<?xi32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %k1 = arith.constant 1 : i32
  %k3 = arith.constant 3 : i32
  %k7 = arith.constant 7 : i32
  %at = arith.muli %id, %c2 : index
  %at1 = arith.addi %at, %c1 : index
  %in0 = memref.load %out[%at] : memref<?xi32>
  %in1 = memref.load %out[%at1] : memref<?xi32>
  %a0 = arith.muli %in0, %k3 : i32
  %a = arith.addi %a0, %k1 : i32
  %b = arith.addi %in1, %k7 : i32
  coro.suspend "start"
  %case = arith.remui %id, %c5 : index
  %x = scf.index_switch %case -> i32
  case 0 {
    %t0 = memref.atomic_rmw addi %k1, %out[%at1] : (i32, memref<?xi32>) -> i32
    %x0 = arith.muli %a, %t0 : i32
    coro.suspend "c0"
    scf.yield %x0 : i32
  }
  case 1 {
    %t1 = memref.atomic_rmw addi %k1, %out[%at1] : (i32, memref<?xi32>) -> i32
    %x1 = arith.subi %a, %t1 : i32
    coro.suspend "c1"
    scf.yield %x1 : i32
  }
  case 2 {
    %t2 = memref.atomic_rmw addi %k1, %out[%at1] : (i32, memref<?xi32>) -> i32
    %x2 = arith.xori %a, %t2 : i32
    coro.suspend "c2"
    scf.yield %x2 : i32
  }
  case 3 {
    %t3 = memref.atomic_rmw addi %k1, %out[%at1] : (i32, memref<?xi32>) -> i32
    %x3 = arith.ori %a, %t3 : i32
    coro.suspend "c3"
    scf.yield %x3 : i32
  }
  default {
    %t4 = memref.atomic_rmw addi %k1, %out[%at1] : (i32, memref<?xi32>) -> i32
    %x4 = arith.addi %a, %t4 : i32
    coro.suspend "c4"
    scf.yield %x4 : i32
  }
  %s = arith.addi %x, %a : i32
  memref.store %s, %out[%at] : memref<?xi32>
  memref.store %b, %out[%at1] : memref<?xi32>
  coro.return
}

// Suspension points in every construct coro-split rebuilds: both branches of
// an if, both regions of a while, three nested loops with iter_args, back-to-back suspensions, a
// loop that never runs, continue and early returns (through cf), vectors live
// across suspensions. The split program run by the state machine must print
// exactly what the mega-kernel prints (buffer addresses aside).
// RUN: coro-opt %s --coro-normalize-control-flow --coro-megakernel-to-func %lower_to_llvm | %run_cpu | grep -v base@ > %t.megakernel
// RUN: coro-opt %s --coro-normalize-control-flow --coro-split --coro-state-machine-to-func %lower_to_llvm | %run_cpu | grep -v base@ > %t.split
// RUN: diff %t.megakernel %t.split
// RUN: coro-opt %s --coro-normalize-control-flow --coro-split --coro-materialize-frame --coro-state-machine-to-func %lower_to_llvm | %run_cpu | grep -v base@ > %t.packed
// RUN: diff %t.megakernel %t.packed
// RUN: coro-opt %s --coro-normalize-control-flow --coro-split='defer-loads=false max-recomputed-ops=0' --coro-materialize-frame='share-storage=false pack-bits=false' --coro-state-machine-to-func %lower_to_llvm | %run_cpu | grep -v base@ > %t.unpacked
// RUN: diff %t.megakernel %t.unpacked
// RUN: FileCheck %s < %t.split

func.func private @printMemrefF32(memref<*xf32>)

// out[id] = 2 * id
// CHECK: [0,  2,  4,  6]
coro.func @while_both(%out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %r:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    coro.suspend "before"
    %more = arith.cmpi slt, %i, %id : index
    scf.condition(%more) %i, %acc : index, f32
  } do {
  ^bb0(%i: index, %acc: f32):
    coro.suspend "after"
    %acc2 = arith.addf %acc, %two : f32
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %acc2 : index, f32
  }
  memref.store %r#1, %out[%id] : memref<?xf32>
  coro.return
}

// out[id] = n * n * id, with n = 2
// CHECK: [0,  4,  8,  12]
coro.func @nested3(%n: index, %out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    coro.suspend "outer"
    %a = scf.for %j = %c0 to %n step %c1 iter_args(%acc1 = %acc) -> (f32) {
      %b = scf.for %k = %c0 to %id step %c1 iter_args(%acc2 = %acc1) -> (f32) {
        coro.suspend "inner"
        coro.suspend "inner_again"
        %next = arith.addf %acc2, %one : f32
        scf.yield %next : f32
      }
      coro.suspend "middle"
      scf.yield %b : f32
    }
    scf.yield %a : f32
  }
  scf.for %never = %c0 to %c0 step %c1 {
    coro.suspend "never"
    memref.store %zero, %out[%id] : memref<?xf32>
  }
  memref.store %s, %out[%id] : memref<?xf32>
  coro.return
}

// Sum of (i + id) over even i < 6, odd i skipped by a continue: 6 + 3 * id.
// CHECK: [6,  9,  12,  15]
coro.func @continue_loop(%out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  cf.br ^loop(%c0, %zero : index, f32)
^loop(%i: index, %acc: f32):
  %more = arith.cmpi slt, %i, %c6 : index
  cf.cond_br %more, ^body, ^exit(%acc : f32)
^body:
  coro.suspend "top"
  %bit = arith.andi %i, %c1 : index
  %odd = arith.cmpi eq, %bit, %c1 : index
  %i2 = arith.addi %i, %c1 : index
  cf.cond_br %odd, ^loop(%i2, %acc : index, f32), ^even
^even:
  coro.suspend "even"
  %sum = arith.addi %i, %id : index
  %sum64 = arith.index_cast %sum : index to i64
  %f = arith.sitofp %sum64 : i64 to f32
  %acc2 = arith.addf %acc, %f : f32
  cf.br ^loop(%i2, %acc2 : index, f32)
^exit(%r: f32):
  memref.store %r, %out[%id] : memref<?xf32>
  coro.return
}

// Early return from inside a loop: out[id] = 10 * (id + 1).
// CHECK: [10,  20,  30,  40]
coro.func @early_return(%out: memref<?xf32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %minus = arith.constant -1.0 : f32
  %ten = arith.constant 10 : index
  memref.store %minus, %out[%id] : memref<?xf32>
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %more = arith.cmpi slt, %i, %c5 : index
  cf.cond_br %more, ^body, ^done
^body:
  coro.suspend "scan"
  %target = arith.addi %id, %c1 : index
  %hit = arith.cmpi eq, %i, %target : index
  cf.cond_br %hit, ^found, ^next
^found:
  %v = arith.muli %i, %ten : index
  %v64 = arith.index_cast %v : index to i64
  %vf = arith.sitofp %v64 : i64 to f32
  memref.store %vf, %out[%id] : memref<?xf32>
  coro.return
^next:
  %i2 = arith.addi %i, %c1 : index
  cf.br ^loop(%i2 : index)
^done:
  coro.return
}

// A vector and a promise live across suspensions: out[id] = 3 * id + 1.
// CHECK: [1,  4,  7,  10]
coro.func @vectors(%out: memref<?xf32>) {
  %id = coro.id : index
  %id64 = arith.index_cast %id : index to i64
  %idf = arith.sitofp %id64 : i64 to f32
  %v = vector.broadcast %idf : f32 to vector<3xf32>
  coro.promise "hint", %idf : f32
  coro.suspend "first"
  coro.suspend "second"
  %one = arith.constant dense<[1.0, 0.0, 0.0]> : vector<3xf32>
  %w = arith.addf %v, %one : vector<3xf32>
  %sum = vector.reduction <add>, %w : vector<3xf32> into f32
  memref.store %sum, %out[%id] : memref<?xf32>
  coro.return
}

// Suspensions in both branches of an scf.if, with values from before the
// split used after it: out[id] = id odd ? 100 + id : 2 * id.
// CHECK: [0,  101,  4,  103]
coro.func @if_else(%out: memref<?xf32>) {
  %id = coro.id : index
  %c1 = arith.constant 1 : index
  %id64 = arith.index_cast %id : index to i64
  %idf = arith.sitofp %id64 : i64 to f32
  %bit = arith.andi %id, %c1 : index
  %odd = arith.cmpi eq, %bit, %c1 : index
  %r = scf.if %odd -> (f32) {
    coro.suspend "odd"
    %hundred = arith.constant 100.0 : f32
    %v = arith.addf %idf, %hundred : f32
    scf.yield %v : f32
  } else {
    coro.suspend "even"
    %v = arith.addf %idf, %idf : f32
    scf.yield %v : f32
  }
  coro.suspend "store"
  memref.store %r, %out[%id] : memref<?xf32>
  coro.return
}

func.func @print(%buffer: memref<?xf32>) {
  %print = memref.cast %buffer : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%print) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc(%c4) : memref<?xf32>
  coro.launch @while_both[%c4](%out) : (memref<?xf32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  coro.launch @nested3[%c4](%c2, %out) : (index, memref<?xf32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  coro.launch @continue_loop[%c4](%out) : (memref<?xf32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  coro.launch @early_return[%c4](%out) : (memref<?xf32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  coro.launch @vectors[%c4](%out) : (memref<?xf32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  coro.launch @if_else[%c4](%out) : (memref<?xf32>) -> ()
  call @print(%out) : (memref<?xf32>) -> ()
  memref.dealloc %out : memref<?xf32>
  return
}

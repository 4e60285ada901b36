// coro-run --check=cpu: the reference run on the CPU, apart from the passes
// the schedulers' code takes (coro-inline-generators and
// coro-megakernel-to-func, then upstream passes; CPUReference.h).
// REQUIRES: vulkan
//
// A loop over a generator that stops early: the generator's cf loop, its
// stores to memory it did not allocate (none after the stop), and an await.
// Every instance sums 1, 2, ... until the sum reaches 10 + id; the generator
// logs each value before it yields it. Grid 3, n = 10: out = [10, 15, 15];
// log[8 id + k] = k + 1 for the values yielded (4, 5 and 5 of them).
// RUN: coro-run %s --coro=consumer --grid=3 --arg=10 --buffer=i32:3:zeros --buffer=i32:24:zeros --check=cpu --scheduler=state-machine | FileCheck %s --check-prefix=SUMS
// RUN: coro-run %s --coro=consumer --grid=3 --arg=10 --buffer=i32:3:zeros --buffer=i32:24:zeros --check=cpu --scheduler=wavefront | FileCheck %s --check-prefix=SUMS
// RUN: coro-run %s --coro=consumer --grid=3 --arg=10 --buffer=i32:3:zeros --buffer=i32:24:zeros --check=cpu --scheduler=persistent | FileCheck %s --check-prefix=SUMS
// SUMS:      buffer 0 (i32 x 3): [10, 15, 15]
// SUMS-NEXT: buffer 1 (i32 x 24): [1, 2, 3, 4, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0]
// SUMS-NEXT: check: {{.*}} matches the CPU reference on
// After the stop nothing of the generator runs, not even the rest of its
// scf.for: @quotients divides by 5 - i, which is 0 at i = 5, past the last
// value the consumer takes (sums of 100 / (5 - i) for i < 5: 20, 45, 78,
// 128, 228).
// RUN: coro-run %s --coro=take_quotients --grid=2 --arg=10 --buffer=i32:2:zeros --check=cpu | FileCheck %s --check-prefix=QUOTIENTS
// QUOTIENTS:      buffer 0 (i32 x 2): [228, 228]
// QUOTIENTS-NEXT: check: state-machine matches the CPU reference on
// --check=megakernel is --check:
// RUN: coro-run %s --coro=consumer --grid=3 --arg=10 --buffer=i32:3:zeros --buffer=i32:24:zeros --check=megakernel --quiet | FileCheck %s --check-prefix=MEGAKERNEL
// MEGAKERNEL: check: state-machine matches the mega-kernel reference on
//
// A bug seeded in the front half (COROGPU_TEST_SEED_BUG=vector-yield, the
// one of issue 42: a loop over a generator that yields vectors never runs
// its body) is in the mega-kernel too, so --check passes with the wrong values; --check=cpu finds it.
// RUN: env COROGPU_TEST_SEED_BUG=vector-yield coro-run %S/../e2e/programs/generator-types.mlir --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --check | FileCheck %s --check-prefix=SEEDED-MISSED
// SEEDED-MISSED:      buffer 0 (i32 x 4): [0, 0, 0, 0]
// SEEDED-MISSED-NEXT: check: state-machine matches the mega-kernel reference on
// RUN: env COROGPU_TEST_SEED_BUG=vector-yield not coro-run %S/../e2e/programs/generator-types.mlir --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --check=cpu 2>&1 | FileCheck %s --check-prefix=SEEDED-FOUND
// SEEDED-FOUND: coro-run: mismatch in buffer 0 at [0]: 0, reference 36
// SEEDED-FOUND: coro-run: --check FAILED: state-machine differs from the CPU reference
// RUN: env COROGPU_TEST_SEED_BUG=vector-yield coro-run %S/../e2e/programs/generator-types.mlir --coro=vec_sum --grid=2 --arg=3 --buffer=i32:4:zeros --check=cpu 2>/dev/null; test $? -eq 1
//
// Frames that handles drive exist only in the split: refused, with why.
// RUN: not coro-run %S/../e2e/programs/handles.mlir --coro=listing4 --grid=37 --arg=2.0 --buffer=f32:37:zeros --buffer=i32:111:zeros --check=cpu 2>&1 | FileCheck %s --check-prefix=HANDLES
// HANDLES: coro-run: error: --check=cpu: the CPU reference cannot run frames that handles drive ('coro.handle.create' at {{.*}}handles.mlir:{{[0-9]+}}:{{[0-9]+}}): check this coroutine against the mega-kernel (--check)
// RUN: coro-run %S/../e2e/programs/handles.mlir --coro=listing4 --grid=37 --arg=2.0 --buffer=f32:37:zeros --buffer=i32:111:zeros --check=cpu 2>/dev/null; test $? -eq 3
// A reference that is not one:
// RUN: not coro-run %s --coro=consumer --grid=3 --arg=10 --buffer=i32:3:zeros --buffer=i32:24:zeros --check=gpu 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: for the --check option: 'gpu' is not one of megakernel, cpu; did you mean 'cpu'?

coro.func @count(%n: i32, %log: memref<?xi32>) yields i32 {
  %id = coro.id : index
  %c8 = arith.constant 8 : index
  %base = arith.muli %id, %c8 : index
  %c0 = arith.constant 0 : i32
  cf.br ^head(%c0 : i32)
^head(%i: i32):
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^done
^body:
  %c1 = arith.constant 1 : i32
  %next = arith.addi %i, %c1 : i32
  %ii = arith.index_cast %i : i32 to index
  %at = arith.addi %base, %ii : index
  memref.store %next, %log[%at] : memref<?xi32>
  coro.yield %next : i32
  cf.br ^head(%next : i32)
^done:
  coro.return
}

coro.func @store(%v: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  coro.suspend
  memref.store %v, %out[%id] : memref<?xi32>
  coro.return
}

coro.func @consumer(%n: i32, %out: memref<?xi32>, %log: memref<?xi32>) {
  %id = coro.id : index
  %id32 = arith.index_cast %id : index to i32
  %c10 = arith.constant 10 : i32
  %limit = arith.addi %c10, %id32 : i32
  %c0 = arith.constant 0 : i32
  %r = coro.for_each @count[%id](%n, %log : i32, memref<?xi32>) iter_args(%c0 : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %a = arith.addi %acc, %v : i32
    %go = arith.cmpi slt, %a, %limit : i32
    coro.for_each.yield %go, %a : i32
  }
  coro.await @store(%r, %out) : (i32, memref<?xi32>) -> ()
  coro.return
}

coro.func @quotients(%n: i32) yields i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %c100 = arith.constant 100 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %d = arith.subi %c5, %i : i32
    %q = arith.divsi %c100, %d : i32
    %a = arith.addi %acc, %q : i32
    coro.yield %a : i32
    scf.yield %a : i32
  }
  coro.return
}

coro.func @take_quotients(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %r:2 = coro.for_each @quotients[%id](%n : i32) iter_args(%c0, %c0 : i32, i32) -> (i32, i32) {
  ^bb0(%v: i32, %last: i32, %cnt: i32):
    %c = arith.addi %cnt, %c1 : i32
    %go = arith.cmpi slt, %c, %c5 : i32
    coro.for_each.yield %go, %v, %c : i32, i32
  }
  memref.store %r#0, %out[%id] : memref<?xi32>
  coro.return
}

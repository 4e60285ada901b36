// RUN: coro-opt %s --split-input-file --coro-prefix-printf | FileCheck %s
// RUN: coro-opt %s --split-input-file "--coro-prefix-printf=mega-kernel=true" | FileCheck %s --check-prefix=MEGA

// A split coroutine: each print of a subroutine says which instance printed
// it (its frame's id) and where the instance resumed (the subroutine's
// name); the unsplit body, which no scheduler runs then, is left alone.
// CHECK-LABEL: coro.func @k(
// CHECK:         gpu.printf "start %d\0A", %{{.*}} : i32
// CHECK-LABEL: func.func @k__entry(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame
// CHECK:         arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[ID:.*]] = coro.frame.id %[[FRAME]] : index
// CHECK-NEXT:    %[[ID32:.*]] = arith.index_castui %[[ID]] : index to i32
// CHECK-NEXT:    gpu.printf "[#%u @entry] start %d\0A", %[[ID32]], %{{.*}} : i32, i32
// CHECK-LABEL: func.func @k__mid(
// CHECK-SAME:      %[[FRAME:.*]]: !coro.frame
// CHECK:         arith.addi
// CHECK-NEXT:    %[[ID:.*]] = coro.frame.id %[[FRAME]] : index
// CHECK-NEXT:    %[[ID32:.*]] = arith.index_castui %[[ID]] : index to i32
// CHECK-NEXT:    gpu.printf "[#%u @mid] after %d %d\0A", %[[ID32]], %{{.*}}, %{{.*}} : i32, i32, i32
// The mega-kernel runs the body whole: its prints name the instance only.
// MEGA-LABEL: coro.func @k(
// MEGA:         arith.index_cast %{{.*}} : index to i32
// MEGA-NEXT:    %[[ID:.*]] = coro.id : index
// MEGA-NEXT:    %[[ID32:.*]] = arith.index_castui %[[ID]] : index to i32
// MEGA-NEXT:    gpu.printf "[#%u] start %d\0A", %[[ID32]], %{{.*}} : i32, i32
// MEGA-LABEL: func.func @k__entry(
// MEGA:         gpu.printf "start %d\0A"
coro.func @k(%out: memref<?xi32>, %n: i32) {
  %id = coro.id : index
  %i = arith.index_cast %id : index to i32
  gpu.printf "start %d\n", %i : i32
  coro.suspend "mid"
  %j = arith.addi %i, %n : i32
  gpu.printf "after %d %d\n", %i, %j : i32, i32
  memref.store %j, %out[%id] : memref<?xi32>
  coro.return
}
func.func @k__entry(%frame: !coro.frame, %out: memref<?xi32>, %n: i32) {
  %id = coro.frame.id %frame : index
  %i = arith.index_cast %id : index to i32
  gpu.printf "start %d\n", %i : i32
  coro.frame.set_target %frame, 1
  return
}
func.func @k__mid(%frame: !coro.frame, %out: memref<?xi32>, %n: i32) {
  %id = coro.frame.id %frame : index
  %i = arith.index_cast %id : index to i32
  %j = arith.addi %i, %n : i32
  gpu.printf "after %d %d\n", %i, %j : i32, i32
  memref.store %j, %out[%id] : memref<?xi32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @k subroutines [@k__entry, @k__mid] names ["entry", "mid"] fields [] transitions [array<i32: 0, 1>, array<i32: 1, -1>]

// -----

// A coroutine that is not split runs whole, as the mega-kernel; a print in
// a loop gets the id computed where it prints.
// CHECK-LABEL: coro.func @whole(
// CHECK:         scf.for
// CHECK:           %[[ID:.*]] = coro.id : index
// CHECK-NEXT:      %[[ID32:.*]] = arith.index_castui %[[ID]] : index to i32
// CHECK-NEXT:      gpu.printf "[#%u] step %d\0A", %[[ID32]], %{{.*}} : i32, index
coro.func @whole(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.printf "step %d\n", %i : index
  }
  coro.return
}

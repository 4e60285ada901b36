// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-subgroup-ops))' | FileCheck %s

// A reduction over the active lanes (not `uniform`) becomes redux.sync over
// the mask activemask.b32 gives, where it was: inside the branch, in asm
// whose text is unique (LLVM merges identical calls across branches). A
// uniform one, with no target chip known to have redux.sync, becomes five
// xor shuffles over the warp; the subgroup size is the warp size.
// CHECK-LABEL: gpu.module @kernels
// CHECK-LABEL:   gpu.func @count
// CHECK-SAME:      (%[[C:.*]]: i1, %[[X:.*]]: i32, %[[OUT:.*]]: memref<?xi32>)
// CHECK:           %[[WARP:.*]] = arith.constant 32 : index
// CHECK:           scf.if %[[C]] {
// CHECK-NEXT:        %[[SUM:.*]] = llvm.inline_asm has_side_effects "{ .reg .b32 %coro_mask; activemask.b32 %coro_mask; redux.sync.add.u32 $0, $1, %coro_mask; } // reduction 0", "=r,r" %[[X]] : (i32) -> i32
// CHECK-NEXT:        llvm.inline_asm has_side_effects "{{.*}} redux.sync.min.u32 $0, $1, %coro_mask; } // reduction 1", "=r,r" %[[X]]
// CHECK-NEXT:        llvm.inline_asm has_side_effects "{{.*}} redux.sync.max.s32 $0, $1, %coro_mask; } // reduction 2", "=r,r" %[[X]]
// CHECK:             memref.store %[[SUM]], %[[OUT]][%[[WARP]]]
// CHECK:           %[[W:.*]] = arith.constant 32 : i32
// CHECK:           %[[S1:.*]], %{{.*}} = gpu.shuffle  xor %[[X]], %c1_i32, %[[W]] : i32
// CHECK:           %[[A1:.*]] = arith.addi %[[X]], %[[S1]] : i32
// CHECK:           %[[S2:.*]], %{{.*}} = gpu.shuffle  xor %[[A1]], %c2_i32, %[[W]] : i32
// CHECK:           %[[A2:.*]] = arith.addi %[[A1]], %[[S2]] : i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32, %[[W]]
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32, %[[W]]
// CHECK:           %[[S16:.*]], %{{.*}} = gpu.shuffle  xor %[[A8:.*]], %c16_i32, %[[W]] : i32
// CHECK:           %[[ALL:.*]] = arith.addi %[[A8]], %[[S16]] : i32
// CHECK:           memref.store %[[ALL]]
// CHECK-NOT:       gpu.subgroup_reduce
// CHECK-NOT:       gpu.subgroup_size
gpu.module @kernels attributes {} {
  gpu.func @count(%c: i1, %x: i32, %out: memref<?xi32>) kernel {
    %n = gpu.subgroup_size : index
    scf.if %c {
      %sum = gpu.subgroup_reduce add %x : (i32) -> i32
      %min = gpu.subgroup_reduce minui %x : (i32) -> i32
      %max = gpu.subgroup_reduce maxsi %x : (i32) -> i32
      memref.store %sum, %out[%n] : memref<?xi32>
      %c0 = arith.constant 0 : index
      memref.store %min, %out[%c0] : memref<?xi32>
      memref.store %max, %out[%c0] : memref<?xi32>
    }
    %all = gpu.subgroup_reduce add %x uniform : (i32) -> i32
    %c1 = arith.constant 1 : index
    memref.store %all, %out[%c1] : memref<?xi32>
    gpu.return
  }
}

// -----

// On sm_80 and newer a uniform reduction is redux.sync over the whole warp
// (mask 0xffffffff: the warp's lanes converge there); a uniform one of
// floats is left to convert-gpu-to-nvvm.
// CHECK-LABEL: gpu.module @whole_warp
// CHECK:         %[[ANY:.*]] = llvm.inline_asm has_side_effects "redux.sync.add.u32 $0, $1, 0xffffffff; // reduction 0", "=r,r" %{{.*}} : (i32) -> i32
// CHECK:         llvm.inline_asm has_side_effects "redux.sync.or.b32 $0, $1, 0xffffffff; // reduction 1"
// CHECK:         gpu.subgroup_reduce add %{{.*}} uniform : (f32) -> f32
gpu.module @whole_warp [#nvvm.target<chip = "sm_90">] {
  gpu.func @count(%x: i32, %y: f32, %out: memref<?xi32>, %fout: memref<?xf32>) kernel {
    %sum = gpu.subgroup_reduce add %x uniform : (i32) -> i32
    %any = gpu.subgroup_reduce or %x uniform : (i32) -> i32
    %fsum = gpu.subgroup_reduce add %y uniform : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %sum, %out[%c0] : memref<?xi32>
    memref.store %any, %out[%c0] : memref<?xi32>
    memref.store %fsum, %fout[%c0] : memref<?xf32>
    gpu.return
  }
}

// RUN: coro-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(coro-nvvm-subgroup-ops))' -verify-diagnostics

// redux.sync is sm_80 and newer.
gpu.module @old [#nvvm.target<chip = "sm_75">] {
  gpu.func @count(%x: i32, %out: memref<?xi32>) kernel {
    // expected-error @below {{coro-nvvm-subgroup-ops: a reduction over the active lanes needs redux.sync, sm_80 or newer; the target is sm_75}}
    %sum = gpu.subgroup_reduce add %x : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %sum, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// It has no float (or vector, or clustered) reductions.
gpu.module @floats [#nvvm.target<chip = "sm_90">] {
  gpu.func @sum(%x: f32, %out: memref<?xf32>) kernel {
    // expected-error @below {{coro-nvvm-subgroup-ops: only unclustered integer reductions of i32 over the active lanes have an NVVM lowering (redux.sync)}}
    %sum = gpu.subgroup_reduce add %x : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %sum, %out[%c0] : memref<?xf32>
    gpu.return
  }
}

// RUN: coro-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpu.module(coro-spirv-structurize-while))'

// A memref result that is neither carried nor of the type of an argument:
// no value can start it, and there is no SPIR-V poison of a memref.
gpu.module @kernels {
  gpu.func @no_initial_value(%n: i32, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %k0 = arith.constant 0 : i32
    // expected-error @+1 {{'scf.while' op cannot move its condition into its body for SPIR-V: its result of type 'memref<4xi32>' is not carried and no value of that type is in scope (carry it through the loop)}}
    %r = scf.while (%i = %k0) : (i32) -> memref<4xi32> {
      %a = memref.alloca() : memref<4xi32>
      %go = arith.cmpi ult, %i, %n : i32
      memref.store %i, %a[%c0] : memref<4xi32>
      scf.condition(%go) %a : memref<4xi32>
    } do {
    ^bb0(%a2: memref<4xi32>):
      %v = memref.load %a2[%c0] : memref<4xi32>
      scf.yield %v : i32
    }
    %x = memref.load %r[%c0] : memref<4xi32>
    memref.store %x, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

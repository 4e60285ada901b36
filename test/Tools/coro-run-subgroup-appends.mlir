// coro-run --wavefront-subgroup-appends (on by default): the queue design's
// kernels append per subgroup where the target allows it. SPIR-V: uniform
// reductions become OpGroupNonUniformIAdd; PTX for sm_80 and newer:
// redux.sync over the whole warp; before sm_80: xor shuffles; CUDA
// workgroups that are not whole warps (48 threads), and =false, keep one
// atomic per slot.
// RUN: coro-run %s --coro=tickets --scheduler=wavefront --emit=mlir | FileCheck %s --check-prefix=SPIRV
// RUN: coro-run %s --coro=tickets --scheduler=wavefront --emit=mlir --wavefront-subgroup-appends=false | FileCheck %s --check-prefix=LANES
// The named pipeline has the option, off by default (it knows no device):
// RUN: coro-opt %s "--coro-to-spirv=scheduler=wavefront wavefront-subgroup-appends=true" | FileCheck %s --check-prefix=SPIRV
// RUN: coro-opt %s --coro-to-spirv=scheduler=wavefront | FileCheck %s --check-prefix=LANES
// The PTX pipeline ignores it unless workgroups are whole warps:
// RUN: coro-opt %s "--coro-to-ptx=scheduler=wavefront chip=sm_90 wavefront-subgroup-appends=true" | FileCheck %s --check-prefix=PIPELINE
// RUN: coro-opt %s "--coro-to-ptx=scheduler=wavefront chip=sm_90 wavefront-subgroup-appends=true wavefront-workgroup-size=48" | FileCheck %s --check-prefix=PTX-LANES
// PIPELINE: redux.sync.add.u32 {{.*}}, 0xffffffff;
// RUN: coro-run %s --coro=tickets --scheduler=wavefront --emit=ptx --chip=sm_90 | FileCheck %s --check-prefix=REDUX
// RUN: coro-run %s --coro=tickets --scheduler=wavefront --emit=ptx --chip=sm_75 | FileCheck %s --check-prefix=SHUFFLES
// RUN: coro-run %s --coro=tickets --scheduler=wavefront --emit=ptx --chip=sm_90 --wavefront-workgroup-size=48 | FileCheck %s --check-prefix=PTX-LANES
// RUN: coro-run %s --coro=tickets --scheduler=wavefront --emit=ptx --chip=sm_90 --wavefront-subgroup-appends=false | FileCheck %s --check-prefix=PTX-LANES

// SPIRV-LABEL: spirv.func @tickets__wf_1
// SPIRV:         spirv.GroupNonUniformIAdd <Subgroup> <Reduce>
// SPIRV:         spirv.AtomicIAdd
// SPIRV:         spirv.GroupNonUniformIAdd <Subgroup> <Reduce>

// LANES-NOT: spirv.GroupNonUniform

// REDUX-LABEL: .entry tickets__wf_1(
// REDUX:         redux.sync.add.u32 {{.*}}, 0xffffffff;
// REDUX:         atom.global.add.u32
// REDUX-NOT:     activemask

// SHUFFLES-LABEL: .entry tickets__wf_1(
// SHUFFLES:         shfl.sync.bfly.b32
// SHUFFLES-NOT:     redux.sync

// PTX-LANES-NOT: redux.sync
// PTX-LANES-NOT: shfl.sync

// With per-slot appends the tickets come out as with subgroup appends (and
// as test/Tools/coro-run-wavefront.mlir checks): the order of the rounds.
// REQUIRES: vulkan
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --validate | FileCheck %s --check-prefix=TICKETS
// RUN: coro-run %s --coro=tickets --grid=8 --arg=8 --buffer=i32:8:zeros --buffer=i32:1:zeros --scheduler=wavefront --validate --wavefront-subgroup-appends=false | FileCheck %s --check-prefix=TICKETS
// TICKETS: buffer 0 (i32 x 8): [7, 6, 5, 4, 3, 2, 1, 0]
coro.func @tickets(%n: index, %out: memref<?xi32>, %counter: memref<1xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rest = arith.subi %n, %id : index
  %waits = arith.subi %rest, %c1 : index
  scf.for %k = %c0 to %waits step %c1 {
    coro.suspend "wait"
  }
  %one = arith.constant 1 : i32
  %ticket = memref.atomic_rmw addi %one, %counter[%c0] : (i32, memref<1xi32>) -> i32
  memref.store %ticket, %out[%id] : memref<?xi32>
  coro.return
}

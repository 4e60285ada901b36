// Frame layouts (docs/schedulers.md, "Frame layouts"): the wavefront
// defaults to aosoa (tiles of 32 slots), the persistent threads to soa;
// --layout (coro-run) and layout= (the pipelines) set both.
// RUN: coro-run %s --coro=sums --scheduler=wavefront --emit=mlir | FileCheck %s --check-prefix=WF-AOSOA
// RUN: coro-opt %s --coro-to-spirv=scheduler=wavefront | FileCheck %s --check-prefix=WF-AOSOA
// RUN: coro-run %s --coro=sums --scheduler=wavefront --layout=soa --emit=mlir | FileCheck %s --check-prefix=WF-SOA
// RUN: coro-opt %s "--coro-to-spirv=scheduler=wavefront layout=soa" | FileCheck %s --check-prefix=WF-SOA
// RUN: coro-run %s --coro=sums --scheduler=persistent --emit=mlir | FileCheck %s --check-prefix=PT-SOA
// RUN: coro-opt %s --coro-to-spirv=scheduler=persistent | FileCheck %s --check-prefix=PT-SOA
// RUN: coro-run %s --coro=sums --scheduler=persistent --layout=aosoa --emit=mlir | FileCheck %s --check-prefix=PT-AOSOA
// RUN: coro-opt %s "--coro-to-spirv=scheduler=persistent layout=aosoa" | FileCheck %s --check-prefix=PT-AOSOA
// WF-AOSOA: #coro_plan.wavefront<{{.*}}layout = "aosoa"
// WF-SOA:   #coro_plan.wavefront<{{.*}}layout = "soa"
// PT-SOA:   #coro_plan.persistent<{{.*}}layout = "soa"
// PT-AOSOA: #coro_plan.persistent<{{.*}}layout = "aosoa"

// With aosoa every frame word of a slot is a constant offset from one
// address (word w at w x 32 words), as with aos; with soa each word's
// offset is a multiple of the run-time capacity.
// RUN: coro-run %s --coro=sums --scheduler=wavefront --emit=ptx --chip=sm_90 | FileCheck %s --check-prefix=PTX-AOSOA
// PTX-AOSOA-LABEL: .entry sums__wf_1(
// PTX-AOSOA:         ld.global.b32 {{%rd?[0-9]+}}, [[[BASE:%rd[0-9]+]]+128];
// PTX-AOSOA:         ld.global.b32 {{%rd?[0-9]+}}, [[[BASE]]+256];

// The frame buffer holds whole tiles: 37 slots of 5 words take two tiles,
// 64 x 5 x 4 bytes (soa: 37 x 5 x 4); the persistent extension's 8 slots
// take a tile of 32 x 3 words (the token and id live apart) with aosoa,
// which keeps 32 of the 40 in workgroup memory where soa keeps all 40.
// REQUIRES: vulkan
// RUN: coro-run %s --coro=sums --grid=40 --arg=40 --buffer=i32:40:zeros --scheduler=wavefront --capacity=37 --scheduler-stats --check --validate | FileCheck %s --check-prefix=RUN-AOSOA
// RUN-AOSOA: wavefront: frame buffer: aosoa, 1280 bytes
// RUN-AOSOA: check: wavefront matches the mega-kernel reference
// RUN: coro-run %s --coro=sums --grid=40 --arg=40 --buffer=i32:40:zeros --scheduler=wavefront --capacity=37 --layout=soa --scheduler-stats --check --validate | FileCheck %s --check-prefix=RUN-SOA
// RUN-SOA: wavefront: frame buffer: soa, 740 bytes
// RUN-SOA: check: wavefront matches the mega-kernel reference
// RUN: coro-run %s --coro=sums --grid=40 --arg=40 --buffer=i32:40:zeros --scheduler=persistent --layout=aosoa --persistent-batch=40 --persistent-shared-memory=1200 --persistent-steps=0 --scheduler-stats --check --validate | FileCheck %s --check-prefix=RUN-PT
// RUN-PT: persistent: {{.*}}, global memory extension 384 bytes
// RUN-PT: persistent: frames: aosoa, 32 of 40 slots per workgroup in workgroup memory
// RUN-PT: check: persistent matches the mega-kernel reference
// RUN: coro-run %s --coro=sums --grid=40 --arg=40 --buffer=i32:40:zeros --scheduler=persistent --layout=aosoa --persistent-batch=40 --persistent-shared-memory=1200 --json --quiet | FileCheck %s --check-prefix=JSON
// JSON: "frame_layout": "aosoa"
coro.func @sums(%n: index, %out: memref<?xi32>) {
  %id = coro.id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %rest = arith.subi %n, %id : index
  %sum = scf.for %k = %c0 to %rest step %c1 iter_args(%acc = %zero) -> (i32) {
    coro.suspend "step"
    %ki = arith.index_cast %k : index to i32
    %next = arith.addi %acc, %ki : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[%id] : memref<?xi32>
  coro.return
}

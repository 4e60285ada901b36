// RUN: coro-opt %s --split-input-file | FileCheck %s
// Round trip: custom form -> generic form -> custom form gives the same text.
// RUN: coro-opt %s --split-input-file --mlir-print-op-generic | coro-opt --split-input-file | FileCheck %s
// RUN: coro-opt %s --split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: coro.func @render(%arg0: i32, %arg1: memref<?xf32>) {
// CHECK-NEXT:    %[[ID:.*]] = coro.id : index
// CHECK-NEXT:    %{{.*}} = coro.id 0 : index
// CHECK-NEXT:    %{{.*}} = coro.id 2 : index
// CHECK-NEXT:    coro.suspend
// CHECK-NEXT:    coro.suspend "shade"
// CHECK-NEXT:    %[[V:.*]] = memref.load %arg1[%[[ID]]] : memref<?xf32>
// CHECK-NEXT:    coro.promise "radiance", %[[V]] : f32
// CHECK-NEXT:    coro.return
// CHECK-NEXT:  }
// GENERIC-LABEL: "coro.func"() <{function_type = (i32, memref<?xf32>) -> (), sym_name = "render"}>
// GENERIC:         "coro.id"() : () -> index
// GENERIC:         "coro.id"() <{dim = 0 : i32}> : () -> index
// GENERIC:         "coro.suspend"() : () -> ()
// GENERIC:         "coro.suspend"() <{tag = "shade"}> : () -> ()
// GENERIC:         "coro.promise"(%{{.*}}) <{name = "radiance"}> : (f32) -> ()
// GENERIC:         "coro.return"() : () -> ()
coro.func @render(%spp: i32, %image: memref<?xf32>) {
  %id = coro.id : index
  %x = coro.id 0 : index
  %z = coro.id 2 : index
  coro.suspend
  coro.suspend "shade"
  %v = memref.load %image[%id] : memref<?xf32>
  coro.promise "radiance", %v : f32
  coro.return
}

// -----

// A generator, and an await of a nested coroutine with vector and memref
// arguments.
// CHECK-LABEL: coro.func @range(%arg0: index) yields index {
// CHECK:         coro.yield %{{.*}} : index
// CHECK-LABEL: coro.func @trace(%arg0: vector<3xf32>, %arg1: memref<?xf32>) {
// CHECK-LABEL: coro.func @caller(%arg0: vector<3xf32>, %arg1: memref<?xf32>) {
// CHECK-NEXT:    coro.await @trace(%arg0, %arg1) : (vector<3xf32>, memref<?xf32>) -> ()
// GENERIC-LABEL: "coro.func"() <{function_type = (index) -> (), sym_name = "range", yield_type = index}>
// GENERIC:         "coro.yield"(%{{.*}}) : (index) -> ()
// GENERIC:       "coro.await"(%{{.*}}, %{{.*}}) <{callee = @trace}> : (vector<3xf32>, memref<?xf32>) -> ()
coro.func @range(%n: index) yields index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    coro.yield %i : index
  }
  coro.return
}
coro.func @trace(%ray: vector<3xf32>, %hits: memref<?xf32>) {
  coro.suspend "intersect"
  coro.return
}
coro.func @caller(%ray: vector<3xf32>, %hits: memref<?xf32>) {
  coro.await @trace(%ray, %hits) : (vector<3xf32>, memref<?xf32>) -> ()
  coro.return
}

// -----

// Suspension at depth in structured control flow, a multi-block body with an
// early return, visibility and attributes.
// CHECK-LABEL: coro.func private @nested(%arg0: i1, %arg1: index) attributes {fast} {
// CHECK:         scf.if %arg0 {
// CHECK:           scf.while
// CHECK:             coro.suspend "before"
// CHECK:             coro.suspend "after"
// CHECK:         scf.index_switch
// CHECK:           coro.suspend "case0"
// CHECK:         cf.cond_br %arg0, ^bb1, ^bb2
// CHECK:       ^bb1:
// CHECK-NEXT:    coro.return
// CHECK:       ^bb2:
// CHECK-NEXT:    coro.suspend "late"
// CHECK-NEXT:    coro.return
coro.func private @nested(%c: i1, %n: index) attributes {fast} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.if %c {
    %r = scf.while (%i = %c0) : (index) -> index {
      coro.suspend "before"
      %lt = arith.cmpi slt, %i, %n : index
      scf.condition(%lt) %i : index
    } do {
    ^bb0(%i: index):
      coro.suspend "after"
      %next = arith.addi %i, %c1 : index
      scf.yield %next : index
    }
  }
  scf.index_switch %n
  case 0 {
    coro.suspend "case0"
    scf.yield
  }
  default {
    scf.execute_region {
      coro.suspend
      scf.yield
    }
    scf.yield
  }
  cf.cond_br %c, ^early, ^rest
^early:
  coro.return
^rest:
  coro.suspend "late"
  coro.return
}

// -----

// Host-side launch over a 1-D and a 3-D grid.
// CHECK-LABEL: func.func @host(%arg0: index, %arg1: memref<?xf32>) {
// CHECK-NEXT:    coro.launch @kernel[%arg0](%arg1) : (memref<?xf32>) -> ()
// CHECK-NEXT:    coro.launch @kernel[%arg0, %arg0, %arg0](%arg1) : (memref<?xf32>) -> ()
// GENERIC-LABEL: "func.func"
// GENERIC:         "coro.launch"(%{{.*}}, %{{.*}}) <{callee = @kernel, operandSegmentSizes = array<i32: 1, 1>}> : (index, memref<?xf32>) -> ()
coro.func @kernel(%buf: memref<?xf32>) {
  coro.return
}
func.func @host(%n: index, %buf: memref<?xf32>) {
  coro.launch @kernel[%n](%buf) : (memref<?xf32>) -> ()
  coro.launch @kernel[%n, %n, %n](%buf) : (memref<?xf32>) -> ()
  return
}

// -----

// What coro-split produces: frame ops in subroutines and the transition graph.
// An unnamed field keeps the location of its value (an alias when printed).
// CHECK:       #[[V0:loc[0-9]*]] = loc("kernel.mlir":12:9)
// CHECK-LABEL: func.func @split__entry(%arg0: !coro.frame, %arg1: f32) {
// CHECK-NEXT:    %[[V:.*]] = coro.frame.load %arg0[0] : f32
// CHECK-NEXT:    coro.frame.store %[[V]], %arg0[0] : f32
// CHECK-NEXT:    %{{.*}} = coro.frame.id %arg0 : index
// CHECK-NEXT:    %{{.*}} = coro.frame.id %arg0 1 : index
// CHECK-NEXT:    coro.frame.set_target %arg0, -1
// CHECK:       coro.split @split subroutines [@split__entry] names ["entry"] fields [#coro.field<"x" : f32 at 2, promise>, #coro.field<"v0" : i1 at 3:5 #[[V0]]>, #coro.field<"v1" : index at 4>] transitions [array<i32: 0, -1>] {frame_bytes = {naive = 32 : i64}}
// GENERIC: "coro.frame.load"(%{{.*}}) <{slot = 0 : i64}> : (!coro.frame) -> f32
// GENERIC: "coro.split"() <{coroutine = @split, fields = [#coro.field<"x" : f32 at 2, promise>, #coro.field<"v0" : i1 at 3:5 #loc{{[0-9]*}}>, #coro.field<"v1" : index at 4>], frame_bytes = {naive = 32 : i64}, names = ["entry"], subroutines = [@split__entry], transitions = [array<i32: 0, -1>]}> : () -> ()
coro.func @split(%x: f32) {
  coro.return
}
func.func @split__entry(%frame: !coro.frame, %x: f32) {
  %v = coro.frame.load %frame[0] : f32
  coro.frame.store %v, %frame[0] : f32
  %id = coro.frame.id %frame : index
  %y = coro.frame.id %frame 1 : index
  coro.frame.set_target %frame, -1
  return
}
coro.split @split subroutines [@split__entry] names ["entry"] fields [#coro.field<"x" : f32 at 2, promise>, #coro.field<"v0" : i1 at 3:5 loc("kernel.mlir":12:9)>, #coro.field<"v1" : index at 4>] transitions [array<i32: 0, -1>] {frame_bytes = {naive = 32}}

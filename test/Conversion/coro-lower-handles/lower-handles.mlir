// RUN: coro-opt %s --split-input-file --coro-lower-handles | FileCheck %s

// A handle becomes a zeroed private frame with the instance index in its
// coro_id word (word 1); resuming by target token inlines every subroutine
// into an scf.index_switch on word 0, their frame accesses lowered onto the
// frame; target, done, id and the promise read the frame.
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  coro.promise "r", %x : f32
  coro.suspend "next"
  memref.store %x, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  %id = coro.frame.id %frame : index
  memref.store %x, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"r" : f32 at 2, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
// CHECK-LABEL: func.func @drive(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[X:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK:         %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// CHECK:         scf.for
// CHECK:           memref.store %{{.*}}, %[[FRAME]]
// CHECK:         %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:         memref.store %[[I32]], %[[FRAME]][%{{.*}}] : memref<3xi32>
// CHECK:         %[[TOKEN:.*]] = memref.load %[[FRAME]][%{{.*}}] : memref<3xi32>
// CHECK:         %[[CASE:.*]] = arith.index_cast %[[TOKEN]] : i32 to index
// CHECK:         scf.index_switch %[[CASE]]
// CHECK-NEXT:    case 0 {
// CHECK:           %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:           memref.store %[[BITS]], %[[FRAME]]
// CHECK:         case 1 {
// CHECK:           memref.store %[[X]], %[[OUT]]
// CHECK:         default {
// CHECK-NEXT:    }
// CHECK:         %[[T:.*]] = memref.load %[[FRAME]]
// CHECK:         %[[DONE:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:         %[[W:.*]] = memref.load %[[FRAME]]
// CHECK:         %[[ID:.*]] = arith.index_castui %[[W]] : i32 to index
// CHECK:         %[[R:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         return %[[T]], %[[DONE]], %[[ID]], %[[R]] : i32, i1, index, f32
// CHECK-NOT:     coro.handle
func.func @drive(%i: index, %x: f32, %out: memref<?xf32>) -> (i32, i1, index, f32) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  coro.handle.resume %h(%x, %out) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
  %t = coro.handle.target %h : !coro.handle<@f>
  %done = coro.handle.done %h : !coro.handle<@f>
  %id = coro.handle.id %h : !coro.handle<@f>
  %r = coro.handle.promise %h["r"] : !coro.handle<@f> -> f32
  return %t, %done, %id, %r : i32, i1, index, f32
}

// -----

// By tag: only that subroutine, behind a constant case; by token value: a
// switch on the given token.
coro.func @f(%x: f32, %out: memref<?xf32>) {
  %id = coro.id : index
  coro.suspend "next"
  memref.store %x, %out[%id] : memref<?xf32>
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32, %out: memref<?xf32>) {
  %id = coro.frame.id %frame : index
  memref.store %x, %out[%id] : memref<?xf32>
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 1 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
// CHECK-LABEL: func.func @by_tag_and_token(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[T:[^:]*]]: i32, %[[X:[^:]*]]: f32, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         scf.index_switch %[[ONE]]
// CHECK-NEXT:    case 1 {
// CHECK:           memref.store %[[X]], %[[OUT]]
// CHECK:         %[[CASE:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK:         scf.index_switch %[[CASE]]
// CHECK-NEXT:    case 0 {
// CHECK:         case 1 {
func.func @by_tag_and_token(%i: index, %t: i32, %x: f32, %out: memref<?xf32>) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  coro.handle.resume %h at "next"(%x, %out) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
  coro.handle.resume %h[%t](%x, %out) : !coro.handle<@f>, (f32, memref<?xf32>) -> ()
  return
}

// -----

// Buffers of frames: SoA (word w of slot i at w * count + i) and AoS (at
// i * frame_words + w); frame_words is a constant.
coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[N:[^:]*]]: index, %[[FRAMES:[^:]*]]: memref<?xi32>)
// The frames are allocated at the start of the function (a handle made in
// a loop does not grow the stack), and set where the handles are made.
// CHECK-NEXT:    %[[LOADED:.*]] = memref.alloca() : memref<2xi32>
// CHECK-NEXT:    %[[FRAME:.*]] = memref.alloca() : memref<2xi32>
// CHECK:         scf.for
// CHECK:         %[[W0:.*]] = memref.load %[[FRAME]]
// CHECK:         %[[W1:.*]] = memref.load %[[FRAME]]
// CHECK:         memref.store %[[W0]], %[[FRAMES]][%[[I]]]
// CHECK:         %[[SOA:.*]] = arith.addi %[[N]], %[[I]] : index
// CHECK:         memref.store %[[W1]], %[[FRAMES]][%[[SOA]]]
// CHECK:         %[[AOS:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:         %[[A0:.*]] = memref.load %[[FRAMES]][%[[AOS]]]
// CHECK:         memref.store %[[A0]], %[[LOADED]]
func.func @buffers(%i: index, %n: index, %frames: memref<?xi32>) -> i32 {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  coro.handle.store %h, %frames[%i] of %n : !coro.handle<@f>, memref<?xi32>
  %l = coro.handle.load @f %frames[%i] of %n aos : memref<?xi32> -> !coro.handle<@f>
  %t = coro.handle.target %l : !coro.handle<@f>
  return %t : i32
}

// -----

// A frame of @f is two words: the token and the instance.
coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
// CHECK-LABEL: func.func @frame_words(
// CHECK-NEXT:    %[[WORDS:.*]] = arith.constant 2 : index
// CHECK-NEXT:    return %[[WORDS]] : index
func.func @frame_words() -> index {
  %w = coro.handle.frame_words @f : index
  return %w : index
}

// -----

// A vector promise is kept as one field per lane; reading it gathers them
// (a generator's vector __yielded_value the same way).
coro.func @g(%x: f32) {
  %v = vector.broadcast %x : f32 to vector<2xf32>
  coro.promise "v", %v : vector<2xf32>
  coro.suspend "next"
  coro.return
}
// @g split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @g__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.store %x, %frame[0] : f32
  coro.frame.store %x, %frame[1] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @g__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @g subroutines [@g__entry, @g__next]
    names ["entry", "next"]
    fields [#coro.field<"v[0]" : f32 at 2, promise>, #coro.field<"v[1]" : f32 at 3, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 16 : i64, field_liveness = 16 : i64, naive = 16 : i64, slot_sharing = 16 : i64, split = 16 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
// CHECK-LABEL: func.func @vector_promise(
// CHECK:         %[[L0:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[L1:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[V:.*]] = vector.from_elements %[[L0]], %[[L1]] : vector<2xf32>
// CHECK:         return %[[V]] : vector<2xf32>
func.func @vector_promise(%i: index, %x: f32) -> vector<2xf32> {
  %h = coro.handle.create @g[%i] : !coro.handle<@g>
  coro.handle.resume %h(%x) : !coro.handle<@g>, (f32) -> ()
  %v = coro.handle.promise %h["v"] : !coro.handle<@g> -> vector<2xf32>
  return %v : vector<2xf32>
}

// -----

// coro.for_each: a frame of the generator, resumed in an scf.while that
// carries whether the body asked to stop; the body reads the yielded value
// from the frame.
coro.func @gen(%n: i32) yields i32 {
  coro.promise "__yielded_value", %n : i32
  coro.suspend "next"
  coro.return
}
// @gen split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @gen__entry(%frame: !coro.frame, %n: i32) {
  coro.frame.store %n, %frame[0] : i32
  coro.frame.set_target %frame, 1
  return
}
func.func @gen__next(%frame: !coro.frame, %n: i32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @gen subroutines [@gen__entry, @gen__next]
    names ["entry", "next"]
    fields [#coro.field<"__yielded_value" : i32 at 2, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
// CHECK-LABEL: func.func @range_for(
// CHECK-SAME:      %[[I:[^:]*]]: index, %[[N:[^:]*]]: i32, %[[LIMIT:[^:]*]]: i32)
// CHECK:         %[[FRAME:.*]] = memref.alloca() : memref<3xi32>
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         %[[LOOP:.*]]:2 = scf.while (%[[STOP:.*]] = %[[FALSE]], %[[ACC:.*]] = %[[N]]) : (i1, i32) -> (i1, i32) {
// CHECK:           %[[GO:.*]] = scf.if %[[STOP]] -> (i1) {
// CHECK-NEXT:        scf.yield %[[FALSE]] : i1
// CHECK-NEXT:      } else {
// CHECK:             scf.index_switch
// CHECK:             %[[MORE:.*]] = arith.xori %{{.*}}, %[[TRUE]] : i1
// CHECK-NEXT:        scf.yield %[[MORE]] : i1
// CHECK:           scf.condition(%[[GO]]) %[[STOP]], %[[ACC]] : i1, i32
// CHECK:         } do {
// CHECK:           %[[VALUE:.*]] = memref.load %[[FRAME]]
// CHECK:           %[[SUM:.*]] = arith.addi %{{.*}}, %[[VALUE]] : i32
// CHECK:           %[[BELOW:.*]] = arith.cmpi slt, %[[SUM]], %[[LIMIT]] : i32
// CHECK:           %[[STOPNEXT:.*]] = arith.xori %[[BELOW]], %[[TRUE]] : i1
// CHECK:           scf.yield %[[STOPNEXT]], %[[SUM]] : i1, i32
// CHECK:         return %[[LOOP]]#1 : i32
func.func @range_for(%i: index, %n: i32, %limit: i32) -> i32 {
  %r = coro.for_each @gen[%i](%n : i32) iter_args(%n : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    %sum = arith.addi %acc, %v : i32
    %below = arith.cmpi slt, %sum, %limit : i32
    coro.for_each.yield %below, %sum : i32
  }
  return %r : i32
}

// RUN: coro-opt %s --split-input-file --coro-lower-handles --verify-diagnostics

coro.func @f(%x: f32) {
  coro.promise "r", %x : f32
  coro.suspend "next"
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"r" : f32 at 2, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
func.func @unknown_tag(%i: index, %x: f32) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'coro.handle.resume' op resumes @f at "later", which is not one of its suspension points (its subroutines: entry, next)}}
  coro.handle.resume %h at "later"(%x) : !coro.handle<@f>, (f32) -> ()
  return
}

// -----

coro.func @f(%x: f32) {
  coro.promise "r", %x : f32
  coro.suspend "next"
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"r" : f32 at 2, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
func.func @unknown_promise(%i: index) -> f32 {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'coro.handle.promise' op reads promise field "radiance", which @f does not have (its promise fields: r)}}
  %v = coro.handle.promise %h["radiance"] : !coro.handle<@f> -> f32
  return %v : f32
}

// -----

coro.func @f(%x: f32) {
  coro.promise "r", %x : f32
  coro.suspend "next"
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"r" : f32 at 2, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 12 : i64, field_liveness = 12 : i64, naive = 12 : i64, slot_sharing = 12 : i64, split = 12 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
func.func @wrong_promise_type(%i: index) -> i32 {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'coro.handle.promise' op reads promise field "r" of @f as 'i32', but it holds 'f32'}}
  %v = coro.handle.promise %h["r"] : !coro.handle<@f> -> i32
  return %v : i32
}

// -----

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
func.func @through_iter_args(%i: index, %n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'scf.for' op takes a '!coro.handle<@f>' as a block argument: a handle can only be used where it is created, by coro.handle ops}}
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%g = %h) -> (!coro.handle<@f>) {
    scf.yield %g : !coro.handle<@f>
  }
  return
}

// -----

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
func.func private @keep(!coro.handle<@f>)
func.func @to_a_call(%i: index) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'func.call' op cannot take or give a !coro.handle: only coro.handle ops can (a handle is a frame in thread-private memory)}}
  func.call @keep(%h) : (!coro.handle<@f>) -> ()
  return
}

// -----

// @a's subroutines drive a frame of @b, whose subroutines drive one of @a.
coro.func @a(%i: index) {
  coro.suspend "next"
  %h = coro.handle.create @b[%i] : !coro.handle<@b>
  coro.handle.resume %h(%i) : !coro.handle<@b>, (index) -> ()
  coro.return
}
// @a split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @a__entry(%frame: !coro.frame, %i: index) {
  coro.frame.set_target %frame, 1
  return
}
func.func @a__next(%frame: !coro.frame, %i: index) {
  // expected-error @+1 {{'coro.handle.create' op drives a frame of @b from inside that coroutine's own subroutines (directly or through other coroutines): a frame cannot hold one of its own kind}}
  %0 = coro.handle.create @b[%i] : !coro.handle<@b>
  coro.handle.resume %0(%i) : !coro.handle<@b>, (index) -> ()
  coro.frame.set_target %frame, -1
  return
}
coro.split @a subroutines [@a__entry, @a__next]
    names ["entry", "next"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
coro.func @b(%i: index) {
  coro.suspend "next"
  %h = coro.handle.create @a[%i] : !coro.handle<@a>
  coro.handle.resume %h(%i) : !coro.handle<@a>, (index) -> ()
  coro.return
}
// @b split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @b__entry(%frame: !coro.frame, %i: index) {
  coro.frame.set_target %frame, 1
  return
}
func.func @b__next(%frame: !coro.frame, %i: index) {
  %0 = coro.handle.create @a[%i] : !coro.handle<@a>
  coro.handle.resume %0(%i) : !coro.handle<@a>, (index) -> ()
  coro.frame.set_target %frame, -1
  return
}
coro.split @b subroutines [@b__entry, @b__next]
    names ["entry", "next"]
    fields []
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 8 : i64, field_liveness = 8 : i64, naive = 8 : i64, slot_sharing = 8 : i64, split = 8 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}

// -----

coro.func @f(%x: f32) {
  %v = vector.broadcast %x : f32 to vector<3xf32>
  coro.promise "v", %v : vector<3xf32>
  coro.suspend "next"
  coro.return
}
// @f split (coro-split, coro-materialize-frame): its subroutines and coro.split.
func.func @f__entry(%frame: !coro.frame, %x: f32) {
  coro.frame.store %x, %frame[0] : f32
  coro.frame.store %x, %frame[1] : f32
  coro.frame.store %x, %frame[2] : f32
  coro.frame.set_target %frame, 1
  return
}
func.func @f__next(%frame: !coro.frame, %x: f32) {
  coro.frame.set_target %frame, -1
  return
}
coro.split @f subroutines [@f__entry, @f__next]
    names ["entry", "next"]
    fields [#coro.field<"v[0]" : f32 at 2, promise>,
            #coro.field<"v[1]" : f32 at 3, promise>,
            #coro.field<"v[2]" : f32 at 4, promise>]
    transitions [array<i32: 0, 1>, array<i32: 1, -1>]
    {frame_bytes = {bit_packing = 20 : i64, field_liveness = 20 : i64, naive = 20 : i64, slot_sharing = 20 : i64, split = 20 : i64}, statistics = {ops_recomputed = 0 : i64, values_live = 0 : i64, values_recomputed = 0 : i64, values_stored = 0 : i64}}
func.func @vector_of_other_length(%i: index) -> vector<2xf32> {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'coro.handle.promise' op reads promise field "v" of @f as 'vector<2xf32>', but it holds 'vector<3xf32>'}}
  %v = coro.handle.promise %h["v"] : !coro.handle<@f> -> vector<2xf32>
  return %v : vector<2xf32>
}

// RUN: coro-opt %s --split-input-file --verify-diagnostics

// Suspension points belong to coroutines: a callable is stackless.
// expected-note @+1 {{enclosing op is here}}
func.func @callable() {
  // expected-error @+1 {{'coro.suspend' op must be inside a 'coro.func', but is inside 'func.func' @callable; callables cannot suspend (they are stackless), use 'coro.await' on a 'coro.func' to suspend in a nested routine}}
  coro.suspend
  return
}

// -----

func.func @callable_nested(%c: i1) {
  // expected-note @-1 {{enclosing op is here}}
  scf.if %c {
    // expected-error @+1 {{'coro.suspend' op must be inside a 'coro.func', but is inside 'func.func' @callable_nested}}
    coro.suspend "deep"
  }
  return
}

// -----

// expected-error @+1 {{'coro.suspend' op must be inside a 'coro.func'}}
coro.suspend

// -----

func.func @id_in_callable() -> index {
  // expected-note @-1 {{enclosing op is here}}
  // expected-error @+1 {{'coro.id' op must be inside a 'coro.func', but is inside 'func.func' @id_in_callable}}
  %id = coro.id : index
  return %id : index
}

// -----

func.func @promise_in_callable(%v: f32) {
  // expected-note @-1 {{enclosing op is here}}
  // expected-error @+1 {{'coro.promise' op must be inside a 'coro.func', but is inside 'func.func' @promise_in_callable}}
  coro.promise "x", %v : f32
  return
}

// -----

coro.func @await_in_callable_callee() {
  coro.return
}
func.func @await_in_callable() {
  // expected-note @-1 {{enclosing op is here}}
  // expected-error @+1 {{'coro.await' op must be inside a 'coro.func', but is inside 'func.func' @await_in_callable}}
  coro.await @await_in_callable_callee() : () -> ()
  return
}

// -----

func.func @return_in_callable() {
  // expected-error @+1 {{'coro.return' op expects parent op 'coro.func'}}
  coro.return
}

// -----

// Parallel loops cannot be suspended iteration by iteration.
coro.func @in_scf_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{parallel loop is here}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error @+1 {{'coro.suspend' op cannot suspend inside 'scf.parallel': the iterations of a parallel loop cannot be suspended and resumed one by one}}
    coro.suspend
    scf.reduce
  }
  coro.return
}

// -----

coro.func @in_scf_forall(%n: index) {
  // expected-note @+1 {{parallel loop is here}}
  scf.forall (%i) in (%n) {
    // expected-error @+1 {{'coro.suspend' op cannot suspend inside 'scf.forall'}}
    coro.suspend
  }
  coro.return
}

// -----

coro.func @yield_in_forall(%n: index) yields index {
  // expected-note @+1 {{parallel loop is here}}
  scf.forall (%i) in (%n) {
    // expected-error @+1 {{'coro.yield' op cannot suspend inside 'scf.forall'}}
    coro.yield %i : index
  }
  coro.return
}

// -----

// Only structured control flow may enclose a suspension point.
coro.func @in_affine_parallel() {
  // expected-note @+1 {{enclosing op is here}}
  affine.parallel (%i) = (0) to (4) {
    // expected-error @+1 {{'coro.suspend' op cannot suspend inside 'affine.parallel': only structured control flow (scf.if, scf.for, scf.while, scf.index_switch, scf.execute_region) may enclose a suspension point}}
    coro.suspend
  }
  coro.return
}

// -----

// Tags name subroutines.
coro.func @duplicate_tags(%c: i1) {
  // expected-note @+1 {{first use is here}}
  coro.suspend "trace"
  scf.if %c {
    // expected-error @+1 {{'coro.suspend' op tag "trace" is already used in coroutine @duplicate_tags; tags name subroutines and must be unique}}
    coro.suspend "trace"
  }
  coro.return
}

// -----

coro.func @bad_tag() {
  // expected-error @+1 {{'coro.suspend' op tag "light sample" is not an identifier ([A-Za-z_][A-Za-z0-9_]*); it names the subroutine that resumes here}}
  coro.suspend "light sample"
  coro.return
}

// -----

coro.func @reserved_tag() {
  // expected-error @+1 {{'coro.suspend' op tag "entry" is reserved for the entry subroutine}}
  coro.suspend "entry"
  coro.return
}

// -----

// coro.id takes a grid dimension in 0..2.
coro.func @bad_dim() {
  // expected-error @+1 {{'coro.id' op attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 2}}
  %x = coro.id 3 : index
  coro.return
}

// -----

coro.func @bad_id_type() {
  // expected-error @+1 {{custom op 'coro.id' invalid kind of type specified: expected builtin.index, but found 'i32'}}
  %x = coro.id : i32
  coro.return
}

// -----

// Promises: reserved names, one type per field, frame-storable values.
coro.func @reserved_promise(%v: index) {
  // expected-error @+1 {{'coro.promise' op field name "target_token" is reserved for a special frame field}}
  coro.promise "target_token", %v : index
  coro.return
}

// -----

coro.func @reserved_promise_id(%v: index) {
  // expected-error @+1 {{'coro.promise' op field name "coro_id" is reserved for a special frame field}}
  coro.promise "coro_id", %v : index
  coro.return
}

// -----

coro.func @promise_type_clash(%a: f32, %b: i32) {
  // expected-note @+1 {{field first defined here}}
  coro.promise "hint", %a : f32
  // expected-error @+1 {{'coro.promise' op stores 'i32' into frame field "hint", which already holds 'f32'}}
  coro.promise "hint", %b : i32
  coro.return
}

// -----

coro.func @promise_memref(%m: memref<?xf32>) {
  // expected-error @+1 {{'coro.promise' op operand #0 must be integer, float, index or vector of those, but got 'memref<?xf32>'}}
  coro.promise "buffer", %m : memref<?xf32>
  coro.return
}

// -----

coro.func @yielded_value_outside_generator(%v: i32) {
  // expected-error @+1 {{'coro.promise' op field "__yielded_value" only exists in generators}}
  coro.promise "__yielded_value", %v : i32
  coro.return
}

// -----

coro.func @yielded_value_type(%v: i32) yields f32 {
  // expected-error @+1 {{'coro.promise' op field "__yielded_value" has the generator's yield type 'f32', not 'i32'}}
  coro.promise "__yielded_value", %v : i32
  coro.return
}

// -----

// Generators.
coro.func @yield_not_generator(%v: i32) {
  // expected-error @+1 {{'coro.yield' op only generators may yield; declare @yield_not_generator with yields 'i32'}}
  coro.yield %v : i32
  coro.return
}

// -----

coro.func @yield_type_mismatch(%v: i32) yields f32 {
  // expected-error @+1 {{'coro.yield' op yields 'i32', but @yield_type_mismatch yields 'f32'}}
  coro.yield %v : i32
  coro.return
}

// -----

// expected-error @+1 {{'coro.func' op yields 'memref<4xf32>', but a generator yields an integer, float, index or vector of those}}
coro.func @bad_yield_type() yields memref<4xf32> {
  coro.return
}

// -----

// Awaits: callee exists, is a coroutine, signature matches, no recursion.
coro.func @await_missing() {
  // expected-error @+1 {{'coro.await' op '@nowhere' does not reference a symbol in this module}}
  coro.await @nowhere() : () -> ()
  coro.return
}

// -----

// expected-note @+1 {{symbol defined here}}
func.func @plain() {
  return
}
coro.func @await_callable() {
  // expected-error @+1 {{'coro.await' op '@plain' is 'func.func' @plain, not a 'coro.func'; only coroutines can be awaited (call callables with 'func.call')}}
  coro.await @plain() : () -> ()
  coro.return
}

// -----

coro.func @callee(%a: f32) {
  coro.return
}
coro.func @await_arity() {
  // expected-error @+1 {{'coro.await' op passes 0 argument(s), but @callee takes 1}}
  coro.await @callee() : () -> ()
  coro.return
}

// -----

coro.func @callee(%a: f32) {
  coro.return
}
coro.func @await_types(%b: i32) {
  // expected-error @+1 {{'coro.await' op argument #0 has type 'i32', but @callee expects 'f32'}}
  coro.await @callee(%b) : (i32) -> ()
  coro.return
}

// -----

coro.func @gen() yields i32 {
  coro.return
}
coro.func @await_generator() {
  // expected-error @+1 {{'coro.await' op cannot await the generator @gen: the values it yields would be lost; consume a generator from a scheduler instead}}
  coro.await @gen() : () -> ()
  coro.return
}

// -----

coro.func @self() {
  // expected-error @+1 {{'coro.await' op recursive await: @self -> @self; coroutines are stackless and cannot recurse}}
  coro.await @self() : () -> ()
  coro.return
}

// -----

coro.func @ping() {
  // expected-error @+1 {{'coro.await' op recursive await: @ping -> @pong -> @ping; coroutines are stackless and cannot recurse}}
  coro.await @pong() : () -> ()
  coro.return
}
coro.func @pong() {
  coro.await @ping() : () -> ()
  coro.return
}

// -----

// coro.func itself.
// expected-error @+1 {{a coroutine returns no value; declare a generator with 'yields <type>' and produce values with 'coro.yield'}}
coro.func @returns_value() -> i32 {
  coro.return
}

// -----

// expected-error @+1 {{'coro.func' op argument #0 has type 'tensor<4xf32>'; coroutine arguments must be scalars (integer, float, index), vectors of scalars, or memrefs}}
coro.func @tensor_arg(%t: tensor<4xf32>) {
  coro.return
}

// -----

// expected-error @+1 {{'coro.func' op requires a body: coroutines cannot be declared externally, the compiler must see them to split them}}
"coro.func"() <{function_type = () -> (), sym_name = "external", sym_visibility = "private"}> ({
}) : () -> ()

// -----

coro.func @wrong_terminator() {
  // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
  func.return
}

// -----

// expected-error @+1 {{'coro.func' op must return no value, but its type has 1 result(s)}}
"coro.func"() <{function_type = () -> i32, sym_name = "generic_result"}> ({
  "coro.return"() : () -> ()
}) : () -> ()

// -----

coro.func @empty_promise_name(%v: f32) {
  // expected-error @+1 {{'coro.promise' op needs a non-empty field name}}
  coro.promise "", %v : f32
  coro.return
}

// -----

// Launches: host side only, a coroutine callee, 1-3 grid dimensions.
coro.func @kernel(%x: f32) {
  coro.return
}
func.func @launch_too_many_dims(%n: index, %x: f32) {
  // expected-error @+1 {{'coro.launch' op takes a grid of 1 to 3 dimensions, got 4}}
  coro.launch @kernel[%n, %n, %n, %n](%x) : (f32) -> ()
  return
}

// -----

coro.func @kernel(%x: f32) {
  coro.return
}
coro.func @launch_in_coroutine(%n: index, %x: f32) {
  // expected-error @+1 {{'coro.launch' op cannot launch from inside coroutine @launch_in_coroutine; use 'coro.await' to run a nested coroutine}}
  coro.launch @kernel[%n](%x) : (f32) -> ()
  coro.return
}

// -----

// expected-note @+1 {{symbol defined here}}
func.func @not_a_coroutine(%x: f32) {
  return
}
func.func @launch_callable(%n: index, %x: f32) {
  // expected-error @+1 {{'coro.launch' op '@not_a_coroutine' is 'func.func' @not_a_coroutine, not a 'coro.func'; only coroutines can be launched (call callables with 'func.call')}}
  coro.launch @not_a_coroutine[%n](%x) : (f32) -> ()
  return
}

// -----

coro.func @kernel(%x: f32) {
  coro.return
}
func.func @launch_types(%n: index, %x: i32) {
  // expected-error @+1 {{'coro.launch' op argument #0 has type 'i32', but @kernel expects 'f32'}}
  coro.launch @kernel[%n](%x) : (i32) -> ()
  return
}

// -----

// The transition graph must be consistent with its subroutines.
coro.func @g(%x: f32) {
  coro.return
}
func.func @g__entry(%frame: !coro.frame, %x: f32) {
  return
}
// expected-error @+1 {{'coro.split' op has 1 subroutines but 2 names}}
coro.split @g subroutines [@g__entry] names ["entry", "extra"] fields [] transitions []

// -----

coro.func @g(%x: f32) {
  coro.return
}
func.func @g__entry(%frame: !coro.frame, %x: f32) {
  return
}
// expected-error @+1 {{'coro.split' op transition [0, 3] names a token outside [-1, 1)}}
coro.split @g subroutines [@g__entry] names ["entry"] fields [] transitions [array<i32: 0, 3>]

// -----

coro.func @g(%x: f32) {
  coro.return
}
func.func @g__entry(%x: f32) {
  return
}
// expected-error @+1 {{'coro.split' op subroutine @g__entry must take (!coro.frame, the arguments of @g)}}
coro.split @g subroutines [@g__entry] names ["entry"] fields [] transitions []

// -----

// expected-error @+1 {{'coro.split' op needs at least the entry subroutine}}
coro.split @nothing subroutines [] names [] fields [] transitions []

// -----

func.func @not_coroutine(%frame: !coro.frame) {
  return
}
// expected-error @+1 {{'coro.split' op '@not_coroutine' does not reference a 'coro.func'}}
coro.split @not_coroutine subroutines [@not_coroutine] names ["entry"] fields [] transitions []

// -----

func.func @bad_frame_store(%frame: !coro.frame, %m: vector<4xf32>) {
  // expected-error @+1 {{'coro.frame.store' op operand #0 must be signless integer or floating-point or index, but got 'vector<4xf32>'}}
  coro.frame.store %m, %frame[0] : vector<4xf32>
  return
}

// -----

// Frame fields are scalars placed after the special fields, aligned to
// their size.
// expected-error @+1 {{frame field 'v' has type 'vector<2xf32>'; fields are signless integers, floats or index}}
func.func private @f() attributes {field = #coro.field<"v" : vector<2xf32> at 2>}

// -----

// A field's location is a location.
// expected-error @+1 {{expected a location, loc(...)}}
func.func private @f() attributes {field = #coro.field<"v" : f32 at 2 "kernel.mlir">}

// -----

// expected-error @+1 {{frame field 'v' at word 1 overlaps the special fields (words 0-1)}}
func.func private @f() attributes {field = #coro.field<"v" : f32 at 1>}

// -----

// expected-error @+1 {{frame field 'v' of 16 bits cannot start at bit 8 of a word}}
func.func private @f() attributes {field = #coro.field<"v" : i16 at 2:8>}

// -----

// expected-error @+1 {{frame field 'v' of 32 bits cannot start at bit 1 of a word}}
func.func private @f() attributes {field = #coro.field<"v" : f32 at 2:1>}

// -----

coro.func @g(%x: f32) {
  coro.return
}
func.func @g__entry(%frame: !coro.frame, %x: f32) {
  return
}
// expected-error @+1 {{'coro.split' op promise field 'out' shares storage with 'v0'; promise fields must have storage of their own}}
coro.split @g subroutines [@g__entry] names ["entry"] fields [#coro.field<"out" : i64 at 2, promise>, #coro.field<"v0" : i1 at 3:31>] transitions []

// -----

// Subroutines have bodies whose frame accesses match the fields.
coro.func @g(%x: f32) {
  coro.return
}
func.func private @g__entry(%frame: !coro.frame, %x: f32)
// expected-error @+1 {{'coro.split' op subroutine @g__entry has no body}}
coro.split @g subroutines [@g__entry] names ["entry"] fields [] transitions []

// -----

coro.func @h(%x: f32) {
  coro.return
}
func.func @h__entry(%frame: !coro.frame, %x: f32) {
  // expected-error @+1 {{'coro.frame.load' op reads field 3 but @h has 1 frame fields}}
  %v = coro.frame.load %frame[3] : f32
  coro.frame.set_target %frame, -1
  return
}
coro.split @h subroutines [@h__entry] names ["entry"] fields [#coro.field<"v0" : f32 at 2>] transitions []

// -----

coro.func @k(%x: f32) {
  coro.return
}
func.func @k__entry(%frame: !coro.frame, %x: f32) {
  // expected-error @+1 {{'coro.frame.store' op stores a value of type 'f32' into field 0 ('v0') of type 'i32'}}
  coro.frame.store %x, %frame[0] : f32
  coro.frame.set_target %frame, -1
  return
}
coro.split @k subroutines [@k__entry] names ["entry"] fields [#coro.field<"v0" : i32 at 2>] transitions []

// -----

coro.func @m(%x: f32) {
  coro.return
}
func.func private @use_frame(!coro.frame) -> f32
func.func @m__entry(%frame: !coro.frame, %x: f32) {
  // expected-error @+1 {{'func.call' op uses the frame of subroutine @m__entry; only coro.frame.load, coro.frame.store, coro.frame.set_target and coro.frame.id may}}
  %v = func.call @use_frame(%frame) : (!coro.frame) -> f32
  coro.frame.set_target %frame, -1
  return
}
coro.split @m subroutines [@m__entry] names ["entry"] fields [] transitions []

// -----

// Thread and workgroup ids differ from one scheduler to another: an
// instance resumes in whichever thread its scheduler picks.
coro.func @thread_id(%out: memref<?xf32>) {
  // expected-error @below {{'gpu.thread_id' op cannot be used in coroutine @thread_id: an instance resumes in whichever thread and workgroup its scheduler picks}}
  %t = gpu.thread_id x
  %one = arith.constant 1.0 : f32
  memref.store %one, %out[%t] : memref<?xf32>
  coro.return
}

// -----

coro.func @block_id_in_loop(%out: memref<?xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'gpu.block_id' op cannot be used in coroutine @block_id_in_loop}}
    %b = gpu.block_id x
    memref.store %b, %out[%i] : memref<?xindex>
  }
  coro.return
}

// -----

coro.func @barrier(%out: memref<?xf32>) {
  // expected-error @below {{'gpu.barrier' op cannot be used in coroutine @barrier: the threads of a workgroup run different instances at different suspension points (or none), so a barrier in an instance would wait for threads that never reach it}}
  gpu.barrier
  coro.return
}

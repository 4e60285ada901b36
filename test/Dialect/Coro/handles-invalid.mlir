// RUN: coro-opt %s --split-input-file --verify-diagnostics

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
func.func @wrong_handle(%i: index) {
  // expected-error @+1 {{'coro.handle.create' op names @f but its handle is a '!coro.handle<@g>'}}
  %h = coro.handle.create @f[%i] : !coro.handle<@g>
  return
}

// -----

// expected-note @+1 {{symbol defined here}}
func.func @callable() {
  return
}
func.func @not_a_coroutine(%i: index) {
  // expected-error @+1 {{'coro.handle.create' op '@callable' is 'func.func' @callable, not a 'coro.func': only coroutines have frames}}
  %h = coro.handle.create @callable[%i] : !coro.handle<@callable>
  return
}

// -----

func.func @missing(%i: index) {
  // expected-error @+1 {{'coro.handle.create' op '@nowhere' does not reference a symbol in this module}}
  %h = coro.handle.create @nowhere[%i] : !coro.handle<@nowhere>
  return
}

// -----

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
func.func @wrong_arguments(%i: index, %y: i32) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'coro.handle.resume' op argument #0 has type 'i32', but @f expects 'f32'}}
  coro.handle.resume %h(%y) : !coro.handle<@f>, (i32) -> ()
  return
}

// -----

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
func.func @too_few(%i: index) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'coro.handle.resume' op passes 0 argument(s), but @f takes 1}}
  coro.handle.resume %h() : !coro.handle<@f>, () -> ()
  return
}

// -----

coro.func @f(%x: f32) {
  coro.suspend "next"
  coro.return
}
func.func @token_and_tag(%i: index, %t: i32, %x: f32) {
  %h = coro.handle.create @f[%i] : !coro.handle<@f>
  // expected-error @+1 {{'coro.handle.resume' op takes a token or a tag, not both}}
  coro.handle.resume %h[%t] at "next"(%x) : !coro.handle<@f>, (f32) -> ()
  return
}

// -----

func.func @load_wrong_handle(%i: index, %frames: memref<?xi32>) {
  // expected-error @+1 {{'coro.handle.load' op names @f but its handle is a '!coro.handle<@g>'}}
  %h = coro.handle.load @f %frames[%i] of %i : memref<?xi32> -> !coro.handle<@g>
  return
}

// -----

func.func @frame_words_of_nothing() {
  // expected-error @+1 {{'coro.handle.frame_words' op '@nothing' does not reference a symbol in this module}}
  %n = coro.handle.frame_words @nothing : index
  return
}

// -----

func.func @wrong_buffer(%i: index, %frames: memref<?xf32>) {
  // expected-error @+1 {{'coro.handle.load' op operand #0 must be 1D memref of 32-bit signless integer values}}
  %h = coro.handle.load @f %frames[%i] of %i : memref<?xf32> -> !coro.handle<@f>
  return
}

// -----

coro.func @not_a_generator(%n: i32) {
  coro.return
}
func.func @range_for_plain(%i: index, %n: i32) {
  %true = arith.constant true
  // expected-error @+1 {{'coro.for_each' op @not_a_generator yields nothing: only a generator (a 'coro.func ... yields T') can drive coro.for_each}}
  coro.for_each @not_a_generator[%i](%n : i32) {
  ^bb0(%v: i32):
    coro.for_each.yield %true
  }
  return
}

// -----

coro.func @gen(%n: i32) yields i32 {
  coro.yield %n : i32
  coro.return
}
func.func @range_for_wrong_value(%i: index, %n: i32) {
  %true = arith.constant true
  // expected-error @+1 {{'coro.for_each' op body takes a 'f32' but @gen yields 'i32'}}
  coro.for_each @gen[%i](%n : i32) {
  ^bb0(%v: f32):
    coro.for_each.yield %true
  }
  return
}

// -----

coro.func @gen(%n: i32) yields i32 {
  coro.yield %n : i32
  coro.return
}
func.func @range_for_wrong_carried(%i: index, %n: i32, %x: f32) {
  %true = arith.constant true
  %r = coro.for_each @gen[%i](%n : i32) iter_args(%n : i32) -> (i32) {
  ^bb0(%v: i32, %acc: i32):
    // expected-error @+1 {{'coro.for_each.yield' op carries 'f32', but the loop carries 'i32'}}
    coro.for_each.yield %true, %x : f32
  }
  return
}

// -----

// A carried buffer would be a pointer in a variable, which SPIR-V's logical
// addressing forbids (it reached the conversion as a ub.poison memref).
coro.func @gen(%n: i32) yields i32 {
  coro.yield %n : i32
  coro.return
}
coro.func @range_for_carried_memref(%n: i32, %out: memref<?xi32>) {
  %id = coro.id : index
  // expected-error @+1 {{'coro.for_each' op cannot carry a memref ('memref<?xi32>') in its iter_args: use the buffer in the body directly}}
  %r = coro.for_each @gen[%id](%n : i32) iter_args(%out : memref<?xi32>) -> (memref<?xi32>) {
  ^bb0(%v: i32, %buf: memref<?xi32>):
    memref.store %v, %buf[%id] : memref<?xi32>
    %t = arith.constant true
    coro.for_each.yield %t, %buf : memref<?xi32>
  }
  coro.return
}

// -----

coro.func @gen(%n: i32) yields i32 {
  coro.yield %n : i32
  coro.return
}
func.func @range_for_wrong_arguments(%i: index, %x: f32) {
  %true = arith.constant true
  // expected-error @+1 {{'coro.for_each' op argument #0 has type 'f32', but @gen expects 'i32'}}
  coro.for_each @gen[%i](%x : f32) {
  ^bb0(%v: i32):
    coro.for_each.yield %true
  }
  return
}

// -----

coro.func @gen(%n: i32) yields i32 {
  // expected-note @+1 {{suspends here}}
  coro.suspend "between"
  coro.yield %n : i32
  coro.return
}
func.func @range_for_other_suspension(%i: index, %n: i32) {
  %true = arith.constant true
  // expected-error @+1 {{'coro.for_each' op consumes @gen, which also suspends where it does not yield: the body would run at those suspensions too; use coro.handle ops to skip them}}
  coro.for_each @gen[%i](%n : i32) {
  ^bb0(%v: i32):
    coro.for_each.yield %true
  }
  return
}

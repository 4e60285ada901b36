//===- CoroOps.td - coro dialect operations ----------------*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every op of the coro dialect, with its description (the reference page
// docs/reference/CoroDialect.md is generated from it). One file, as
// upstream dialects keep their ops (SCFOps.td, GPUOps.td): over 700 lines
// because 27 ops are documented where they are defined.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_IR_COROOPS_TD
#define COROGPU_DIALECT_CORO_IR_COROOPS_TD

include "CoroGPU/Dialect/Coro/IR/CoroAttrs.td"
include "CoroGPU/Dialect/Coro/IR/CoroBase.td"
include "CoroGPU/Dialect/Coro/IR/CoroTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Traits shared by the ops that live in a coroutine body
//===----------------------------------------------------------------------===//

/// The op must be nested (at any depth) in a `coro.func`, not in a callable.
def InCoroutine : NativeOpTrait<"coro::InCoroutine"> {
  let cppNamespace = "::mlir::OpTrait";
}

/// The op suspends the coroutine: besides being in a `coro.func`, every region
/// between it and the coroutine must be structured control flow that the
/// splitter can replay (no parallel loop, no nested function).
def SuspensionPoint : NativeOpTrait<"coro::SuspensionPoint"> {
  let cppNamespace = "::mlir::OpTrait";
}

/// What a frame field can hold: scalars and vectors of scalars.
def Coro_ScalarType : AnyTypeOf<[AnySignlessInteger, AnyFloat, Index]>;
def Coro_FrameFieldType : AnyTypeOf<[Coro_ScalarType,
                                     VectorOfAnyRankOf<[Coro_ScalarType]>],
                                    "integer, float, index or vector of those">;

//===----------------------------------------------------------------------===//
// coro.func
//===----------------------------------------------------------------------===//

def Coro_FuncOp : Coro_Op<"func", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove
  ]> {
  let summary = "A coroutine: a kernel body that may suspend";
  let description = [{
    Defines a stackless, void-returning coroutine. One instance runs per point
    of the dispatch grid; `coro.id` gives its index. The arguments are scalars
    (integers, floats, indices, vectors of those) shared by all instances and
    memrefs (buffers); both are passed to every subroutine after the split and
    never stored in the frame.

    The body is an SSACFG region: it may have several blocks joined by `cf`
    branches, each path ending in `coro.return`. It may contain ops of the
    arith, math, index, scf, cf, memref and vector dialects, `func.call` to
    callables of the same module, and the coroutine ops of this dialect.

    With `yields T` the coroutine is a generator: it produces values of type
    `T` with `coro.yield`, which the consumer (a scheduler) reads from the
    frame field `__yielded_value` at each suspension.

    Example:

    ```mlir
    coro.func @render(%spp: i32, %image: memref<?xf32>) {
      %id = coro.id : index
      coro.suspend "trace"
      coro.return
    }

    coro.func @range(%n: i32) yields i32 {
      ...
      coro.yield %i : i32
      ...
    }
    ```
  }];

  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<TypeAttr>:$yield_type);
  let regions = (region AnyRegion:$body);

  let builders = [OpBuilder<(ins
    "::llvm::StringRef":$name, "::mlir::FunctionType":$type,
    CArg<"::mlir::Type", "{}">:$yieldType,
    CArg<"::llvm::ArrayRef<::mlir::NamedAttribute>", "{}">:$attrs)>];

  let extraClassDeclaration = [{
    /// True when the coroutine was declared with `yields T`.
    bool isGenerator() { return static_cast<bool>(getYieldTypeAttr()); }

    //===------------------------------------------------------------------===//
    // FunctionOpInterface
    //===------------------------------------------------------------------===//

    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }

    //===------------------------------------------------------------------===//
    // SymbolOpInterface
    //===------------------------------------------------------------------===//

    bool isDeclaration() { return isExternal(); }
  }];

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// coro.return
//===----------------------------------------------------------------------===//

def Coro_ReturnOp : Coro_Op<"return", [
    Pure, HasParent<"FuncOp">, ReturnLike, Terminator
  ]> {
  let summary = "Terminates the coroutine instance";
  let description = [{
    Ends the coroutine instance: its frame is released and the scheduler never
    resumes it again. Coroutines return nothing, so the op has no operands.
    Any block of the body may end with it (an early return is a conditional
    branch to such a block).

    ```mlir
    coro.return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// coro.suspend
//===----------------------------------------------------------------------===//

def Coro_SuspendOp : Coro_Op<"suspend", [SuspensionPoint]> {
  let summary = "Suspension point: splits the coroutine here";
  let description = [{
    Marks a point where the coroutine gives control back to its scheduler.
    Everything executed after it, up to the next suspension point or the end of
    the coroutine, becomes one subroutine; the values live across it are saved
    in the frame.

    The optional tag names the subroutine that resumes after this point; it is
    stable across compilations, so schedulers, reports and `coro-run` options
    can refer to it. Tags are unique within one coroutine.

    The op may appear at any depth of `scf.if`, `scf.for`, `scf.while`,
    `scf.index_switch`, `scf.execute_region` and of `cf` control flow, but not
    inside a parallel loop (`scf.parallel`, `scf.forall`) nor in a callable.

    ```mlir
    coro.suspend           // anonymous
    coro.suspend "shade"   // tagged
    ```
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$tag);
  let assemblyFormat = "($tag^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// coro.promise
//===----------------------------------------------------------------------===//

def Coro_PromiseOp : Coro_Op<"promise", [InCoroutine]> {
  let summary = "Stores a value into a named field of the frame";
  let description = [{
    Designates a named field of the coroutine's frame (the paper's `$promise`)
    and stores `value` into it. Promise fields are laid out right after the
    special fields, under their name, so a scheduler or the host can read them
    (e.g. a material id to sort instances by, or a generator's yielded value).
    All promises of one name in a coroutine have the same type.

    The names `coro_id` and `target_token` are reserved for the special frame
    fields; `__yielded_value` is the field written by `coro.yield` and must
    have the generator's yield type.

    ```mlir
    coro.promise "radiance", %L : f32
    ```
  }];
  let arguments = (ins StrAttr:$name, Coro_FrameFieldType:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// coro.await
//===----------------------------------------------------------------------===//

def Coro_AwaitOp : Coro_Op<"await", [
    SuspensionPoint, DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Runs a nested coroutine to completion, suspending with it";
  let description = [{
    Chained suspension (the paper's `$await`): runs the coroutine `callee` with
    the given arguments for the current instance, and suspends the caller
    wherever the callee suspends. When the callee returns, the caller continues
    after the await. The callee must be a `coro.func` of the same module with a
    matching signature; awaits may not form a cycle (coroutines are stackless,
    so recursion has no frame to live in). Awaiting a generator is rejected:
    its yielded values would be lost.

    ```mlir
    coro.await @trace(%ray, %hits) : (vector<3xf32>, memref<?xf32>) -> ()
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// coro.yield
//===----------------------------------------------------------------------===//

def Coro_YieldOp : Coro_Op<"yield", [SuspensionPoint]> {
  let summary = "Produces a value from a generator and suspends";
  let description = [{
    The paper's `$yield`: stores `value` in the frame field `__yielded_value`
    and suspends, so that the consumer can read the value before it resumes the
    generator. Only valid in a coroutine declared with `yields T`, with a
    value of type `T`. `coro-expand-yield` rewrites it into exactly that
    `coro.promise` + `coro.suspend` pair.

    ```mlir
    coro.yield %i : i32
    ```
  }];
  let arguments = (ins Coro_FrameFieldType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// coro.id
//===----------------------------------------------------------------------===//

def Coro_IdOp : Coro_Op<"id", [Pure, InCoroutine]> {
  let summary = "Index of the current coroutine instance in the grid";
  let description = [{
    Without `dim`, the linear index of this instance in the dispatch grid
    (`x + X * (y + Y * z)` for a grid of size `X x Y x Z`). With `dim` in
    0..2, that component of the 3-D grid index. The value is the same
    before and after every suspension: the frame keeps it in its special
    `coro_id` field.

    ```mlir
    %id = coro.id : index     // linear index
    %x  = coro.id 0 : index   // x component
    ```
  }];
  let arguments = (ins
    OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "($dim^)? attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// coro.launch
//===----------------------------------------------------------------------===//

def Coro_LaunchOp : Coro_Op<"launch", [
    AttrSizedOperandSegments, DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Runs a coroutine once per point of a grid (host side)";
  let description = [{
    Runs one instance of the coroutine `callee` for every point of a 1-, 2-
    or 3-D grid, each to completion, with the given arguments; returns when
    all instances have returned. This is the host-side request that a
    scheduler materializes: the mega-kernel reference, a state machine, a
    wavefront or persistent-threads loop. Instances are independent and their
    order is unspecified. It may not appear inside a coroutine (use
    `coro.await` there).

    ```mlir
    coro.launch @render[%width, %height](%spp, %image)
        : (i32, memref<?xf32>) -> ()
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<Index>:$grid,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $callee `[` $grid `]` `` `(` $args `)` attr-dict `:`
    functional-type($args, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Frames that user code drives: the paper's low-level interfaces
//
// Any code (a `coro.func`, a `func.func`, a kernel) can instantiate a
// coroutine's frame and resume its subroutines itself (paper Sec. 4.1.3 and
// 4.1.4, Listings 3 to 5). The ops name the coroutine before it is split;
// `coro-lower-handles` resolves them after `coro-split` and
// `coro-materialize-frame`.
//===----------------------------------------------------------------------===//

def Coro_HandleCreateOp : Coro_Op<"handle.create", [
    MemoryEffects<[MemAlloc, MemWrite]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Instantiates a frame of a coroutine for an instance index";
  let description = [{
    A new frame of `coroutine` (the paper's `coro.instantiate(index)`):
    thread-private, its target token the entry's (0), its `coro_id` the given
    linear instance index, which `coro.id` returns in the coroutine's
    subroutines (`coro.id 0` too; `coro.id 1` and `coro.id 2` give 0).

    ```mlir
    %h = coro.handle.create @parity[%i] : !coro.handle<@parity>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$coroutine, Index:$instance);
  let results = (outs Coro_HandleType:$handle);
  let assemblyFormat = [{
    $coroutine `[` $instance `]` attr-dict `:` qualified(type($handle))
  }];
}

def Coro_HandleResumeOp : Coro_Op<"handle.resume", [
    AttrSizedOperandSegments, DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Runs one subroutine of a frame's coroutine";
  let description = [{
    Runs one subroutine of the handle's coroutine on its frame with the
    coroutine's arguments `args` (the paper's `coro[token](frame, ...)` and
    `coro["tag"](frame, ...)`, Listing 3):

    - with neither a token nor a tag, the subroutine the frame's target
      token names (the entry for a new frame): what a state machine does;
    - with `[%token]` (an `i32`), the subroutine of that token (0: the entry);
    - with `at "tag"`, the subroutine that resumes after the suspension point
      of that tag (`"entry"`: the entry).

    The subroutine runs until the coroutine suspends again or returns, and
    updates the target token. A token that names no subroutine (-1, the
    coroutine has returned) runs nothing. Resuming a subroutine other than
    the one the target token names is the user's responsibility (paper Sec.
    4.1.3): the frame holds only what the transition graph says.

    ```mlir
    coro.handle.resume %h(%scale, %out)
        : !coro.handle<@parity>, (f32, memref<?xf32>) -> ()
    coro.handle.resume %h at "odd"(%scale, %out)
        : !coro.handle<@parity>, (f32, memref<?xf32>) -> ()
    coro.handle.resume %h[%t](%scale, %out)
        : !coro.handle<@parity>, (f32, memref<?xf32>) -> ()
    ```
  }];
  let arguments = (ins Coro_HandleType:$handle, Optional<I32>:$token,
                       OptionalAttr<StrAttr>:$tag, Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $handle (`[` $token^ `]`)? (`at` $tag^)? `(` $args `)` attr-dict `:`
    qualified(type($handle)) `,` functional-type($args, results)
  }];
  let hasVerifier = 1;
}

def Coro_HandleTargetOp : Coro_Op<"handle.target",
    [MemoryEffects<[MemRead]>]> {
  let summary = "The target token of a frame";
  let description = [{
    The token of the subroutine the frame resumes with next (the paper's
    `frame.target_token`): 0 for a new frame, -1 once the coroutine returned.

    ```mlir
    %t = coro.handle.target %h : !coro.handle<@parity>
    ```
  }];
  let arguments = (ins Coro_HandleType:$handle);
  let results = (outs I32:$token);
  let assemblyFormat = "$handle attr-dict `:` qualified(type($handle))";
}

def Coro_HandleDoneOp : Coro_Op<"handle.done", [MemoryEffects<[MemRead]>]> {
  let summary = "Whether a frame's coroutine has returned";
  let description = [{
    True once the coroutine returned (its target token is -1).

    ```mlir
    %done = coro.handle.done %h : !coro.handle<@parity>
    ```
  }];
  let arguments = (ins Coro_HandleType:$handle);
  let results = (outs I1:$done);
  let assemblyFormat = "$handle attr-dict `:` qualified(type($handle))";
}

def Coro_HandleIdOp : Coro_Op<"handle.id", [MemoryEffects<[MemRead]>]> {
  let summary = "The instance index a frame was created for";
  let description = [{
    The frame's `coro_id` (the paper's `frame.coro_id`).

    ```mlir
    %i = coro.handle.id %h : !coro.handle<@parity>
    ```
  }];
  let arguments = (ins Coro_HandleType:$handle);
  let results = (outs Index:$instance);
  let assemblyFormat = "$handle attr-dict `:` qualified(type($handle))";
}

def Coro_HandlePromiseOp : Coro_Op<"handle.promise",
    [MemoryEffects<[MemRead]>]> {
  let summary = "Reads a promise field of a frame by name";
  let description = [{
    The value the coroutine last stored with `coro.promise` under `name`
    (the paper's `frame.get<T>("name")`); `"__yielded_value"` is a
    generator's last yielded value. The result type must be the field's.
    Before the coroutine first stores it, the field reads as 0.

    ```mlir
    %r = coro.handle.promise %h["r"] : !coro.handle<@parity> -> i32
    ```
  }];
  let arguments = (ins Coro_HandleType:$handle, StrAttr:$name);
  let results = (outs Coro_FrameFieldType:$value);
  let assemblyFormat = [{
    $handle `[` $name `]` attr-dict `:` qualified(type($handle)) `->`
    type($value)
  }];
}

def Coro_HandleFrameWordsOp : Coro_Op<"handle.frame_words", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "The 32-bit words of one frame of a coroutine";
  let description = [{
    How many 32-bit words one frame of `coroutine` takes once it is split and
    its frame materialized: what a buffer of frames needs per instance
    (`coro.handle.store`, `coro.handle.load`).

    ```mlir
    %w = coro.handle.frame_words @parity : index
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$coroutine);
  let results = (outs Index:$words);
  let assemblyFormat = "$coroutine attr-dict `:` type($words)";
}

def Coro_HandleStoreOp : Coro_Op<"handle.store",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Stores a frame into a buffer of frames";
  let description = [{
    Copies the frame into slot `index` of a buffer of `count` frames of
    32-bit words (`coro.handle.frame_words` each): SoA by default (word `w`
    of slot `i` at `w * count + i`, what a kernel over consecutive slots
    reads best), AoS with `aos` (at `i * frame_words + w`).

    ```mlir
    coro.handle.store %h, %frames[%i] of %n : !coro.handle<@parity>, memref<?xi32>
    ```
  }];
  let arguments = (ins Coro_HandleType:$handle, MemRefRankOf<[I32], [1]>:$buffer,
                       Index:$index, Index:$count, UnitAttr:$aos);
  let assemblyFormat = [{
    $handle `,` $buffer `[` $index `]` `of` $count (`aos` $aos^)? attr-dict
    `:` qualified(type($handle)) `,` type($buffer)
  }];
}

def Coro_HandleLoadOp : Coro_Op<"handle.load", [
    MemoryEffects<[MemAlloc, MemRead, MemWrite]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "Loads a frame from a buffer of frames";
  let description = [{
    A frame of `coroutine` with the contents of slot `index` of a buffer of
    `count` frames, laid out as `coro.handle.store` says. A buffer of zeros
    holds new frames (target token 0, instance 0).

    ```mlir
    %h = coro.handle.load @parity %frames[%i] of %n : memref<?xi32> -> !coro.handle<@parity>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$coroutine,
                       MemRefRankOf<[I32], [1]>:$buffer, Index:$index,
                       Index:$count, UnitAttr:$aos);
  let results = (outs Coro_HandleType:$handle);
  let assemblyFormat = [{
    $coroutine $buffer `[` $index `]` `of` $count (`aos` $aos^)? attr-dict
    `:` type($buffer) `->` qualified(type($handle))
  }];
}

def Coro_ForEachOp : Coro_Op<"for_each", [
    AttrSizedOperandSegments, DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    SingleBlock
  ]> {
  let summary = "Runs a loop body for each value a generator yields";
  let description = [{
    The paper's range-for over a generator (Listing 1,
    `for (UInt x : generate_numbers(100u))`): instantiates a frame of the
    generator `generator` (a `coro.func ... yields T`) for instance
    `instance`, and runs the body once per value it yields, with the value
    and the loop-carried values `iter_args`, until the generator returns or
    the body ends the loop early: its terminator `coro.for_each.yield` gives
    whether to go on, then the next carried values. The results are the last
    carried values. The body may suspend when the loop is in a coroutine
    (not yet in one that is itself driven or consumed elsewhere). The
    generator must suspend only where it yields (the body runs at each of
    its suspensions); one that returns without yielding never runs the body.
    The carried values are scalars and vectors, not memrefs (a loop-carried
    buffer would be a pointer held in a variable, which Vulkan's logical
    addressing forbids): the body uses a buffer directly instead.
    `coro-lower-handles` lowers it to `coro.handle` ops in an `scf.while`.

    ```mlir
    %sum = coro.for_each @digits[%id](%seed : i32)
        iter_args(%zero : i32) -> (i32) {
    ^bb0(%digit: i32, %acc: i32):
      %next = arith.addi %acc, %digit : i32
      %go = arith.cmpi slt, %next, %limit : i32
      coro.for_each.yield %go, %next : i32
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$generator, Index:$instance,
                       Variadic<AnyType>:$args, Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $generator `[` $instance `]` `` `(` ($args^ `:` type($args))? `)`
    (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    (`->` `(` type($results)^ `)`)? $body attr-dict
  }];
  let hasVerifier = 1;
}

def Coro_ForEachYieldOp : Coro_Op<"for_each.yield", [
    Pure, Terminator, HasParent<"ForEachOp">
  ]> {
  let summary = "Ends an iteration of coro.for_each";
  let description = [{
    Whether `coro.for_each` takes the generator's next value (`false` ends
    the loop early, as a `break`), and the values carried to the next
    iteration (or out of the loop).
  }];
  let arguments = (ins I1:$goOn, Variadic<AnyType>:$values);
  let assemblyFormat = [{
    $goOn (`,` $values^ `:` type($values))? attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Split coroutines: frames, checkpoints and the transition graph
//
// These ops are produced by `coro-split` and consumed by schedulers; users
// normally do not write them.
//===----------------------------------------------------------------------===//

def Coro_FrameLoadOp : Coro_Op<"frame.load", [MemoryEffects<[MemRead]>]> {
  let summary = "Reads a slot of the frame";
  let description = [{
    Reads slot `slot` of the instance's frame; a subroutine loads the state
    it needs when it resumes.

    ```mlir
    %v = coro.frame.load %frame[2] : f32
    ```
  }];
  let arguments = (ins Coro_FrameType:$frame, I64Attr:$slot);
  let results = (outs Coro_ScalarType:$result);
  let assemblyFormat = "$frame `[` $slot `]` attr-dict `:` type($result)";
}

def Coro_FrameStoreOp : Coro_Op<"frame.store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Writes a slot of the frame";
  let description = [{
    Writes `value` into slot `slot` of the instance's frame; a subroutine
    stores the state its successor needs before it suspends.

    ```mlir
    coro.frame.store %v, %frame[2] : f32
    ```
  }];
  let arguments = (ins Coro_ScalarType:$value, Coro_FrameType:$frame,
                       I64Attr:$slot);
  let assemblyFormat = [{
    $value `,` $frame `[` $slot `]` attr-dict `:` type($value)
  }];
}

def Coro_FrameSetTargetOp : Coro_Op<"frame.set_target",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Sets the token of the subroutine that runs next";
  let description = [{
    Writes the frame's `target_token`: the subroutine the scheduler resumes
    the instance with, or the termination token (-1) when the coroutine has
    returned.

    ```mlir
    coro.frame.set_target %frame, 2
    ```
  }];
  let arguments = (ins Coro_FrameType:$frame, I32Attr:$token);
  let assemblyFormat = "$frame `,` $token attr-dict";
}

def Coro_FrameIdOp : Coro_Op<"frame.id", [Pure]> {
  let summary = "Index of the instance that owns the frame";
  let description = [{
    `coro.id` inside a subroutine: the instance index kept in the frame's
    `coro_id` field, linear or (with `dim`) one grid component.

    ```mlir
    %id = coro.frame.id %frame : index
    %x = coro.frame.id %frame 0 : index
    ```
  }];
  let arguments = (ins Coro_FrameType:$frame,
    OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>>:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$frame ($dim^)? attr-dict `:` type($result)";
}

def Coro_CheckpointOp : Coro_Op<"checkpoint"> {
  let summary = "A suspension point with its live state (internal)";
  let description = [{
    Used inside `coro-split`: a suspension point towards subroutine `token`
    together with the values that are live across it. Cloning a checkpoint
    remaps those values, so every copy knows what to save.
  }];
  let arguments = (ins I32Attr:$token, Variadic<AnyType>:$live);
  let assemblyFormat = "$token (`(` $live^ `:` type($live) `)`)? attr-dict";
}

def Coro_SplitOp : Coro_Op<"split", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>
  ]> {
  let summary = "The transition graph and frame layout of a split coroutine";
  let description = [{
    Records how `coro-split` split the coroutine `coroutine`:

    - `subroutines[t]` is the function that runs for target token `t`
      (token 0 is the entry; token `t > 0` resumes after the suspension
      point named `names[t]`). Each takes the frame first, then the
      coroutine's arguments.
    - `fields[i]` is frame field `i` (what `coro.frame.load` and
      `coro.frame.store` address as slot `i`): its name, scalar type and
      where it is stored in the frame's 32-bit words (see `#coro.field`).
      Words 0 and 1 are the special fields `target_token` and `coro_id`.
    - `transitions` lists the edges `[from, to]` of the transition graph;
      `to = -1` is termination.
    - `frame_bytes`, when present, records the frame size after each stage
      of frame materialization (see `coro-frame-report`).
    - `statistics`, when present, counts what `coro-split` did with the
      values live across suspension points: `values_live` (all of them),
      `values_stored` (given frame fields), `values_recomputed` (recomputed
      after some resumption; a value stored for one suspension point can be
      recomputed after another, so the counts may overlap) and
      `ops_recomputed` (copies of ops made for that, constants and the links
      of chains included, over all subroutines);
      `coro-dump-graph` reports them with the code growth.

    A scheduler reads this op to drive the subroutines and to lay out
    frames; tools print it as a graph and as a frame report.

    ```mlir
    coro.split @render subroutines [@render__entry, @render__shade]
        names ["entry", "shade"]
        fields [#coro.field<"radiance" : f32 at 2, promise>,
                #coro.field<"v0" : index at 3 loc("render.mlir":7:10)>]
        transitions [[0, 1], [1, -1]]
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$coroutine,
                       TypedArrayAttrBase<FlatSymbolRefAttr,
                         "subroutine symbols">:$subroutines,
                       StrArrayAttr:$names,
                       TypedArrayAttrBase<Coro_FrameFieldAttr,
                         "frame fields">:$fields,
                       TypedArrayAttrBase<DenseI32ArrayAttr,
                         "transition edges">:$transitions,
                       OptionalAttr<DictionaryAttr>:$frame_bytes,
                       OptionalAttr<DictionaryAttr>:$statistics);
  let assemblyFormat = [{
    $coroutine `subroutines` $subroutines `names` $names `fields` $fields
    `transitions` $transitions attr-dict
  }];
  let extraClassDeclaration = [{
    /// The fields, typed.
    SmallVector<FrameFieldAttr> getFrameFields() {
      return llvm::to_vector(getFields().getAsRange<FrameFieldAttr>());
    }
    /// Number of 32-bit words of one frame, special fields included.
    int64_t getFrameWords();
    /// The promise fields that hold the promise `name`: its field, or for a
    /// vector its lanes' fields in lane order; empty when the coroutine has
    /// no such promise (a generator whose yields were all removed has no
    /// `__yielded_value`).
    SmallVector<FrameFieldAttr> getPromiseFields(StringRef name);
    /// The subroutines in token order, as `symbols` holds them; fails with
    /// an error on this op when one is not a `func.func`.
    FailureOr<SmallVector<func::FuncOp>> lookupSubroutines(SymbolTable &symbols);
    /// Checks that the frame loads and stores of `subroutine` name fields
    /// of this op, with their type.
    LogicalResult verifyFrameAccesses(FunctionOpInterface subroutine);
  }];
  let hasVerifier = 1;
}

#endif // COROGPU_DIALECT_CORO_IR_COROOPS_TD

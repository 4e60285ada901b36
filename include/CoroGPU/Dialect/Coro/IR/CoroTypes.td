//===- CoroTypes.td - coro dialect types -------------------*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_IR_COROTYPES_TD
#define COROGPU_DIALECT_CORO_IR_COROTYPES_TD

include "CoroGPU/Dialect/Coro/IR/CoroBase.td"
include "mlir/IR/AttrTypeBase.td"

def Coro_FrameType : TypeDef<Coro_Dialect, "Frame"> {
  let mnemonic = "frame";
  let summary = "Handle to the state frame of one coroutine instance";
  let description = [{
    The frame of the current instance, passed first to every subroutine of a
    split coroutine. Its fields are the special `coro_id` and
    `target_token`, the promises and the live state, addressed by slot
    number through the `coro.frame.*` ops; the slot types are listed by the
    coroutine's `coro.split` op. A scheduler decides where frames live
    (registers, shared or global memory, SoA or AoS) when it lowers this
    type.
  }];
}

def Coro_HandleType : TypeDef<Coro_Dialect, "Handle"> {
  let mnemonic = "handle";
  let summary = "A frame of a coroutine that user code drives itself";
  let description = [{
    An instance of the coroutine `coroutine` with a frame of its own, as the
    paper's `CoroFrame` (Sec. 4.1.4, Listing 5): created by
    `coro.handle.create` or `coro.handle.load`, resumed by
    `coro.handle.resume`, inspected by `coro.handle.target`, `.done`, `.id`
    and `.promise`, stored to a buffer of frames by `coro.handle.store`. The
    ops are written against the coroutine before it is split;
    `coro-lower-handles` resolves them against its subroutines and frame
    layout, and the frame becomes thread-private memory.

    ```mlir
    %h = coro.handle.create @parity[%id] : !coro.handle<@parity>
    ```
  }];
  let parameters = (ins "::mlir::FlatSymbolRefAttr":$coroutine);
  let assemblyFormat = "`<` $coroutine `>`";
}

#endif // COROGPU_DIALECT_CORO_IR_COROTYPES_TD

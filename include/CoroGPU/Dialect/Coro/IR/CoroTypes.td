//===- CoroTypes.td - coro dialect types -------------------*- tablegen -*-===//
//
// Part of the CoroGPU project.
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

#endif // COROGPU_DIALECT_CORO_IR_COROTYPES_TD

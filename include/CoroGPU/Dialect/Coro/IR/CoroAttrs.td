//===- CoroAttrs.td - coro dialect attributes --------------*- tablegen -*-===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_IR_COROATTRS_TD
#define COROGPU_DIALECT_CORO_IR_COROATTRS_TD

include "CoroGPU/Dialect/Coro/IR/CoroBase.td"
include "mlir/IR/AttrTypeBase.td"

def Coro_FrameFieldAttr : AttrDef<Coro_Dialect, "FrameField"> {
  let mnemonic = "field";
  let summary = "One scalar field of a coroutine frame and where it is stored";
  let description = [{
    A frame is an array of 32-bit words. Words 0 and 1 hold the special
    fields `target_token` and `coro_id`; the fields listed by `coro.split`
    (promises and live state) follow. A field of type `type` occupies
    `getStorageBits()` bits: one for `i1`, 8 or 16 for narrow integers and
    floats (packed inside a word at an offset aligned to their size), or
    whole consecutive words. Fields that are never live at the same time may
    share storage; promise fields (`promise`) never do, so that they can be
    read by name from outside the coroutine.

    ```mlir
    #coro.field<"radiance" : f32 at 2, promise>
    #coro.field<"v3" : i1 at 4:7>        // bit 7 of word 4
    #coro.field<"v5" : index at 5>       // words 5 and 6
    ```
  }];
  let parameters = (ins "StringAttr":$name, "Type":$type, "int64_t":$word,
                        "int64_t":$bit, "bool":$promise);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bits the field occupies in the frame.
    int64_t getStorageBits() const { return getStorageBits(getType()); }
    /// Bits a field of `type` occupies: 1 for i1, 8 or 16 for narrow
    /// scalars, a whole number of 32-bit words otherwise.
    static int64_t getStorageBits(Type type);
    /// Number of 32-bit words the field touches.
    int64_t getNumWords() const { return (getStorageBits() + 31) / 32; }
    /// The field's first bit counted from the start of the frame.
    int64_t getFirstBit() const { return getWord() * 32 + getBit(); }
    /// Whether the storage of the two fields overlaps.
    bool overlaps(FrameFieldAttr other) const;
  }];
}

#endif // COROGPU_DIALECT_CORO_IR_COROATTRS_TD

//===- CoroAttrs.td - coro dialect attributes --------------*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

    A field for a value the source did not name (`loc("ray")` names it) is
    called `v<N>` and carries the value's `location`, so that frame reports
    and layouts can say where it comes from.

    ```mlir
    #coro.field<"radiance" : f32 at 2, promise>
    #coro.field<"v3" : i1 at 4:7>        // bit 7 of word 4
    #coro.field<"v5" : index at 5 loc("kernel.mlir":12:9)>  // words 5 and 6
    ```
  }];
  let parameters = (ins "StringAttr":$name, "Type":$type, "int64_t":$word,
                        "int64_t":$bit, "bool":$promise,
                        OptionalParameter<"LocationAttr">:$location);
  let builders = [
    AttrBuilder<(ins "StringAttr":$name, "Type":$type, "int64_t":$word,
                     "int64_t":$bit, "bool":$promise), [{
      return $_get($_ctxt, name, type, word, bit, promise, LocationAttr());
    }]>
  ];
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

def Coro_BoundsSiteAttr : AttrDef<Coro_Dialect, "BoundsSite"> {
  let mnemonic = "bounds_site";
  let summary = "One memory access whose indices coro-check-bounds checks";
  let description = [{
    The op (`memref.load`, `memref.store`, `memref.atomic_rmw`), the memref
    it accesses (`argument N` of the coroutine or a local array) and the
    op's source location, as the report of a violation names them.

    ```mlir
    #coro.bounds_site<op = "memref.store", memref = "argument 0",
                      location = "kernel.mlir":12:5>
    ```
  }];
  let parameters = (ins "StringAttr":$op, "StringAttr":$memref,
                        "LocationAttr":$location);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Coro_BoundsCheckAttr : AttrDef<Coro_Dialect, "BoundsCheck"> {
  let mnemonic = "bounds_check";
  let summary = "What coro-check-bounds added to a coroutine";
  let description = [{
    Set on a `coro.func` by `coro-check-bounds`: its argument number
    `argument` is the violation buffer of `corogpu/runtime/BoundsCheckABI.h`,
    with room for `records` records; a record's site indexes `sites`, its
    resume point `resumePoints` (`entry`, then the suspension points in
    program order: their tag, or `#N (anonymous)`, `#N (yield)`).

    ```mlir
    coro.func @f(%out: memref<?xi32>, %violations: memref<?xi32>)
        attributes {coro.bounds_check = #coro.bounds_check<argument = 1,
          records = 16, resumePoints = ["entry", "shade"],
          sites = [#coro.bounds_site<...>]>} { ... }
    ```
  }];
  let parameters = (ins "unsigned":$argument, "unsigned":$records,
                        "ArrayAttr":$resumePoints, "ArrayAttr":$sites);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the coro.func attribute that holds it.
    static constexpr ::llvm::StringLiteral kAttrName = "coro.bounds_check";
  }];
}

def Coro_ProfileSiteAttr : AttrDef<Coro_Dialect, "ProfileSite"> {
  let mnemonic = "profile_site";
  let summary = "One point where coro-profile-lanes counts active lanes";
  let description = [{
    What the site is (`entry`: the start of a function; `scf.if`,
    `scf.index_switch`: a branch; `scf.while`, `scf.for`: a loop header,
    whose branch is leaving the loop or not), the instrumented function it
    is in (an index into the profile's `functions`) and its source
    location.

    ```mlir
    #coro.profile_site<kind = "scf.if", function = 1,
                       location = "kernel.mlir":12:5>
    ```
  }];
  let parameters = (ins "StringAttr":$kind, "unsigned":$function,
                        "LocationAttr":$location);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Coro_LaneProfileAttr : AttrDef<Coro_Dialect, "LaneProfile"> {
  let mnemonic = "lane_profile";
  let summary = "What coro-profile-lanes added to a coroutine";
  let description = [{
    Set by `coro-profile-lanes` on the `coro.func` it instrumented and,
    under the coroutine's name, in the module's `coro.lane_profile`
    dictionary (which outlives the coroutine through the schedulers'
    passes): argument number `argument` of the coroutine and of its
    subroutines is the profile buffer of
    `corogpu/runtime/LaneProfileABI.h`; its function counters are those of
    `functions` (the mega-kernel, or the subroutines in token order, by
    name) and its site counters those of `sites`.

    ```mlir
    #coro.lane_profile<argument = 1, functions = ["entry", "shade"],
                       sites = [#coro.profile_site<...>]>
    ```
  }];
  let parameters = (ins "unsigned":$argument, "ArrayAttr":$functions,
                        "ArrayAttr":$sites);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the coro.func attribute that holds it, and of the module
    /// dictionary that holds it by coroutine name.
    static constexpr ::llvm::StringLiteral kAttrName = "coro.lane_profile";
    /// The profile `module` keeps for `coroutine`, or null.
    static LaneProfileAttr lookup(::mlir::Operation *module,
                                  ::llvm::StringRef coroutine);
  }];
}

#endif // COROGPU_DIALECT_CORO_IR_COROATTRS_TD

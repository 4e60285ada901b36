//===- Passes.td - coroutine transformation passes ---------*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TRANSFORMS_PASSES_TD
#define COROGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoroExpandYield : Pass<"coro-expand-yield", "::mlir::coro::FuncOp"> {
  let summary = "Rewrite coro.yield into a promise of the yielded value and a "
                "suspension";
  let description = [{
    A generator's `coro.yield %v : T` means "store `%v` where the consumer can
    read it, then suspend" (the paper's `$yield` macro, App. B.1). This pass
    makes that explicit so that the later stages only deal with `coro.promise`
    and `coro.suspend`:

    ```mlir
    coro.yield %i : i32
    // becomes
    coro.promise "__yielded_value", %i : i32
    coro.suspend
    ```

    With `tag-prefix=P`, the suspension points created are tagged `P0`, `P1`,
    ... in program order (skipping tags the coroutine already uses), so that
    the subroutines resuming after each yield get stable names.
  }];
  let options = [
    Option<"tagPrefix", "tag-prefix", "std::string", /*default=*/"\"\"",
           "Tag the new suspension points <prefix>0, <prefix>1, ... "
           "(empty: leave them anonymous)">
  ];
  let dependentDialects = ["::mlir::coro::CoroDialect"];
}

def CoroInlineCallables : Pass<"coro-inline-callables", "::mlir::ModuleOp"> {
  let summary = "Inline the callables a coroutine calls into its body";
  let description = [{
    The splitter needs to see the whole coroutine: a callable's locals may be
    live across a suspension point of its caller, and after the split each
    subroutine is an ordinary function that is easier to optimize without
    calls. This pass replaces every `func.call` in a `coro.func` (at any
    depth) whose callee is a `func.func` with a body by the callee's body,
    recursively, until no such call is left. It does the same in the
    subroutines of a `coro.split` already present (a split written by
    hand), since GPU kernels make no calls.

    A single-block callee is cloned in place of the call. A callee with
    several blocks (`cf` control flow, early returns) is cloned into an
    `scf.execute_region` whose `scf.yield`s carry the returned values, so the
    call may sit in any `scf` region:

    ```mlir
    %r = func.call @pick(%c, %a, %b) : (i1, f32, f32) -> f32
    // becomes
    %r = scf.execute_region -> f32 {
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      scf.yield %a : f32
    ^bb2:
      scf.yield %b : f32
    }
    ```

    Calls to declarations (no body) and to callees marked `no_inline` stay
    calls. Recursive callables cannot be inlined and are reported with the
    call chain. Callables themselves are not modified; `symbol-dce` removes
    the private ones that are no longer called.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def CoroInlineAwaits : Pass<"coro-inline-awaits", "::mlir::ModuleOp"> {
  let summary = "Inline awaited coroutines into their callers";
  let description = [{
    `coro.await @callee(args)` runs `callee` for the current instance and
    suspends the caller wherever the callee suspends (the paper's `$await`,
    App. B.2, which records the nested coroutine's steps into the caller).
    This pass makes that literal: each await is replaced by the callee's body
    (recursively, awaits form no cycle), so the callee's suspension points
    become the caller's. Multi-block callees are wrapped in an
    `scf.execute_region` like in `coro-inline-callables`.

    Names stay unique and stable: a suspension tagged `t` in `@callee`
    becomes `callee_t` in the caller (`callee_t_1`, `callee_t_2`, ... for
    further awaits of the same callee), and a promise field `p` of the callee
    becomes `callee.p`, so it cannot collide with the caller's fields. The
    awaited coroutines themselves are left in the module.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def CoroCheckBounds : Pass<"coro-check-bounds", "::mlir::ModuleOp"> {
  let summary = "Check the index of every memory access of a coroutine "
                "against its buffer's size (opt-in, like compute-sanitizer's "
                "memcheck)";
  let description = [{
    Instruments every `memref.load`, `memref.store` and `memref.atomic_rmw`
    of every coroutine (and `vector.load` and `vector.store`, rewritten
    into memref accesses first: element by element on a memref of scalars)
    so that an index out of bounds (negative, or at or
    past the size of its dimension) skips the access (a load or an atomic
    then gives zero) and is reported in a violation buffer instead of
    reading or corrupting other memory. `coro-run --check-bounds` runs it,
    reports the violations and exits with code 6.

    Each coroutine gets one more argument, `memref<?xi32>`, laid out by
    `corogpu/runtime/BoundsCheckABI.h`: the count of violations, the count
    of records, the element count of each memref argument (written by the
    host: SPIR-V kernels cannot ask a buffer for its size), then room for
    `records` records (site, dimension, where the instance last resumed,
    instance, index, size). The `coro.bounds_check` attribute of the
    coroutine says which argument that is and names the sites and the
    resume points.

    The checks are branch-free where they can be, because drivers such as
    lavapipe run both sides of a branch, masked: a load out of bounds reads
    element 0 instead and its result is replaced by zero (so every buffer
    must have room for one element); stores and atomics run under an
    `scf.if`. A violation is noted in a small private array (its count, and
    the first one's site, dimension, index and size) with selects; at each
    suspension point and return the instance adds what it noted to the
    buffer's count and records the first, behind one branch.

    ```mlir
    %v = memref.load %in[%i] : memref<?xf32>
    // becomes, with %n the size of %in read from the violation buffer:
    %ok = arith.cmpi ult, %i, %n : index
    // ... note the violation when %ok is false ...
    %safe = arith.select %ok, %i, %c0 : index
    %x = memref.load %in[%safe] : memref<?xf32>
    %v = arith.select %ok, %x, %zero : f32
    ```

    The sizes come from the memref type (static dimensions), from the
    violation buffer (memref arguments) or from the `memref.alloca` that
    made the memref; an access to a memref of another origin, and ops that
    access memory otherwise (`vector.load`, `memref.copy`, ...), are
    errors, as are calls, awaits and frame-driving ops (`coro.handle.*`,
    `coro.for_each`) left in a coroutine (run it after
    `coro-inline-callables`, `coro-inline-awaits` and
    `coro-resolve-handles`, which inline the code they run, so that it is
    checked too), a coroutine launched, awaited or driven elsewhere, whose
    callers would miss the argument, and one split already.
    The pass is a split-independent front-half pass: every scheduler and
    backend runs the instrumented code. Off, it costs nothing: it is not
    part of the named pipelines.
  }];
  let options = [
    Option<"records", "records", "unsigned", /*default=*/"16",
           "Violations recorded in full (all are counted)">,
    ListOption<"coroutines", "coroutines", "std::string",
               "Instrument only these coroutines (default: all)">
  ];
  let statistics = [
    Statistic<"numChecked", "accesses-checked",
              "Memory accesses instrumented">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CoroProfileLanes : Pass<"coro-profile-lanes", "::mlir::ModuleOp"> {
  let summary = "Count the active lanes of every subgroup at each branch and "
                "loop header, and the frame bytes each subroutine moves "
                "(opt-in; the paper's Table 2 branch efficiency)";
  let description = [{
    Instruments the kernels a coroutine runs as: the subroutines of its
    `coro.split` when it is split (run the pass after
    `coro-materialize-frame`), or the coroutine's own body, which the
    mega-kernel runs, when it is not or with `mega-kernel` (for the
    mega-kernel of a coroutine that `coro-resolve-handles` split because
    other code drives it). At each site it counts, once per subgroup that
    reaches it (the lowest active lane adds to the counters):

    - the visit, and the lanes of the subgroup active there: at the start
      of each function (`entry`), before each `scf.if` and
      `scf.index_switch`, at the condition of each `scf.while` (before
      every iteration) and at each test of an `scf.for` (before its first
      iteration and after each);
    - whether the visit was divergent: the active lanes did not all take the
      same branch or case, or at a loop's test did not all run another
      iteration (or all leave).

    Lane use is active lanes / (visits x subgroup size); branch efficiency,
    as NVIDIA's profilers define it, is the share of branch visits that
    were not divergent. Each function also sums the frame bytes its lanes
    load and store (`coro.frame.load`, `coro.frame.store` of its own frame:
    4 per 32-bit word a field touches), which divided by the lanes at its
    entry give the bytes per subroutine execution.

    The counts use `gpu.subgroup_reduce` over the active lanes (SPIR-V
    `GroupNonUniformArithmetic`; on NVIDIA `coro-nvvm-subgroup-ops`
    makes them `redux.sync` over the active mask, sm_80 and newer) and
    64-bit counters (two words, carried) in a buffer the pass appends to
    the arguments of the coroutine and of its subroutines, laid out by
    `corogpu/runtime/LaneProfileABI.h`. The `coro.lane_profile` attribute
    (on the coroutine, and in the module's dictionary of that name) names
    the functions and the sites. `coro-run --profile-lanes` runs it and
    prints the report; the named pipelines run it with
    `profile-lanes=true`.

    ```mlir
    scf.if %hit { ... }
    // becomes
    %active = gpu.subgroup_reduce add %c1_i32 : (i32) -> i32
    %lane = ... gpu.lane_id ...
    %first = gpu.subgroup_reduce minui %lane : (i32) -> i32
    %taken = arith.extui %hit : i1 to i32
    %low = gpu.subgroup_reduce minui %taken : (i32) -> i32
    %high = gpu.subgroup_reduce maxui %taken : (i32) -> i32
    scf.if (%lane == %first) { ...atomic adds to the site's counters... }
    scf.if %hit { ... }
    ```

    It is an error to profile a coroutine that is launched, awaited or
    driven elsewhere (its callers would miss the buffer), or one with
    unstructured control flow left (run `coro-normalize-control-flow`).
  }];
  let options = [
    ListOption<"coroutines", "coroutines", "std::string",
               "Instrument only these coroutines (default: all)">,
    Option<"megaKernel", "mega-kernel", "bool", /*default=*/"false",
           "Instrument each coroutine's own body, which the mega-kernel "
           "runs, also where it is split">
  ];
  let statistics = [
    Statistic<"numSites", "sites", "Sites whose active lanes are counted">,
    Statistic<"numFunctions", "functions", "Functions instrumented">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CoroPrefixPrintf : Pass<"coro-prefix-printf", "::mlir::ModuleOp"> {
  let summary = "Prefix each gpu.printf of a coroutine with its instance and "
                "the suspension point it resumed at";
  let description = [{
    Under a split scheduler the lines a coroutine prints come from
    whichever thread resumes an instance, in whatever order its rounds,
    steps or launches run them, so a line says nothing unless it says whose
    it is. This pass prepends `[#<id> @<point>] ` to the format of every
    `gpu.printf` in the subroutines of each `coro.split` (run it after
    `coro-split`): `<id>` is the instance (`coro.frame.id`, printed with
    `%u`) and `<point>` the suspension point the subroutine resumes at, by
    its tag (`entry` for the start). A coroutine that is not split (the
    mega-kernel, or with `mega-kernel` any coroutine) runs whole, so its
    prints get `[#<id>] `.

    ```mlir
    gpu.printf "hit %f
", %t : f32      // in @render__shade
    // becomes
    %id = coro.frame.id %frame : index
    %id32 = arith.index_castui %id : index to i32
    gpu.printf "[#%u @shade] hit %f
", %id32, %t : i32, f32
    ```

    The targets then lower `gpu.printf`: `coro-spirv-debug-printf` for
    Vulkan (`NonSemantic.DebugPrintf`, shown by the validation layer), the
    NVVM conversion for CUDA (`vprintf`).
  }];
  let options = [
    Option<"megaKernel", "mega-kernel", "bool", /*default=*/"false",
           "Prefix each coroutine's own body, which the mega-kernel runs, "
           "also where it is split">
  ];
  let statistics = [
    Statistic<"numPrefixed", "prints", "gpu.printf ops prefixed">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect"
  ];
}

def CoroNormalizeControlFlow
    : Pass<"coro-normalize-control-flow", "::mlir::coro::FuncOp"> {
  let summary = "Turn a coroutine's cf control flow into structured scf";
  let description = [{
    The continuation extraction works on structured control flow (and SPIR-V
    needs it anyway). This pass lifts every unstructured region of a
    coroutine to `scf`: the body of the `coro.func` itself and the
    multi-block `scf.execute_region`s that `coro-inline-callables` creates.
    Loops with several exits (break, continue, early `coro.return` at any
    depth) become `scf.while` loops whose carried values include the exit
    selectors; multi-way branches become `scf.if` / `scf.index_switch`; the
    several `coro.return`s of a body become one. It uses MLIR's CFG-to-SCF
    lifting (Bahmann et al., "Perfect Reconstructability of Control Flow"),
    which also handles irreducible control flow, and values undefined on some
    path become `ub.poison`.

    Innermost regions are lifted first; `scf.execute_region`s left with a
    single block are then inlined into their parent, and the structured ops
    are canonicalized so that trivially dead or single-trip loops fold away.
    After the pass no `cf` op remains in the coroutine; if one does, the pass
    fails with an error located at it. A promise whose every
    `coro.promise` sat in code found unreachable keeps its frame field: a
    `coro.promise` of zero at the start of the body stands in for it, so that
    whatever names the field (a scheduler's `sort-by`, the frame report)
    still finds it.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect"
  ];
}

def CoroSplit : Pass<"coro-split", "::mlir::ModuleOp"> {
  let summary = "Split coroutines into subroutines at their suspension points";
  let description = [{
    Continuation extraction (paper Sec. 5, App. C.2). For each `coro.func`
    @f with N suspension points this creates N + 1 functions

    ```mlir
    func.func @f__entry(%frame: !coro.frame, <args of @f>)   // token 0
    func.func @f__<tag>(%frame: !coro.frame, <args of @f>)   // token 1..N
    ```

    and a `coro.split` op recording them, the frame slot types and the
    transition graph. A coroutine that already has a `coro.split` (split by
    hand or by another tool; its body stays the mega-kernel reference) is
    left as it is. A subroutine runs until the instance reaches a
    suspension point or returns; then it stores the live state in the frame,
    sets the target token (-1 on return) and leaves.

    The continuation of a suspension point is rebuilt with structured
    control flow: the rest of its block, then what remains of each enclosing
    op (an `scf.while` is duplicated once: the partial iteration that
    resumes, with its condition replayed when the suspension was in the
    before region, then a copy of the loop); code that cannot run after the
    suspension is never copied. Suspension points inside loops are
    reached again through the copied loop, so no loop is unrolled. A loop
    whose every iteration suspends (its body must reach a suspension point)
    is not copied at all: no iteration can end in the same subroutine, so
    its copy is the condition and, if it holds, the body up to the
    suspension. An `scf.for` with constant bounds and a `while (alive)` that
    starts with `alive = true` run at least once; a suspension that such a
    loop's body must reach is one its enclosing code must reach too.

    Values live across a suspension point get frame fields, one per
    scalar, vector lane and local-array element, each in words of its own
    (`coro-materialize-frame` packs them); the live sets are computed to a
    fixed point over the continuations. Live-state reduction happens here:
    local arrays move down to their first use (so an array used only after
    a suspension point does not cross it), and values are recomputed
    instead of stored when that is cheap: arguments, constants, `coro.id`,
    chains of at most `max-recomputed-ops` pure ops or integer divisions
    (which rerun on the operands they ran on before the suspension, so do
    not trap; not ops that read the thread they run in, such as
    `gpu.lane_id`; default 16: a frame word costs a store and a load of
    global memory per instance and suspension under the wavefront
    scheduler, a dozen ALU ops cost a dozen cycles) whose inputs take fewer
    bits than the value, and (with
    `defer-loads`) loads of buffer arguments the coroutine never writes,
    when the index is smaller than the loaded value. Then each live set is
    shrunk with what it holds anyway: a value recomputable from the other
    values of the set (plus a few bits fewer than its own) leaves it.
    Deferring loads assumes that distinct buffer arguments do not alias. A
    value that a promise field holds at a suspension point (the value of
    the only `coro.promise` of that name, which dominates the suspension
    point and is in the block defining the value) is read back from the
    promise field instead of getting fields of its own. Frame loads and
    recomputed values move down to their first use and into the branch
    that needs them (control-flow sinking), rather than staying at the start
    of the subroutine, where they would hold registers on every path and
    across loops that do not use them (promise fields are loaded first: the
    subroutine may promise a new value). `coro.id` becomes `coro.frame.id`
    and `coro.promise` a store to the promise's fields. Leaving a subroutine
    from inside nested control flow is structured with an "exited" flag
    that guards the rest of each block and stops loops; after an `scf.if`
    with one branch that must leave (branches on constants folded first),
    the rest of the block moves to the end of the other branch instead, and
    on into the one branch below it that goes on without leaving, as deep
    as there is one (no flag). The `coro.split` op
    records the frame size of the naive frame (every value live across a
    suspension point stored) and of this one, and in `statistics` how many
    live values were stored and how many recomputed.

    Expects the output of the front half of the pipeline: one block, no
    `coro.await` / `coro.yield`, suspension points only under scf.if / for /
    while / index_switch. The coroutine itself is kept as the mega-kernel
    reference. A memref value live across a suspension point (other than
    arguments, values recomputed from them and local arrays) is reported as
    unsupported.

    `coro-dump-graph` exports the result for people: the transition graph
    as DOT and JSON and the code growth per coroutine.
  }];
  let options = [
    Option<"maxRecomputedOps", "max-recomputed-ops", "unsigned",
           /*default=*/"16",
           "Longest chain of ops recomputed after a suspension point "
           "instead of storing its result">,
    Option<"deferLoads", "defer-loads", "bool", /*default=*/"true",
           "Redo loads of read-only buffer arguments after a suspension "
           "point when the index is smaller than the loaded value (never "
           "in coroutines that coro.handle ops drive: their driver may "
           "write the buffer between two resumptions)">,
    Option<"handleTargetsOnly", "handle-targets-only", "bool",
           /*default=*/"false",
           "Split only the coroutines that coro.handle or coro.for_each "
           "ops drive and that drive no frame themselves (the rounds of "
           "coro-resolve-handles: innermost coroutines first)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numCoroutines", "coroutines", "Coroutines split">,
    Statistic<"numSubroutines", "subroutines",
              "Subroutines made (entries and continuations)">,
    Statistic<"numValuesLive", "values-live",
              "Values live across some suspension point">,
    Statistic<"numValuesStored", "values-stored",
              "Live values given frame fields">,
    Statistic<"numValuesRecomputed", "values-recomputed",
              "Values recomputed after a resumption instead of stored">,
    Statistic<"numFrameFields", "frame-fields",
              "Frame fields made, promises included">,
    Statistic<"numOpsBefore", "ops-before",
              "Ops in the coroutines (code growth: ops-after / ops-before)">,
    Statistic<"numOpsAfter", "ops-after", "Ops in their subroutines">
  ];
}

def CoroMaterializeFrame : Pass<"coro-materialize-frame", "::mlir::ModuleOp"> {
  let summary = "Shrink and pack the frames of split coroutines";
  let description = [{
    Frame materialization (paper App. C.3) on the output of `coro-split`,
    whose frames hold one field per scalar, vector lane and local-array
    element live across some suspension point, each in words of its own.

    1. Each subroutine is simplified (`sroa`, `mem2reg`, canonicalization,
       CSE), so that a lane or element it never reads is not loaded and a
       re-created local array becomes SSA values; a field stored back
       unchanged (`store(f, load(f))`) is left to flow through the frame;
       in a branch of `scf.if %c`, `arith.select %c, %a, %b` is %a or %b
       (the split leaves such selects where a branch suspended), so a value
       passed on unchanged is a copy of its field.
    2. Field-level liveness over the transition graph (`FrameLiveness`:
       E, K, T per subroutine, L per resumption, to a fixed point) gives,
       per subroutine, the fields to load on resumption and, per edge, the
       fields to store on suspension; every other store is removed, and
       fields nobody reads are dropped. Steps 1 and 2 repeat until nothing
       changes.
    3. Layout (`FrameLayout`): fields never live at the same resumption
       point share storage (first-fit coloring of the interference graph,
       widest fields first); `i1` fields are packed as bits and narrow
       fields share words. Promise fields keep storage of their own. A
       store that copies a field into one the layout put in the same place
       goes, and loads move again to their uses.
    4. Placement: a store of one value into one field in both branches of
       an `scf.if` becomes one store before it, and each store rises to
       just after the op that makes its value (or the last op that reads or
       writes storage its field shares), so that the value needs no
       register through the rest of the subroutine (targets keep the order
       of memory accesses they cannot tell apart). A store towards a
       suspension may then stand before code that runs ahead of it; the
       steps above never move a load of its field past it.

    The `coro.split` op gets the new fields and, in `frame_bytes`, the frame
    size after each step (`field_liveness`, `slot_sharing`, `bit_packing`);
    `coro-frame-report` prints them with the layout. A split whose
    `frame_bytes` has `field_liveness` is materialized already and left
    alone (`coro-resolve-handles` materializes the coroutines that handles
    drive, the pipeline every split): its fields may share storage, which a
    second run would take for distinct fields.
  }];
  let options = [
    Option<"shareStorage", "share-storage", "bool", /*default=*/"true",
           "Let fields that are never live at the same time share storage">,
    Option<"packBits", "pack-bits", "bool", /*default=*/"true",
           "Pack i1 fields as single bits (otherwise one byte each)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numFieldsDropped", "fields-dropped",
              "Frame fields removed (never loaded, or stores removed)">,
    Statistic<"numFrameFields", "frame-fields", "Frame fields kept">,
    Statistic<"numBytesSaved", "bytes-saved",
              "Frame bytes saved by liveness, sharing and packing">
  ];
}

def CoroFrameReport : Pass<"coro-frame-report", "::mlir::ModuleOp"> {
  let summary = "Report the frame layout of each split coroutine";
  let description = [{
    Prints, for each `coro.split`, the frame size naive (every value live
    across a suspension point stored, nothing recomputed), after each
    reduction step that ran (`split`: recomputation and deferred loads;
    `field_liveness`, `slot_sharing`, `bit_packing`: see
    `coro-materialize-frame`) and final, a lower bound for any layout of
    these fields (the promises plus the fields live when some subroutine
    starts, packed as bits), then each field with its type,
    word, bit and byte offset, and the subroutines that load it and the
    edges that store it (from `FrameLiveness` on the current IR).

    `format=json` writes one JSON document (an array, one object per
    coroutine). The report goes to `output` (`-`: standard output, the
    default, `coro-opt -o` keeps the IR apart). The IR is not changed.
  }];
  let options = [
    Option<"format", "format", "::mlir::coro::FrameReportFormat",
           /*default=*/"::mlir::coro::FrameReportFormat::Text",
           "Report format",
           [{::llvm::cl::values(
               clEnumValN(::mlir::coro::FrameReportFormat::Text, "text",
                          "a table per coroutine"),
               clEnumValN(::mlir::coro::FrameReportFormat::JSON, "json",
                          "a JSON array, one object per coroutine"))}]>,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the report to ('-' for standard output)">
  ];
}

def CoroDumpGraph : Pass<"coro-dump-graph", "::mlir::ModuleOp"> {
  let summary = "Write the transition graphs of split coroutines as DOT and "
                "JSON, with their code growth";
  let description = [{
    For every `coro.split` op, writes `<output-dir>/<coroutine>.dot` (a
    Graphviz digraph: one node per subroutine with its token and op count,
    one edge per transition, and a `returned` node) and
    `<output-dir>/<coroutine>.json`:

    ```json
    {"coroutine": "render", "original_ops": 40, "subroutine_ops": 95,
     "growth": "2.38", "frame_fields": ["v0 : f32", "v1 : index"],
     "frame_bytes": 16,
     "split_statistics": {"values_live": 3, "values_stored": 2,
                          "values_recomputed": 1, "ops_recomputed": 2},
     "subroutines": [{"token": 0, "name": "entry",
                      "symbol": "render__entry", "ops": 30}, ...],
     "transitions": [[0, 1], [1, -1], ...]}
    ```

    `original_ops` counts the ops in the coroutine's body, `subroutine_ops`
    those in all its subroutines: their ratio is the code growth of the split.
    `split_statistics` is the `statistics` that `coro-split` recorded on the
    `coro.split` op (empty for a split made elsewhere): values live across
    suspension points, how many got frame fields and how many are
    recomputed instead. The IR is not modified.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\"\"",
           "Directory to write <coroutine>.dot and <coroutine>.json into">
  ];
}

#endif // COROGPU_TRANSFORMS_PASSES_TD

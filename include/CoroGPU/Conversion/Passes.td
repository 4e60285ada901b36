//===- Passes.td - scheduler conversion passes -------------*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_PASSES_TD
#define COROGPU_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoroLowerHandles : Pass<"coro-lower-handles", "::mlir::ModuleOp"> {
  let summary = "Resolve the coroutine frames that user code drives itself";
  let description = [{
    The paper's low-level interfaces (Sec. 4.1.3 and 4.1.4): `coro.handle.*`
    ops in any function (a `coro.func`, a `func.func`, a kernel) create a
    frame of a coroutine, resume its subroutines by target token, token
    value or suspension tag, read its target token, instance index and
    promise fields by name, and copy it to or from a buffer of frames. This
    pass runs after `coro-split` and `coro-materialize-frame` and resolves
    them against the coroutine's subroutines and frame layout:

    - each handle becomes a thread-private frame, a `memref<N x i32>`
      `alloca` of the coroutine's frame words (zeroed, its `coro_id` word
      the instance index, by `coro.handle.create`; copied from the buffer by
      `coro.handle.load`);
    - each `coro.handle.resume` becomes an `scf.index_switch` on the token
      whose cases hold the bodies of the subroutines (inlined: kernels need
      no calls), their frame accesses lowered onto the handle's frame; a
      token that names no subroutine (-1) runs nothing;
    - `coro.handle.target`, `.done`, `.id` and `.promise` read the frame;
      `coro.handle.frame_words` becomes a constant; `coro.handle.store` and
      `coro.handle.load` copy every word (SoA, or AoS with `aos`);
    - each `coro.for_each` (a loop over a generator's values) becomes a
      handle of the generator resumed in an `scf.while`, the body reading
      `__yielded_value`, with a carried flag for the body's early exit.

    The pipelines run it through `coro-resolve-handles`, before splitting
    the coroutines that hold handles, so that a handle there is a local
    array that may live across suspension points.
    Inlined subroutines may drive other coroutines' frames in turn; those
    handles are lowered too. The driven coroutines stay, split, for the
    scheduler: a runtime may still launch them by name (the mega-kernel
    scheduler drops their splits and uses their bodies).
    Errors, each located: a handle that crosses a block argument or reaches
    another op, a coroutine that is not split, an unknown tag or promise
    field, a promise read with another type, a coroutine that drives frames
    of itself.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numHandles", "handles", "Handles given a frame">,
    Statistic<"numResumptions", "resumptions",
              "Resumptions inlined (coro.handle.resume)">,
    Statistic<"numLoops", "generator-loops",
              "Loops over a generator's values (coro.for_each) lowered">
  ];
  let options = [
    Option<"skipUnsplit", "skip-unsplit", "bool", /*default=*/"false",
           "Lower only the ops that drive split coroutines and leave the "
           "others for a later round (coro-resolve-handles)">
  ];
}

def CoroInlineGenerators : Pass<"coro-inline-generators", "::mlir::ModuleOp"> {
  let summary = "Run the generator of each coro.for_each in place, the loop "
                "body at each of its yields (the CPU reference)";
  let description = [{
    The reading of `coro.for_each` that `coro-run --check=cpu` runs: written
    apart from the split, the frames and the handles that the schedulers use
    (`coro-lower-handles` turns the same loop into a frame resumed in an
    `scf.while`), so a bug there shows as a difference. Each loop becomes an
    `scf.execute_region` holding a copy of the generator's code, its
    arguments the loop's, its `coro.id` the loop's instance (as
    `(i, 0, 0)`), and at each `coro.yield %v` the loop body with `%v`, run
    unless the loop has stopped. The carried values and a stop flag live in
    `memref.alloca`s at the start of the enclosing function. Once the body
    ends the loop (`coro.for_each.yield false`), nothing the generator would
    do afterwards happens: its writes to memory it did not allocate, its
    calls and every op that does not declare its effects run under
    `scf.if (!stop)`, and its `scf.while` and `cf` loops end.

    Loops over generators that hold loops over other generators are done
    after those (innermost first); generators that come back to themselves
    are an error. Run `coro-megakernel-to-func` next.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect"
  ];
  let statistics = [
    Statistic<"numLoops", "loops", "Loops over generators run in place">
  ];
}

def CoroMegakernelToFunc : Pass<"coro-megakernel-to-func", "::mlir::ModuleOp"> {
  let summary = "Materialize the mega-kernel reference as host functions";
  let description = [{
    The mega-kernel is the coroutine with its suspension points erased: the
    reference every scheduler is checked against. This pass materializes it
    for the host (CPU), so the front half of the pipeline can be checked by
    execution with `mlir-runner` without a GPU:

    - each `coro.func @f(args)` becomes `func.func @f(%x, %y, %z, %nx, %ny:
      index, args)`, called once per instance: `coro.id d` is `%x`, `%y` or
      `%z`, the linear `coro.id` is `x + nx * (y + ny * z)`; `coro.suspend`,
      `coro.promise` and `coro.yield` are erased (frame fields are not
      memory effects of the reference), `coro.await @g(args)` becomes a call
      of `@g` with the same position (the callee runs to completion), and
      `coro.return` becomes `func.return`;
    - each `coro.launch @f[gx, gy, gz](args)` becomes a loop nest over the
      grid (z outermost) calling `@f` for every instance in order.

    Loops over generators (`coro.for_each`) and handles must be lowered
    first (`coro-inline-generators`, or `coro-resolve-handles`): a remaining
    one is reported as an error. `coro.split` ops and their subroutines (a
    split made by hand, say) are erased: the mega-kernel runs the bodies.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CoroStateMachineToFunc
    : Pass<"coro-state-machine-to-func", "::mlir::ModuleOp"> {
  let summary = "Materialize the state-machine scheduler as host functions";
  let description = [{
    The paper's state-machine scheduler (Sec. 6.1) for the host (CPU), so
    that split programs can be checked by execution against the mega-kernel
    reference with `mlir-runner`:

    - each subroutine listed by a `coro.split` takes, instead of its
      `!coro.frame`, the frame as memrefs: `(%token: memref<1xi32>, %x, %y,
      %z, %nx, %ny: index, %slot0: memref<1xT0>, ..., args)`; the
      `coro.frame.*` ops become loads and stores of those memrefs;
    - each `coro.launch` of a split coroutine becomes a loop nest over the
      grid that runs every instance to completion: the token starts at 0
      (entry) and an `scf.index_switch` on it calls the subroutine it names
      until it is -1 (returned).

    The split coroutines and their `coro.split` ops are erased. A launch of
    a coroutine that was not split is an error.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def CoroMegakernelToGPU : Pass<"coro-megakernel-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Materialize the mega-kernel reference as GPU kernels";
  let description = [{
    The mega-kernel scheduler for GPUs: one thread per coroutine instance,
    suspension points erased.

    - each `coro.func @f(args)` becomes `gpu.func @f(%nx, %ny, %nz: index,
      args) kernel` in `gpu.module @coro_kernels`: the thread with global id
      (x, y, z) runs instance (x, y, z) if it lies inside the grid
      (nx, ny, nz); `coro.id d` is that component, the linear id
      `x + nx * (y + ny * z)`; the kernel carries
      `spirv.entry_point_abi` with the workgroup size;
    - each `coro.launch @f[gx, gy, gz](args)` becomes a `gpu.launch_func`
      with ceil(gx / workgroup-size) x gy x gz workgroups;
    - the module attribute `coro.megakernel` gets each coroutine's plan for
      the runtime, `#coro_plan.megakernel<workgroupSize = N>`.

    Termination accounting (`instance-status`, on by default): the kernel
    takes a `memref<2xi32>` status buffer last (word 0: instances that
    returned, atomically added; word 1: the most loop iterations of one
    instance when `count-loop-iterations` is on, atomically maxed; see
    `corogpu/runtime/InstanceABI.h`). coro-run zeroes it and reports a
    shortfall, or an instance at the device's loop limit (lavapipe ends the
    loops of a thread after 65535 iterations in all), as an error; a host
    `coro.launch` passes a fresh buffer and asserts (`cf.assert`) that every
    instance returned.

    The body must be structured (run `coro-normalize-control-flow` first:
    SPIR-V needs structured control flow), awaits inlined and yields
    expanded; otherwise the pass reports a located error. `coro.split` ops
    and their subroutines (a split made by hand, say) are erased: the
    mega-kernel runs the bodies.
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
           "Threads per workgroup (x); the grid's y and z map to workgroups">,
    Option<"instanceStatus", "instance-status", "bool", /*default=*/"true",
           "Give the kernel the status buffer of "
           "corogpu/runtime/InstanceABI.h (instances returned) as its last "
           "argument">,
    Option<"countLoopIterations", "count-loop-iterations", "bool",
           /*default=*/"false",
           "Count each instance's loop iterations into the status buffer, "
           "for drivers that limit them (on in the SPIR-V pipeline)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::coro::plan::CoroPlanDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::spirv::SPIRVDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "GPU kernels emitted">
  ];
}

def CoroStateMachineToGPU
    : Pass<"coro-state-machine-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Materialize the state-machine scheduler as GPU kernels";
  let description = [{
    The paper's state-machine scheduler (Sec. 6.1) for GPUs: one thread per
    coroutine instance, the frame in thread-private memory (one `memref.alloca`
    per slot plus the token), and a loop that dispatches on the target token
    until the instance returns.

    For each `coro.split`, the kernel `gpu.func @f(%nx, %ny, %nz: index,
    args) kernel` in `gpu.module @coro_kernels` holds the loop, with the
    subroutines inlined into the cases of the dispatch (no calls); the
    subroutines, the coroutine and the `coro.split` are erased. Each
    `coro.launch` of a split coroutine becomes a `gpu.launch_func` as in
    `coro-megakernel-to-gpu`; a launch of a coroutine that was not split is
    an error. With `instance-status` (the default) the kernel takes the
    status buffer of `coro-megakernel-to-gpu` last and counts an instance
    as returned when its loop ends with the target token -1 (a driver's
    loop limit can end it earlier).

    With `fall-through`, each pass of the loop tests the tokens in order
    instead of switching on one: `if (token == t) { subroutine t }` for t =
    0, 1, ..., each on the token the subroutines before it left, so an
    instance whose subroutine leads to a later one runs both in the same
    pass. A GPU jumps over a branch no thread takes, and there the switch
    is right; a device that runs every branch of a subgroup masked, taken
    or not (lavapipe), pays for all subroutines in every pass either way,
    and the fall-through gets it several subroutines for that price, as the
    mega-kernel's loop body does (coro-run turns it on for CPU devices).

    Bounded steps (`steps-per-launch=N`, N > 0): each launch runs at most N
    passes per instance and the frames live in global memory between
    launches, so that a driver that limits the loop iterations of a thread
    (lavapipe: 65535) still finishes instances that resume many times. The
    kernel then also takes the frame buffer of
    corogpu/runtime/InstanceABI.h after the status buffer: a `memref<?xi32>`
    of `frame_words` words per instance in SoA order (word `w` of instance
    `i` at `w * instances + i`), zeroed before the first launch (token 0:
    the entry). A launch copies an unfinished instance's frame into
    thread-private memory, runs up to N steps, and copies it back; the host
    relaunches until every instance returned. It needs `instance-status`,
    and a launch in IR is an error (the host loop is the runtime's).

    `bound-steps` (with `steps-per-launch=0`) bounds the steps all the same,
    by what a driver's loop limit counts: with `count-loop-iterations` an
    instance stops for this launch once its thread made 16384 loop passes
    (the state machine's, its subroutines' loops and the counting's), else
    after 16384 passes of the state machine; coro-run and host programs turn
    it on for devices that limit loops (lavapipe), so that instances that
    resume thousands of times finish there. Without `instance-status` it
    bounds nothing (the host could not tell when to stop). The
    module attribute `coro.state_machine` holds each coroutine's plan,
    `#coro_plan.state_machine<...>`: workgroup size, frame words, steps per
    launch and the subroutines' names.
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
           "Threads per workgroup (x); the grid's y and z map to workgroups">,
    Option<"instanceStatus", "instance-status", "bool", /*default=*/"true",
           "Give the kernel the status buffer of "
           "corogpu/runtime/InstanceABI.h (instances returned) as its last "
           "argument">,
    Option<"countLoopIterations", "count-loop-iterations", "bool",
           /*default=*/"false",
           "Count each instance's loop iterations into the status buffer, "
           "for drivers that limit them (on in the SPIR-V pipeline)">,
    Option<"stepsPerLaunch", "steps-per-launch", "int64_t", /*default=*/"0",
           "Passes of the state machine an instance runs per launch before "
           "its frame goes back to global memory, a subroutine each, or "
           "several with fall-through (0: every instance runs to its end in "
           "one launch)">,
    Option<"boundSteps", "bound-steps", "bool", /*default=*/"false",
           "With steps-per-launch=0: stop an instance for the launch once "
           "its thread made 16384 loop passes (counted with "
           "count-loop-iterations, else 16384 passes of the state machine), "
           "for devices that end a thread's loops (coro-run and host "
           "programs: on for such a device, as lavapipe)">,
    Option<"fallThrough", "fall-through", "bool", /*default=*/"false",
           "Each pass tests the tokens in order, `if (token == t)` one "
           "after the other, instead of a switch: a subroutine that leads "
           "to a later one goes on to it in the same pass (for devices that "
           "run every branch, taken or not, as lavapipe does)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::coro::plan::CoroPlanDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::spirv::SPIRVDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "GPU kernels emitted">
  ];
}

def CoroWavefrontToGPU : Pass<"coro-wavefront-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Materialize the wavefront scheduler as GPU kernels";
  let description = [{
    The paper's wavefront scheduler (Sec. 6.2) and the Cycles design: the
    frames of `capacity` instance slots live in one global buffer (SoA or
    AoS), and each round, entirely on the GPU,

    1. `<f>__wf_classify` (one thread per slot): a free slot takes the next
       unstarted instance of the grid (one atomic per workgroup, the slots
       of a workgroup numbered by a prefix count in workgroup memory); each
       slot's category is its target token (times `hint-buckets`, plus the
       bucket of its `sort-by` promise); its rank among the slots of its
       category in the workgroup is written, and the workgroup reserves
       the places of its slots in each category with one atomic on the
       category's counter;
    2. `<f>__wf_scan` (one workgroup): the counters give every category
       its total (and are cleared), a prefix sum over categories its place
       in the queue; it writes the workgroup counts of the next kernels
       (indirect dispatch arguments), the round's statistics and the
       termination flag;
    3. `<f>__wf_scatter`: every alive slot goes to its place in the queue:
       a multi-split, queues grouped by category (the order of the slots
       within a category follows the atomics, not the slots);
    4. `<f>__wf_compact_gather` / `_scatter` (none unless the load factor
       fell below the threshold after the grid is exhausted): the alive
       frames move to the first slots;
    5. `<f>__wf_<t>` for each token t: one thread per queued instance runs
       subroutine t on the frame of its slot, loading only the fields it
       reads and storing only the ones it writes.

    That is the `classify` design. The `queues` design (Laine, Karras and
    Aila's queued wavefront; the default) has no pass over all slots: each
    subroutine kernel appends every slot it leaves to the next round's
    queue of its new token, or to a ring of free slots, with one atomic add
    on that queue's count; `<f>__wf_advance` (one thread) then swaps the
    queues, turns their counts into indirect dispatch arguments, has the
    entry kernel start new instances on free slots from the ring, and
    decides termination. With `sort-by`, each append also numbers the slot
    in its category (one atomic on the category's counter), advance turns
    the counters into places, and `<f>__wf_scatter` (one thread per slot
    appended) moves each slot to its place: the round's queues are sorted
    by category, without a pass over every slot. The queue design has no
    compaction, "most first" order or half-empty refill; those need
    `design=classify`. With
    `subgroup-appends`, the append is one atomic per subgroup and queue:
    the instance runs under a test of its place in the queue, every lane
    of the subgroup reaches the append after it, and ballots of the
    lanes of each queue (sums of their lane bits) number them.

    Every kernel takes `(nx, ny, nz, frames, queue, ranks, blocks, state,
    scratch, args...)`; the state words and the kernel names are the
    contract with the runtime's host loop (`corogpu/runtime/WavefrontABI.h`,
    `Wavefront.h`), which records many rounds into one submission and reads
    the termination flag between them. `<f>__wf_init` marks every slot free.
    The module attribute `coro.wavefront` tells the host loop, per
    coroutine, the tokens, categories, frame words, layout and workgroup
    size (`#coro_plan.wavefront<...>`).

    The host side of `coro.launch` is that runtime loop: a `coro.launch` of
    a split coroutine is an error here (use `coro-run`, or the state-machine
    scheduler for launches in IR).
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
           "Threads per workgroup of every wavefront kernel">,
    Option<"layout", "layout", "::mlir::coro::FrameArrayLayout",
           /*default=*/"::mlir::coro::FrameArrayLayout::AoSoA",
           "How the frames of the slots share the frame buffer",
           [{::mlir::coro::getFrameArrayLayoutValues()}]>,
    Option<"sortBy", "sort-by", "std::string", /*default=*/"\"\"",
           "Integer promise field whose value orders each queue (e.g. a "
           "material id), for coherence, in the coroutines that have it "
           "(at least one must); empty: queues keep slot order">,
    Option<"hintBuckets", "hint-buckets", "int64_t", /*default=*/"16",
           "With sort-by: hint values are clamped to [0, hint-buckets)">,
    Option<"gridStride", "grid-stride", "bool", /*default=*/"false",
           "Subroutine kernels stride over their queue with a grid of any "
           "size (the runtime launches one sized for the device each round) "
           "instead of one thread per queued instance behind an indirect "
           "dispatch; the PTX pipeline sets it, as CUDA has no indirect "
           "dispatch and would launch every kernel's upper bound">,
    Option<"design", "design", "::mlir::coro::WavefrontDesign",
           /*default=*/"::mlir::coro::WavefrontDesign::Auto",
           "How each round builds the queues: queues (slots appended to "
           "their next queue as they leave a subroutine), classify (a pass "
           "over every slot: classify, scan, scatter; needed by the "
           "runtime's compaction, most-first order and half-empty refill), "
           "auto (queues)",
           [{::mlir::coro::getWavefrontDesignValues()}]>,
    Option<"countLoopIterations", "count-loop-iterations", "bool",
           /*default=*/"false",
           "Count the loop iterations of each subroutine run into the state "
           "buffer, for drivers that limit them (on in the SPIR-V pipeline)">,
    Option<"subgroupAppends", "subgroup-appends", "bool", /*default=*/"false",
           "Queue design: each subgroup appends its slots with one atomic "
           "per queue it reaches (ballots from subgroup reductions give the "
           "lanes their places) instead of one atomic per slot. Needs "
           "subgroup arithmetic (Vulkan) and, on CUDA, workgroups of whole "
           "warps; ballots have 32 bits, lanes past the 32nd append alone; "
           "coro-run turns it on where the device allows">,
    Option<"tailBelow", "tail-below", "unsigned", /*default=*/"0",
           "Queue design: build a tail kernel, and run it instead of the "
           "subroutine kernels in the rounds that start once the grid is "
           "exhausted with fewer than this % of the slots alive: each of "
           "its threads runs one instance through its subroutines, as the "
           "state machine does, so that the last instances finish in one "
           "launch rather than in many near-empty rounds (0: no tail)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::coro::plan::CoroPlanDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::spirv::SPIRVDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "GPU kernels emitted">
  ];
}

def CoroPersistentToGPU : Pass<"coro-persistent-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Materialize the persistent-threads scheduler as one GPU kernel";
  let description = [{
    The paper's persistent-threads scheduler (Sec. 6.3). `<f>__pt` runs on a
    fixed number of resident workgroups, each a block-wise state machine over
    `batch` instance slots:

    1. the slots' tokens, instance ids, a queue and one counter per
       subroutine live in workgroup memory; so do the frames of the first
       slots, as many as `shared-memory` bytes hold (SoA by default, against
       bank conflicts), and the frames of the other slots live in a global
       memory extension, so that a batch may be larger than workgroup
       memory allows (the paper's "GME");
    2. each step, the workgroup counts its live slots per token (workgroup
       atomics); its leader thread takes a batch of new instances with one
       global atomic when at least a workgroup's worth of slots is free (or
       all are), and picks the most common token;
    3. the free slots take the new instances; the slots with the chosen
       token are queued; every thread takes queued instances a workgroup
       apart and runs the subroutine, whose frame loads and stores go to
       the slot's frame (workgroup memory or extension) where it makes them,
       and writes the new token back;
    4. a workgroup stops when the grid is exhausted and its slots are free.

    With `steps-per-launch=N` (bounded steps; `bound-steps` picks N from a
    budget of loop passes), a workgroup also stops after N steps of a
    launch: it parks its slots (tokens, ids, frame table and
    the frames in workgroup memory) in its park area of the extension, and
    takes them back when the runtime launches the kernel again, with as
    many workgroups. Each launch then runs a bounded amount of work per
    thread, however often the instances resume: for drivers that end a
    thread's loops after a number of iterations (lavapipe: 65535). With
    `count-loop-iterations` as well, a workgroup parks earlier once a
    thread made 16384 loop passes in the launch (each thread raises the
    workgroup's peak at the end of a step, the leader reads it): the loops
    inside the subroutines, such as a BVH traversal, count too, which no
    step count chosen at compile time knows.

    With `fall-through`, an instance that the chosen subroutine leaves at a
    later token runs that subroutine too, in the same step: the run tests
    the tokens in order, `if (token == t)`, instead of switching on the
    chosen one (see `coro-state-machine-to-gpu`). Steps get fewer and less
    coherent; for devices that run every branch masked (lavapipe), where
    each step costs all subroutines anyway.

    With `swap-frames` (the paper's frame swapping), a slot's frame is no
    longer fixed: a table in workgroup memory names the frame each slot
    uses, and each step, before the run, the queued instances whose frames
    are in the extension trade frames with slots that do not run whose
    frames are in workgroup memory (words copied both ways; a free slot's
    frame is just overwritten), as many pairs as there are, behind one more
    barrier. The state buffer counts the swaps.

    The kernel takes `(nx, ny, nz, state, extension, args...)` and runs on
    any number of workgroups; the state words are the contract with the
    runtime (`corogpu/runtime/PersistentABI.h`, `Persistent.h`), which sizes
    the extension and picks the workgroup count. The module attribute
    `coro.persistent` tells it, per coroutine, the tokens, frame words,
    workgroup size, batch and how many slots are in workgroup memory
    (`#coro_plan.persistent<...>`).

    A `coro.launch` of a split coroutine is an error here (use `coro-run`,
    or the state-machine scheduler for launches in IR).
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"64",
           "Threads per workgroup">,
    Option<"batch", "batch", "int64_t", /*default=*/"256",
           "Instance slots per workgroup (at most 2^20)">,
    Option<"sharedMemory", "shared-memory", "int64_t", /*default=*/"16384",
           "Bytes of workgroup memory for the slots (4 x (3 batch + 2 "
           "subroutines + 10); with swap-frames, 4 x (5 batch + 2 "
           "subroutines + 13)) and as many of their frames as fit (16 KiB is "
           "what every Vulkan device has); the other frames go to the global "
           "memory extension">,
    Option<"layout", "layout", "::mlir::coro::FrameArrayLayout",
           /*default=*/"::mlir::coro::FrameArrayLayout::SoA",
           "How the frames of the slots share workgroup memory and the "
           "extension",
           [{::mlir::coro::getFrameArrayLayoutValues()}]>,
    Option<"swapFrames", "swap-frames", "bool", /*default=*/"false",
           "Swap frames: each step, the instances that run with frames in "
           "the extension trade frames with instances that do not run whose "
           "frames are in workgroup memory (2 x 4 x batch more bytes of "
           "workgroup memory, one more barrier in the steps that swap; "
           "only where the frames do not all fit in workgroup memory)">,
    Option<"fallThrough", "fall-through", "bool", /*default=*/"false",
           "After the chosen subroutine, an instance whose next token is a "
           "later one runs that subroutine too, in the same step (the "
           "tokens tested in order, `if (token == t)` one after the other, "
           "instead of a switch): fewer steps, less coherent ones; for "
           "devices that run every branch, taken or not, as lavapipe does">,
    Option<"stepsPerLaunch", "steps-per-launch", "int64_t", /*default=*/"0",
           "Steps a workgroup runs per launch (0: no bound, unless "
           "bound-steps); after them it parks its slots in the extension, "
           "and the runtime launches the kernel again, for drivers that "
           "limit a thread's loop iterations (lavapipe)">,
    Option<"boundSteps", "bound-steps", "bool", /*default=*/"false",
           "With steps-per-launch=0: as many steps per launch as take 16384 "
           "passes of the scheduler's own loops in a thread (per step: 2 per "
           "subroutine, 3 per slot a thread serves, 5 with swap-frames, and "
           "2), leaving the rest of lavapipe's 65535 to the coroutine's "
           "loops">,
    Option<"countLoopIterations", "count-loop-iterations", "bool",
           /*default=*/"false",
           "Count each thread's loop iterations in a launch into the state "
           "buffer, for drivers that limit them (on in the SPIR-V pipeline)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::coro::plan::CoroPlanDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::spirv::SPIRVDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "GPU kernels emitted">
  ];
}

#endif // COROGPU_CONVERSION_PASSES_TD

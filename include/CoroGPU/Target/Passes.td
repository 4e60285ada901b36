//===- Passes.td - SPIR-V, NVVM and kernel file passes -----*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_TARGET_PASSES_TD
#define COROGPU_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// SPIR-V: fix-ups around the GPU to SPIR-V conversion
//===----------------------------------------------------------------------===//

def CoroSPIRVWorkgroupMemory
    : Pass<"coro-spirv-workgroup-memory", "::mlir::ModuleOp"> {
  let summary = "Turn gpu.func workgroup attributions into SPIR-V Workgroup "
                "allocations";
  let description = [{
    The GPU to SPIR-V conversion does not legalize workgroup attributions
    (`gpu.func ... workgroup(%a : memref<64xi32,
    #gpu.address_space<workgroup>>)`), which the NVVM conversion turns into
    `.shared` memory. Before the SPIR-V conversion, this pass replaces the
    attributions of the kernels of every gpu.module by `memref.alloc`s in
    `#spirv.storage_class<Workgroup>` at the start of the kernel, which
    become Workgroup variables: the 1-D i32 attributions used only by loads,
    stores and atomics (those of the schedulers' kernels) by one arena per
    kernel, each at its offset in it, the arena the same size in every
    kernel of the module (see `coro-spirv-merge-workgroup-variables`); any
    other attribution by an allocation of its own.
  }];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect",
    "::mlir::spirv::SPIRVDialect"
  ];
}

def CoroSPIRVMergeWorkgroupVariables
    : Pass<"coro-spirv-merge-workgroup-variables", "::mlir::spirv::ModuleOp"> {
  let summary = "Let the kernels of a SPIR-V module share their Workgroup "
                "variables";
  let description = [{
    A SPIR-V 1.3 entry point does not list the Workgroup variables it uses,
    so drivers and the validation layer charge every kernel for all the
    Workgroup variables of its module: a module with the kernels of several
    coroutines would exceed `maxComputeSharedMemorySize` although each kernel
    stays within it. Two kernels never run in one workgroup at the same
    time, so they may share: the n-th Workgroup variable of a type that an
    entry point function uses becomes the n-th of that type in the module.
    Variables used by several functions, or by a function that is not an
    entry point (it could be called from a kernel that has its own), are
    left alone. With the one arena per
    kernel that `coro-spirv-workgroup-memory` gives every kernel, a module
    needs the workgroup memory of its largest kernel.
  }];
}

def CoroSPIRVBarrierSemantics
    : Pass<"coro-spirv-barrier-semantics", "::mlir::spirv::ModuleOp"> {
  let summary = "Make workgroup barriers order storage buffer accesses too";
  let description = [{
    `gpu.barrier` makes every memory access before it visible to the
    workgroup, but the GPU to SPIR-V conversion gives
    `spirv.ControlBarrier` the semantics `AcquireRelease|WorkgroupMemory`
    only, which leaves storage buffer accesses unordered under the Vulkan
    memory model. The persistent-threads kernel hands frames in its global
    memory extension from one thread of a workgroup to another across
    barriers, so every barrier that orders workgroup memory also gets
    `UniformMemory`.
  }];
}

def CoroSPIRVSubgroupBarriers
    : Pass<"coro-spirv-subgroup-barriers", "::mlir::spirv::ModuleOp"> {
  let summary = "Give the barriers of a workgroup that is one subgroup "
                "subgroup scope";
  let description = [{
    A one-dimensional workgroup of at most `subgroup-size` invocations (its
    entry point's `LocalSize` is `x, 1, 1` with `x <= subgroup-size`) is one
    subgroup: a subgroup-scope control barrier synchronizes all of it, and
    subgroup-scope memory semantics make its workgroup memory (and, with
    `UniformMemory`, its buffers) visible to all of it. Each
    `spirv.ControlBarrier` of workgroup scope in such an entry point gets
    subgroup scope (the memory scope too when it is the workgroup's);
    barriers in functions it calls stay. lavapipe runs each row of a
    workgroup on its own, so a `4, 2, 1` workgroup is two subgroups to its
    barriers (a review's reproducer read the other row's values before
    they were written), and is left alone; so is every kernel of a module
    with a `WorkgroupSize` built-in. lavapipe (Mesa 22.3) runs workgroup
    barriers far slower than subgroup ones, even in a workgroup of one
    subgroup: the persistent-threads kernel of the BVH path tracer, one
    subgroup of 8 per workgroup (coro-run's default on a CPU), took about
    100 ms with workgroup barriers and 70 ms with subgroup ones (the
    Cornell box, 128x128).

    `subgroup-size` must be a size every subgroup of the device has (a
    device whose subgroup size varies between pipelines could split a
    small workgroup); 0, the default, leaves every barrier as it is.
    coro-run sets it on CPU devices (lavapipe: 8) when it runs a kernel,
    not for `--emit`.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"0",
           "The device's subgroup size (0: unknown; no barrier changes)">
  ];
  let statistics = [
    Statistic<"numBarriers", "barriers",
              "Barriers given subgroup scope">
  ];
}

def CoroSPIRVRelaxedAtomics
    : Pass<"coro-spirv-relaxed-atomics", "::mlir::spirv::ModuleOp"> {
  let summary = "Give SPIR-V atomics relaxed memory semantics, as GLSL "
                "compilers do";
  let description = [{
    The MemRef to SPIR-V conversion gives every atomic `AcquireRelease`
    semantics with no storage class, which orders nothing under the Vulkan
    memory model, and which Mesa's lavapipe (22.3) miscompiles when the
    atomic sits in a loop whose trip count differs between invocations:
    atomics are lost and the values computed after the loop are wrong.
    glslang emits `atomicAdd` and friends with `None` (relaxed) semantics;
    this pass does the same for the atomic read-modify-write ops of a
    `spirv.module`. Barriers are left alone. The coroutines' atomics
    (counters, histograms, the wavefront scheduler's instance counter) only
    need atomicity.
  }];
}

def CoroSPIRVLocalArrays : Pass<"coro-spirv-local-arrays", "::mlir::ModuleOp"> {
  let summary = "Place the local arrays of GPU kernels in SPIR-V Function "
                "storage";
  let description = [{
    A `memref.alloca` in a `gpu.func` is private to the thread. For Vulkan
    the default memory space maps to storage buffers, so before
    `map-memref-spirv-storage-class` this pass gives the allocas of every
    gpu.module the `#spirv.storage_class<Function>` memory space, which
    `convert-gpu-to-spirv` turns into function variables. The conversion
    takes no array of `index` or of vectors of `i1` or `index` ("failed to
    legalize operation 'memref.alloca'"): such an array holds `i32` elements
    (vectors of them), converted at its loads and stores (`index` is 32 bits
    in these kernels); and it gave an array of `bf16` wrong values (it keeps
    bf16 values in f32s), so that one holds `f32` elements.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def CoroSPIRVKernelArguments
    : Pass<"coro-spirv-kernel-arguments", "::mlir::ModuleOp"> {
  let summary = "Give the arguments of GPU kernels types Vulkan can pass: "
                "i1 and i8 in 32 bits, vectors in buffers of their elements";
  let description = [{
    Vulkan kernels take their scalar arguments in small storage buffers, and
    LLVM 22's GPU to SPIR-V conversion makes such a buffer of the argument's
    own type. A buffer of `i1` is invalid SPIR-V (a boolean has no size in
    memory) and one of `i8` needs 8-bit storage, which the Vulkan target does
    not require; a vector argument gets no storage class at all ("failed to
    legalize operation 'spirv.func'"). Every coroutine becomes a kernel
    (a runtime may launch any of them), so one generator taking an `i1`,
    even one only a `coro.for_each` consumes, made its whole module invalid.
    Before `map-memref-spirv-storage-class`, this pass changes the
    arguments of every `gpu.func` kernel:

    - an `i1` or `i8` argument becomes an `i32`, truncated at the kernel's
      start (the runtime passes every integer narrower than 64 bits in 32);
    - a vector argument becomes a buffer of its elements, packed, which the
      kernel loads at its start: the buffer the runtime passes a scalar
      argument of that many bytes in (a `vector<3xf32>` takes 12 bytes, an
      index element 4, an `i1` or `i8` element 4, widened as a scalar is).

    ```mlir
    gpu.func @k(%b: i1, %v: vector<2xi32>) kernel { ... %b ... %v ... }
    // becomes
    gpu.func @k(%w: i32, %m: memref<2xi32>) kernel {
      %b = arith.trunci %w : i32 to i1
      %x = memref.load %m[%c0] : memref<2xi32>
      %y = memref.load %m[%c1] : memref<2xi32>
      %v = vector.from_elements %x, %y : vector<2xi32>
      ...
    }
    ```

    Each `gpu.launch_func` of such a kernel in host code passes the widened
    value (`arith.extui`) or a buffer (`memref.alloc`, freed after a
    synchronous launch) that holds the elements. Vectors of more than 4
    elements, of more than one dimension, or of elements other than i1, i8,
    i16, i32, i64, index, f16, f32 and f64 are a located error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
  let statistics = [
    Statistic<"numNarrowArguments", "narrow-arguments",
              "i1 and i8 kernel arguments passed in 32 bits">,
    Statistic<"numVectorArguments", "vector-arguments",
              "Vector kernel arguments passed in buffers">
  ];
}

def CoroSPIRVExpandArith
    : Pass<"coro-spirv-expand-arith", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Expand the arith ops the SPIR-V conversion cannot lower";
  let description = [{
    LLVM 22's Arith to SPIR-V conversion rejects some ops the verifier
    accepts and the PTX path compiles ("failed to legalize operation"). This
    pass expands them into ops it lowers:

    - `arith.ceildivsi`, `arith.ceildivui` and `arith.floordivsi`, with the
      upstream expansions into divisions, remainders and selects;
    - casts between `i1` and `index`, which folding makes (coro-split's
      scf.if clean-up turns a flag that picks an `scf.index_switch` case
      into `arith.index_castui %b : i1 to index`); SPIR-V booleans are no
      integers:

    ```mlir
    arith.index_castui %b : i1 to index  ->  arith.select %b, %c1, %c0 : index
    arith.index_cast %b : i1 to index    ->  arith.select %b, %cm1, %c0 : index
    arith.index_cast[ui] %i : index to i1
        ->  arith.cmpi ne, (arith.andi %i, %c1), %c0 : index
    ```

    Integer additions, subtractions and multiplications of `i1` (or
    vectors of it), which SPIR-V's integer instructions do not take, become
    the boolean ops of the same bits: `arith.addi` and `arith.subi` an
    `arith.xori`, `arith.muli` an `arith.andi`.

    It also expands `arith.remsi`, which the conversion accepts but gets
    wrong for the smallest integer: it takes the result's sign from
    `a == abs(a)`, true for INT_MIN, whose abs wraps to itself, so
    `remsi(INT_MIN, 25)` gave 23 instead of -23 (found by coro-fuzz, seed
    1919). Here the magnitudes' unsigned remainder takes the sign of `a < 0`:

    ```mlir
    arith.remsi %a, %b  ->  select(a < 0, 0 - r, r)
        with r = arith.remui |a|, |b|, |x| = select(x < 0, 0 - x, x)
    ```
    And `arith.bitcast` between `bf16` and `i16` (how a frame keeps a bf16
    field's bits), which became an invalid 32-to-16-bit `spirv.Bitcast`
    since the conversion keeps bf16 values in f32s; it goes through f32:

    ```mlir
    arith.bitcast %x : bf16 to i16
        ->  trunci(bitcast(extf %x : f32) : i32 >> 16)
    arith.bitcast %b : i16 to bf16
        ->  truncf(bitcast(extui %b << 16 : i32) : f32)
    ```

    Run it on GPU modules before `convert-gpu-to-spirv`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CoroSPIRVExpandMath
    : Pass<"coro-spirv-expand-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Expand the math ops the SPIR-V conversion cannot lower";
  let description = [{
    LLVM 22's Math to SPIR-V conversion has no pattern for some math ops
    the verifier accepts and the PTX path compiles ("failed to legalize
    operation"). This pass expands them into math and arith ops it lowers
    to GLSL.std.450 instructions:

    - `math.atan2` (f16, f32): the SPIR-V dialect has no Atan2, so atan of
      the ratio of the smaller to the larger magnitude (in [0, 1]: no
      division by zero), folded into the quadrant; the error is Atan's plus
      a division's (Vulkan allows Atan2 4096 ULP). Both zero give 0:

      ```mlir
      math.atan2 %y, %x  ->  copysign(a3, y) with
          a1 = atan(min(|x|, |y|) / max(|x|, |y|))
          a2 = |y| > |x| ? pi/2 - a1 : a1,  a3 = x < 0 ? pi - a2 : a2
      ```
    - `math.trunc`: `x < 0 ? ceil(x) : floor(x)`;
    - `math.sincos`: `math.sin` and `math.cos`;
    - `math.isnormal`: `|x| >= smallest normal && |x| < inf`;
    - `math.isfinite`: `|x| < inf` (upstream makes an OpIsFinite, which
      only OpenCL kernels may hold: spirv-val rejected the module);
    - `math.clampf`: upstream's expansion, as the op defines it:
      `maximumf(minimumf(value, min), max)`;
    - `math.erf`, `math.erfc` and `math.cbrt` on f32: upstream's polynomial
      approximations (those of `math-polynomial-approximation`).

    `math.exp2` has a GLSL instruction but no pattern:
    `coro-spirv-convert-gpu` lowers it. What stays (`math.fpowi` with an
    exponent that is not a constant, `math.ipowi`, `math.ctpop`,
    `math.cttz`, `math.atan2` on f64, ...) is reported by the conversion at
    the op ("failed to legalize operation").
    Run it on GPU modules before `convert-math-to-spirv`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def CoroSPIRVConvertGPU
    : Pass<"coro-spirv-convert-gpu", "::mlir::ModuleOp"> {
  let summary = "Convert GPU modules to SPIR-V as convert-gpu-to-spirv does, "
                "with the ops it leaves out that SPIR-V has instructions for";
  let description = [{
    Upstream's `convert-gpu-to-spirv` for Vulkan targets: each `gpu.module`
    is cloned into a `spirv.module` (placed before it; the launches still
    name it), its memref memory spaces mapped to Vulkan storage classes,
    and the GPU, SCF, arith, memref, func and vector patterns applied in a
    full conversion. Added are the patterns for what LLVM 22 leaves out and
    no rewrite before the conversion can express:

    ```mlir
    math.exp2 %x : f32                    ->  spirv.GL.Exp2 %x : f32
    memref.atomic_rmw assign %v, %m[%i] : (i32, memref<?xi32>) -> i32
        ->  spirv.AtomicExchange <Device> <AcquireRelease> %ptr, %v : !spirv.ptr<i32, StorageBuffer>
    memref.atomic_rmw xori %v, %m[%i] : (i32, memref<?xi32>) -> i32
        ->  spirv.AtomicXor <Device> <AcquireRelease> %ptr, %v : !spirv.ptr<i32, StorageBuffer>
    ```

    `spirv.GL.Exp2` takes f16 and f32 (and vectors of them); the exchange
    and the xor 32- and 64-bit integer elements (a float exchange needs a
    Vulkan device feature; narrow integers are emulated in words), in
    buffers (scope `Device`, as above) or workgroup memory (scope
    `Workgroup`), the scopes of the upstream `atomic_rmw` patterns. The
    other `atomic_rmw` kinds keep the upstream patterns: `addi`, `andi`,
    `ori`, `maxs`, `maxu`, `mins`, `minu` lower; `muli` and the float
    kinds (`addf`, `mulf`, `maximumf`, `minimumf`, `maxnumf`, `minnumf`)
    fail at the op ("failed to legalize operation 'memref.atomic_rmw'").

    Before converting, `memref.dim` of a static size becomes the size, and
    `memref.dim` of a dynamic one (a buffer argument's length) is an error
    at the op: Vulkan kernels are not given their buffers' sizes (buffers
    are rounded up to words, and narrow elements live in words), so the
    size must come in as an argument.
  }];
  let options = [
    Option<"use64bitIndex", "use-64bit-index", "bool", /*default=*/"false",
           "Use 64-bit integers for index (as convert-gpu-to-spirv)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def CoroSPIRVDebugPrintf
    : Pass<"coro-spirv-debug-printf", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.printf for Vulkan, as NonSemantic.DebugPrintf "
                "(shown by the validation layer)";
  let description = [{
    LLVM 22 lowers `gpu.printf` to SPIR-V only for OpenCL kernels
    (`OpenCL.std` printf); a Vulkan shader prints with the
    `NonSemantic.DebugPrintf` extended instruction (GLSL's
    `debugPrintfEXT`), which the Khronos validation layer executes and
    reports (`coro-run --printf`), and which other drivers ignore. MLIR's
    SPIR-V dialect cannot express that instruction, so this pass makes each
    print a call of a marker function, `spirv.func @__coro_debug_printf_<n>`
    with the format in its `coro.debug_printf` attribute, and
    `coro::serializeSPIRV` (CoroGPU/Target/SerializeSPIRV.h) turns the calls
    into `OpExtInst ... NonSemantic.DebugPrintf` in the words and drops the
    functions:

    ```mlir
    gpu.printf "[#%u @shade] hit %f
", %id, %t : i32, f32
    // becomes
    spirv.FunctionCall @__coro_debug_printf_0(%id, %t) : (i32, f32) -> ()
    spirv.func @__coro_debug_printf_0(i32, f32) "None"
        attributes {coro.debug_printf = "[#%u @shade] hit %f
"}
    ```

    The arguments DebugPrintf takes are 32- and 64-bit integers and 32-bit
    floats (`gpu.printf` takes no vectors): `index` becomes i32 (the
    target's), `i1`,
    `i8` and `i16` are extended to `i32` (signed), `f16` and `bf16` to
    `f32`, and `f64` is rounded to `f32` (`%lf` becomes `%f`). The layer
    prints numbers only (a `%s` crashed it), reads a 64-bit integer only
    with `%lu`, `%lx`, `%lX` or `%lo` (any other conversion of one shifts
    every later argument), and takes no `*` width, so a format whose
    conversions do not fit its arguments is an error here, at the print.
    Run it on GPU modules before `convert-gpu-to-spirv`.
  }];
  let statistics = [
    Statistic<"numPrints", "prints", "gpu.printf ops lowered">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::spirv::SPIRVDialect"
  ];
}

def CoroSPIRVScalarizeVectorMemory
    : Pass<"coro-spirv-scalarize-vector-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Load and store vectors from memrefs of scalars element by "
                "element";
  let description = [{
    LLVM 22's Vector to SPIR-V conversion lowers a `vector.load` or
    `vector.store` on a memref of scalars to an access through the scalar's
    pointer bitcast to a pointer to the vector, which Vulkan's logical
    addressing forbids (spirv-val: "OpLoad Pointer <id> ... is not a logical
    pointer"), so such a kernel was rejected as invalid. This pass rewrites
    each of them into one `memref.load` or `memref.store` per element, the
    vector's dimensions laid over the memref's trailing ones as `vector.load`
    defines them:

    ```mlir
    %v = vector.load %m[%i] : memref<?xf32>, vector<2xf32>
    // becomes
    %i1 = arith.addi %i, %c1 : index
    %e0 = memref.load %m[%i] : memref<?xf32>
    %e1 = memref.load %m[%i1] : memref<?xf32>
    %v = vector.from_elements %e0, %e1 : vector<2xf32>
    ```

    and `vector.store` into `vector.extract`s and `memref.store`s (test:
    test/e2e/programs/vector-memory.mlir under every scheduler). On a
    memref whose elements are the vector (`memref<2xvector<4xf32>>`, a local
    array of vectors) an access is one `memref.load` or `memref.store` of
    the element, which the conversion lowers (its vector ops did not: "result
    type must be different from operand type"). The SPIR-V conversion takes
    vectors of 1 to 4 elements only: longer and n-D vectors still fail to
    legalize. Run it on GPU modules before `convert-gpu-to-spirv`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect"
  ];
  let statistics = [
    Statistic<"numScalarized", "scalarized-accesses",
              "vector.load and vector.store ops rewritten element by element">
  ];
}

def CoroSPIRVUnsignedI64Compares
    : Pass<"coro-spirv-unsigned-i64-compares", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Compare 64-bit integers as unsigned ones with flipped sign "
                "bits (a lavapipe workaround)";
  let description = [{
    lavapipe (Mesa 22.3) miscompiles a signed 64-bit `<`, `<=`, `>` or `>=`
    between a value sign-extended from 32 bits and a constant: the answer is
    the same for every value (test/e2e/known/driver/i64-sext-compare.test
    proves it with glslang's SPIR-V, no CoroGPU code involved). Its unsigned
    comparisons are right, so this pass rewrites every signed relational
    `arith.cmpi` on `i64` (or a vector of `i64`) into the unsigned one on
    the operands with their sign bits flipped, which orders them the same:

    ```mlir
    %lt = arith.cmpi slt, %a, %b : i64
    // becomes
    %sign = arith.constant -9223372036854775808 : i64
    %fa = arith.xori %a, %sign : i64
    %fb = arith.xori %b, %sign : i64
    %lt = arith.cmpi ult, %fa, %fb : i64
    ```
    The cost is one integer xor per operand on GPUs that compare 64-bit
    integers in 32-bit halves anyway. Run it on GPU modules before
    `convert-gpu-to-spirv`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CoroSPIRVExposeTargetEnv
    : Pass<"coro-spirv-expose-target-env", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give a gpu.module its SPIR-V target as the spirv.target_env "
                "attribute";
  let description = [{
    `spirv-attach-target` records a GPU module's SPIR-V target (version,
    capabilities, extensions) in the module's `targets`, where
    `convert-gpu-to-spirv` finds it. Other conversions look the target up
    in the `spirv.target_env` attribute of an enclosing symbol table and
    fall back to SPIR-V 1.0 with the Shader capability only:
    `convert-math-to-spirv` then leaves `math.absf` on `f64` or `f16`
    unconverted (no Float64 / Float16), and the GPU conversion fails with
    "failed to legalize operation 'math.absf'". This pass copies the
    module's (single) SPIR-V target into that attribute; a module with no
    SPIR-V target, or that has the attribute already, is left alone.
  }];
}

def CoroSPIRVUniformReductions
    : Pass<"coro-spirv-uniform-reductions", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make uniform subgroup reductions reductions over the active "
                "lanes, which MLIR lowers to SPIR-V";
  let description = [{
    MLIR 22's `convert-gpu-to-spirv` lowers `gpu.subgroup_reduce` only
    without `uniform` (to `OpGroupNonUniform*` with the `Reduce` group
    operation) and fails on a uniform one. A uniform reduction runs where
    every lane of the subgroup is active, so reducing over the active
    lanes is the same reduction: this pass drops the `uniform` flag. The
    wavefront scheduler's subgroup appends (`coro-wavefront-to-gpu
    subgroup-appends`) use uniform reductions, which the NVVM side lowers
    to full-warp `redux.sync` or shuffles (`coro-nvvm-subgroup-ops`).
  }];
  let statistics = [
    Statistic<"numReductions", "reductions",
              "Uniform subgroup reductions made reductions over the active "
              "lanes">
  ];
}

def CoroSPIRVStructurizeWhile
    : Pass<"coro-spirv-structurize-while", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Move scf.while conditions that SPIR-V drivers cannot take "
                "as a loop header into the loop body";
  let description = [{
    The SCF to SPIR-V conversion of LLVM 22 makes an `scf.while`'s `before`
    region the header block of a SPIR-V loop. When that region holds a loop,
    a branch or any other op with regions, the serialized module is invalid
    (`spirv-val`: "OpPhi's incoming basic block ... is not a predecessor"),
    and drivers may reject or miscompile it. Renderers write exactly that
    shape: `while (intersect(ray)) { ... }` with a BVH traversal loop in the
    condition.

    A straight-line header is not safe either when the trip count differs
    between lanes. lavapipe (Mesa 22.3) gives a lane that left the loop the
    values its header computed in a later pass of the other lanes, made
    with that lane masked off (its loads then give 0): the loop's results
    come out wrong when the condition region forwards a value it computed
    or loaded, and so do values it stored to private memory
    (test/e2e/known/driver/README.md, Bug 1, proven with GLSL and no
    CoroGPU code; test/e2e/vulkan/loop-exit-values.mlir). So a header may
    only compute the condition, reading memory for it, and forward its own
    arguments, whose values such a lane keeps. A value it computes must not
    leave it even when nothing after the loop reads that result: the body
    may yield it back as an argument, and lavapipe may then update the
    argument in the lanes that left. (In the SPIR-V pipeline every
    `scf.while` condition region also stores the loop-iteration record of
    the termination checks, on by default, so all of them move; the loops
    `scf-for-to-while` makes of `scf.for` keep their header.)

    This pass rewrites every other loop, innermost first, into one whose
    condition only tests a flag, without duplicating any code:

    ```mlir
    %r = scf.while (%a = %init) : (A) -> (R) {
      <before(%a)>                       // may hold loops, ifs, ...
      scf.condition(%c) %v : R
    } do {
    ^bb0(%x: R):
      <after(%x)>
      scf.yield %next : A
    }
    ```
    becomes
    ```mlir
    %w:2 = scf.while (%go = %true, %a = %init, %v = <zero>)
        : (i1, A, R) -> (A, R) {
      scf.condition(%go) %a, %v : A, R
    } do {
    ^bb0(%a: A, %unused: R):
      <before(%a)>
      %next = scf.if %c -> (A) { <after(%v)> scf.yield %next : A }
              else { scf.yield %a : A }
      scf.yield %c, %next, %v : i1, A, R
    }
    // %r is %w#1
    ```
    The first iteration enters the body with `%go` true; every later test
    of the condition is the flag the body computed. Values of `R` with no
    zero constant start as `ub.poison` (never read). Loops whose condition
    region is straight-line code that writes no memory and forwards only its
    arguments are left alone (the `scf.for` loops `scf-for-to-while` makes).

    Run it on GPU modules after `scf-for-to-while` (which turns every
    `scf.for` into an `scf.while`) and before `convert-gpu-to-spirv`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
  let statistics = [
    Statistic<"numLoopsRewritten", "loops-rewritten",
              "scf.while loops whose condition moved into the body">
  ];
}

//===----------------------------------------------------------------------===//
// NVVM
//===----------------------------------------------------------------------===//

def CoroNVVMAlignGlobals : Pass<"coro-nvvm-align-globals", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the globals of a GPU module 16-byte aligned, as "
                "the NVPTX backend's vectorized accesses to them assume";
  let description = [{
    The NVPTX backend writes the PTX declaration of each global, such as
    the workgroup (`.shared`) arrays of the persistent-threads scheduler,
    before its load-store vectorizer runs. The vectorizer may raise the
    alignment of a global the module defines and then access it with 8- or
    16-byte vector instructions (`st.shared.v4.b32`), but the declaration
    keeps the alignment it had (`.align 4`): ptxas accepts the PTX, and the
    kernel fails at run time with CUDA_ERROR_MISALIGNED_ADDRESS.

    Run after `convert-gpu-to-nvvm`, this pass gives every global the GPU
    module defines an alignment of at least 16 bytes, the widest access the
    vectorizer forms, so that the declaration and the code agree. External
    declarations are left as they are.
  }];
  let statistics = [
    Statistic<"numGlobalsAligned", "globals-aligned",
              "Globals whose alignment was raised to 16 bytes">,
  ];
}

def CoroNVVMLowerVectorOps
    : Pass<"coro-nvvm-lower-vector-ops", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite the vector ops that the GPU to NVVM conversion "
                "does not take into ones it does";
  let description = [{
    `convert-gpu-to-nvvm` converts vector ops with the vector-to-LLVM
    patterns, which take `vector.extract`, `insert`, `shuffle`, `fma`,
    `reduction` and the like, but not the ops that upstream's
    `convert-vector-to-llvm` pass first rewrites into those:
    `vector.extract_strided_slice` and `insert_strided_slice`,
    `vector.step`, multi-dimensional `vector.bitcast` and `broadcast`. Left
    in a kernel, such an op reaches the LLVM translation unconverted and the
    PTX pipeline fails ("missing LLVMTranslationDialectInterface") on
    programs the SPIR-V pipeline and the CPU reference run.

    Run before `convert-gpu-to-nvvm`, this pass applies upstream's rewrite
    patterns for those ops: strided slices become chains of `extract` and
    `insert` (or a `shuffle`), `vector.step` a constant, bitcasts and
    broadcasts of more than one dimension their one-dimensional pieces.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def CoroNVVMUnpackF64 : Pass<"coro-nvvm-unpack-f64", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Take the two words of an f64 apart with nvvm.d2i.lo/hi, "
                "working around a ptxas miscompilation of their stores";
  let description = [{
    The schedulers store a 64-bit frame field as two 32-bit words: the bits
    of an f64 (`llvm.bitcast` to i64), truncated for the low word and
    shifted for the high one. The NVPTX backend folds the truncation into
    the store, `st.global.b32 [a], %rd2` with the f64's own register, and
    ptxas of CUDA 13.0 (sm_90) miscompiles that store when `%rd2` comes from
    `cvt.f64.f32`: the machine code converts the value to an unsigned
    integer (`F2I.U32.F64.TRUNC`) and stores that instead of the low bits.
    An f64 widened from an f32 and kept across a suspension then loses its
    low word under the wavefront and persistent-threads schedulers, which
    keep frames in memory (seen on an H100: test/e2e/programs/float-widths
    differed from the mega-kernel in the last 30 bits).

    Run after `convert-gpu-to-nvvm`, this pass replaces each `llvm.bitcast`
    from f64 to i64 by the words that `llvm.nvvm.d2i.lo` and
    `llvm.nvvm.d2i.hi` take out of the f64, combined again
    (`(hi << 32) | lo`); the optimizer folds the frame store's truncation
    and shift back to the two words, and the NVPTX backend emits
    `mov.b64 {%r1, %r2}, %rd2`, as for CUDA's `__double2loint`, and stores
    32-bit registers.
  }];
  let statistics = [
    Statistic<"numBitcastsUnpacked", "bitcasts-unpacked",
              "f64-to-i64 bitcasts replaced by nvvm.d2i.lo/hi">,
  ];
}

def CoroNVVMSubgroupOps
    : Pass<"coro-nvvm-subgroup-ops", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower subgroup reductions over the active lanes to "
                "redux.sync with the active mask, and the subgroup size to "
                "the warp size";
  let description = [{
    MLIR 22 lowers `gpu.subgroup_reduce` to NVVM only when it is `uniform`
    (the whole warp converged). The reductions `coro-profile-lanes` adds run
    in divergent code over the lanes active there. Run before
    `convert-gpu-to-nvvm`, this pass replaces each non-uniform reduction of
    an `i32` (add, and, or, xor, signed and unsigned min and max) by
    `redux.sync` over the mask `activemask.b32` gives, which reduces exactly
    the active lanes. Both are one `llvm.inline_asm` with side effects whose
    text is unique in the module: LLVM merged identical calls of the
    `nvvm.redux.sync` and `llvm.nvvm.activemask` intrinsics from the two
    branches of a test into one after them, where other lanes are active,
    and it does not merge or move such asm.

    `redux.sync` needs sm_80 or newer: with an older target chip, and for
    any other non-uniform reduction (floats, vectors, clusters), the pass
    fails with an error located at the reduction. Uniform `i32`
    reductions of those kinds (the wavefront scheduler's subgroup appends)
    become `redux.sync` over the whole warp (mask `0xffffffff`, which makes
    the warp's lanes converge there), or before sm_80 five xor shuffles;
    other uniform reductions are left to the upstream lowering.
    `gpu.subgroup_size`, which MLIR 22 does not lower to NVVM either,
    becomes the warp size, 32.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
  let statistics = [
    Statistic<"numReductions", "reductions",
              "Subgroup reductions lowered to redux.sync">,
  ];
}

def CoroNVVMNativeMath : Pass<"coro-nvvm-native-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Replace the libdevice calls PTX has instructions for with "
                "LLVM intrinsics, so that only the others need libdevice";
  let description = [{
    `convert-gpu-to-nvvm` turns `math` ops into calls into libdevice
    (`math.sqrt` into `__nv_sqrtf`), which `gpu-module-to-binary` links only
    where it finds a CUDA toolkit; without one the PTX calls undefined
    functions and ptxas rejects it. Square roots, absolute values, rounding,
    fused multiply-add and copysign are single PTX instructions, so run
    after `convert-gpu-to-nvvm`, this pass replaces the calls to
    `__nv_sqrt[f]`, `fabs`, `floor`, `ceil`, `trunc`, `rint`, `fma` and
    `copysign` with the LLVM intrinsics the NVPTX backend selects them from
    (`sqrt`, `abs`, `cvt.rmi`, ...) and erases the declarations left
    unused. Kernels that use only these ops need no CUDA installation, and
    the PTX is what linking libdevice gives: f32 square roots are
    `sqrt.approx.f32` (libdevice's choice when the module does not ask for
    precise ones, and MLIR's NVVM target does not), f64 ones `sqrt.rn.f64`.

    The other libdevice calls (`__nv_sinf`, `__nv_expf`, ...) are left. With
    `libdevice=false` (the pipelines set it when no toolkit was found) each
    of them is an error at the location of the math op it came from,
    instead of PTX that ptxas rejects.
  }];
  let options = [
    Option<"libdevice", "libdevice", "bool", /*default=*/"true",
           "libdevice is linked; when false, the remaining libdevice calls "
           "are errors">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// Binaries: the compiled kernels as files
//===----------------------------------------------------------------------===//

def CoroWriteKernels : Pass<"coro-write-kernels", "::mlir::ModuleOp"> {
  let summary = "Write the compiled kernels (SPIR-V, PTX) to files";
  let description = [{
    Writes every `spirv.module` (as produced by `convert-gpu-to-spirv`)
    serialized to `<output-dir>/<symbol>.spv`, and every object of every
    `gpu.binary` (as produced by `gpu-module-to-binary`) to
    `<output-dir>/<binary>.<chip>.<ext>`, with `ptx` for the `isa` format,
    `cubin` for `bin` and `fatbin` for `fatbin`. The files are what
    `spirv-val`, `ptxas` and the runtimes consume. The IR is not modified.
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\"\"",
           "Directory to write the kernel files into">
  ];
}

#endif // COROGPU_TARGET_PASSES_TD

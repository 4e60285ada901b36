//===- CoroBase.td - The coro dialect definition -----------*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_DIALECT_CORO_IR_COROBASE_TD
#define COROGPU_DIALECT_CORO_IR_COROBASE_TD

include "mlir/IR/OpBase.td"

def Coro_Dialect : Dialect {
  let name = "coro";
  let cppNamespace = "::mlir::coro";
  let summary = "Stackless GPU coroutines: suspension points, frames and awaits";
  let description = [{
    The `coro` dialect lets a GPU kernel be written as one "mega-kernel"
    coroutine with explicit split points. One coroutine instance runs per point
    of the dispatch grid; the compiler splits the body at every suspension point
    into subroutines that communicate through a packed state frame, and a
    scheduler (state machine, wavefront, persistent threads, or the mega-kernel
    reference) decides how the subroutines run on the GPU.

    The model is the one of "GPU Coroutines for Flexible Splitting and
    Scheduling of Rendering Tasks" (Zheng et al., ACM TOG 2024): asymmetric,
    stackless and void-returning. A coroutine may suspend anywhere in its own
    body, at any depth of structured (`scf`) or unstructured (`cf`) control
    flow, but not inside a callable (`func.func`) nor inside a parallel loop.
    Chained suspension through nested coroutines uses `coro.await`; generators
    produce values lazily with `coro.yield`.

    ```mlir
    coro.func @render(%spp: i32, %image: memref<?xf32>) {
      %id = coro.id : index
      ...
      coro.suspend "shade"
      coro.promise "radiance", %L : f32
      coro.return
    }
    ```

    **Types.** Scalars are `i1`, `i8`, `i16`, `i32`, `i64`, `index`, `f16`,
    `bf16`, `f32` and `f64`, and vectors of them. Every scheduler takes
    each of these, and vectors of 2 to 4 of each, in every position:
    arguments of launched, awaited, driven (`coro.handle.*`) and
    consumed (`coro.for_each`) coroutines, `coro.yield` values (read by
    `coro.for_each` or `coro.handle.promise "__yielded_value"`),
    `coro.promise` fields read by `coro.handle.promise`, values live across
    a suspension (frame fields), `coro.for_each` iter_args and results, and
    the elements of local arrays (`memref.alloca`); buffers (memref
    arguments of a launched coroutine) hold `i1`, `i8`, `i16`, `i32`,
    `i64`, `f16`, `f32` and `f64` elements (and `bf16` on CUDA).
    test/e2e/types runs that matrix on Vulkan under seven scheduler
    configurations of coro-run and in a host program, its values computed
    apart from MLIR (CUDA has not run it). What does not run is refused
    with an error that names the type and the position:

    - a vector *argument* of a SPIR-V kernel (any coroutine of the module,
      since each becomes a kernel) has at most 4 elements, of one dimension,
      and no `bf16` elements (a scalar `bf16` argument travels in an `f32`):
      `coro-spirv-kernel-arguments` reports it at the coroutine;
    - a buffer of `index` (32 bits in SPIR-V kernels, 64 in PTX ones),
      vector or (on SPIR-V) `bf16` elements, which host and kernels lay out
      differently: coro-run reports it at the coroutine, a host program at
      the `coro.launch`, each with what to pass instead.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

/// Base class of all coro operations.
class Coro_Op<string mnemonic, list<Trait> traits = []>
    : Op<Coro_Dialect, mnemonic, traits>;

#endif // COROGPU_DIALECT_CORO_IR_COROBASE_TD

//===- CoroBase.td - The coro dialect definition -----------*- tablegen -*-===//
//
// Part of the CoroGPU project.
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

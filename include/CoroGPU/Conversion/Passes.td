//===- Passes.td - coroutine conversion passes -------------*- tablegen -*-===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_PASSES_TD
#define COROGPU_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoroMegakernelToFunc : Pass<"coro-megakernel-to-func", "::mlir::ModuleOp"> {
  let summary = "Materialize the mega-kernel reference as host functions";
  let description = [{
    The mega-kernel is the coroutine with its suspension points erased: the
    reference every scheduler is checked against. This pass materializes it
    for the host (CPU), so the front half of the pipeline can be checked by
    execution with `mlir-runner` without a GPU:

    - each `coro.func @f(args)` becomes `func.func @f(%x, %y, %z, %nx, %ny:
      index, args)`, called once per instance: `coro.id d` is `%x`, `%y` or
      `%z`, the linear `coro.id` is `x + nx * (y + ny * z)`; `coro.suspend`
      and `coro.promise` are erased (frame fields are not memory effects of
      the reference) and `coro.return` becomes `func.return`;
    - each `coro.launch @f[gx, gy, gz](args)` becomes a loop nest over the
      grid (z outermost) calling `@f` for every instance in order.

    Run `coro-inline-awaits` and `coro-expand-yield` first: a remaining
    `coro.await` or `coro.yield` is reported as an error.
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
      `!coro.frame`, the frame as memrefs: `(%token: memref<i32>, %x, %y,
      %z, %nx, %ny: index, %slot0: memref<T0>, ..., args)`; the
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

#endif // COROGPU_CONVERSION_PASSES_TD

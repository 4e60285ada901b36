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

#endif // COROGPU_CONVERSION_PASSES_TD

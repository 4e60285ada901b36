//===- Passes.td - coroutine transformation passes ---------*- tablegen -*-===//
//
// Part of the CoroGPU project.
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

#endif // COROGPU_TRANSFORMS_PASSES_TD

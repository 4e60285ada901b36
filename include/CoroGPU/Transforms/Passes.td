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

def CoroInlineCallables : Pass<"coro-inline-callables", "::mlir::ModuleOp"> {
  let summary = "Inline the callables a coroutine calls into its body";
  let description = [{
    The splitter needs to see the whole coroutine: a callable's locals may be
    live across a suspension point of its caller, and after the split each
    subroutine is an ordinary function that is easier to optimize without
    calls. This pass replaces every `func.call` in a `coro.func` (at any
    depth) whose callee is a `func.func` with a body by the callee's body,
    recursively, until no such call is left.

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

#endif // COROGPU_TRANSFORMS_PASSES_TD

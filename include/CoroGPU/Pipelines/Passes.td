//===- Passes.td - passes that run other passes ------------*- tablegen -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The passes that run other passes of several layers in rounds: they live
// with the pipelines, the one layer that sees Transforms and Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_PIPELINES_PASSES_TD
#define COROGPU_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def CoroResolveHandles : Pass<"coro-resolve-handles", "::mlir::ModuleOp"> {
  let summary = "Split the coroutines that code drives, innermost first, and "
                "lower every handle and generator loop";
  let description = [{
    A coroutine driven by `coro.handle` ops or consumed by `coro.for_each`
    may itself drive other coroutines' frames, and hold them across its own
    suspension points: a generator over a generator (nested generators),
    which yields inside its loop over the inner one. Its split must see
    those frames as local arrays, so their handles are lowered before it is
    split. This pass lowers in rounds over the drive graph, each round
    running

        coro-split{handle-targets-only}
        coro-materialize-frame
        coro-lower-handles{skip-unsplit}

    which splits the driven coroutines that drive nothing themselves and
    lowers the ops that drive split coroutines, until no `coro.handle.*` or
    `coro.for_each` op is left. The coroutines that no handle drives are
    left whole, for the scheduler's split. Every pipeline runs it as the
    last step of the front half (`buildFrontHalfPipeline`).

    A located error for coroutines that drive each other's frames in a
    cycle (a frame cannot hold one of its own kind), and the errors of the
    three passes.
  }];
  let statistics = [
    Statistic<"numRounds", "rounds", "Rounds over the drive graph">
  ];
}

#endif // COROGPU_PIPELINES_PASSES_TD

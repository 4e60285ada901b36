//===- CPUReference.h - a coroutine run on the CPU, apart from the split --===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The reference of `coro-run --check=cpu`: every instance of the grid runs
// to completion, in order, on the host, compiled by the JIT. It goes
// through coro-inline-generators and coro-megakernel-to-func, then upstream
// passes only: none of the passes the schedulers' code goes through
// (inlining of awaits and callables, yield expansion, the split, frames,
// handles), so a bug in those shows as a difference, which the mega-kernel
// reference (the same front half, suspensions erased) cannot show.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_CPUREFERENCE_H
#define COROGPU_RUNNER_CPUREFERENCE_H

#include "CoroGPU/Runner/HostBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <array>
#include <string>
#include <vector>

namespace mlir {
namespace coro {
namespace runner {

/// Runs `coroutine` of `source` (left unchanged) on the CPU for every
/// instance of `grid`, with its scalar arguments given as `coro-run --arg`
/// texts and its memref arguments (of one dimension) starting as `buffers`;
/// returns the buffers after the run. Fails with a message for what the
/// reference cannot run: frames driven by handles (coro.handle.*), memrefs
/// of more dimensions.
llvm::Expected<std::vector<HostBuffer>>
runCPUReference(ModuleOp source, StringRef coroutine,
                std::array<uint32_t, 3> grid, ArrayRef<std::string> scalars,
                ArrayRef<HostBuffer> buffers);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_CPUREFERENCE_H

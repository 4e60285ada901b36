//===- KernelABI.h - the arguments of generated kernels ---------*- C++ -*-===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How a run passes a coroutine's arguments to the kernels our pipelines
// generate: the grid extents first, then the coroutine's arguments in
// order. SPIR-V kernels bind one storage buffer per memref and take index
// as 32 bits; PTX kernels take the memref descriptor of the NVVM lowering
// (allocated and aligned pointers, offset, sizes, strides) and 64-bit
// indices. With coro-check-bounds, the violation buffer of
// corogpu/runtime/BoundsCheckABI.h comes after the coroutine's own
// arguments, and with coro-profile-lanes the profile buffer of
// corogpu/runtime/LaneProfileABI.h last.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_RUNNER_KERNELABI_H
#define COROGPU_RUNNER_KERNELABI_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"
#include "CoroGPU/Runner/HostBuffer.h"
#include "corogpu/runtime/Device.h"

#include "llvm/Support/Error.h"

#include <array>
#include <memory>

namespace mlir {
namespace coro {
namespace runner {

/// The bytes of scalar argument #`argument` of `type` from `text`: an
/// integer (decimal, 0x hex) in its type's signed or unsigned range, a float
/// parsed in its own format and width (bf16 goes to SPIR-V kernels in an
/// f32), or a vector's elements comma-separated. `wideIndex`: the kernel
/// takes index as 64 bits (PTX).
llvm::Expected<corogpu::runtime::KernelArg>
parseScalarArgument(StringRef text, Type type, unsigned argument,
                    bool wideIndex);

/// The bytes of scalar argument #`argument` of `type` from `text` (as
/// parseScalarArgument reads it), laid out as LLVM keeps the value in host
/// memory: an index in 64 bits, an i1 in a byte, a vector's elements one
/// after the other.
llvm::Expected<std::vector<uint8_t>>
parseHostArgument(StringRef text, Type type, unsigned argument);

/// The kernel argument of scalar argument #`argument` of `type` from its
/// value at `value` in host memory, as LLVM lays it out (an index in 64
/// bits, a vector's elements one after the other): what a host program
/// passes. parseScalarArgument gives the same for the value's text.
llvm::Expected<corogpu::runtime::KernelArg>
getKernelArgumentFromHost(Type type, const void *value, unsigned argument,
                          bool wideIndex);

/// Appends the kernel arguments that pass `buffer` as a memref of shape
/// `sizes`: the bound buffer for SPIR-V, the memref descriptor of the NVVM
/// lowering for PTX (`ptxABI`).
void appendMemRefArgument(std::vector<corogpu::runtime::KernelArg> &args,
                          bool ptxABI, corogpu::runtime::Buffer &buffer,
                          ArrayRef<int64_t> sizes);

/// The kernel arguments of one run of a coroutine with `argumentTypes`:
/// the grid extents, then `scalars` and the memrefs (`deviceBuffers`, whose
/// host copies `buffers` give their element counts) in argument order.
std::vector<corogpu::runtime::KernelArg> buildKernelArguments(
    bool ptxABI, std::array<uint32_t, 3> grid, ArrayRef<Type> argumentTypes,
    ArrayRef<corogpu::runtime::KernelArg> scalars,
    ArrayRef<std::unique_ptr<corogpu::runtime::Buffer>> deviceBuffers,
    ArrayRef<HostBuffer> buffers);

/// The violation buffer of a coroutine that coro-check-bounds instrumented
/// (`boundsCheck`): the element count of each memref argument among
/// `userArgumentTypes` (whose host copies are `buffers`), then room for the
/// records. Fails for a buffer of 2^32 elements or more.
llvm::Expected<HostBuffer>
createViolationBuffer(BoundsCheckAttr boundsCheck,
                      ArrayRef<Type> userArgumentTypes,
                      ArrayRef<HostBuffer> buffers);

/// The profile buffer of a coroutine that coro-profile-lanes instrumented
/// (`laneProfile`): zeros, the size LaneProfileABI.h gives.
HostBuffer createLaneProfileBuffer(LaneProfileAttr laneProfile);

} // namespace runner
} // namespace coro
} // namespace mlir

#endif // COROGPU_RUNNER_KERNELABI_H

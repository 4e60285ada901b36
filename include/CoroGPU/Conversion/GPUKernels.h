//===- GPUKernels.h - building blocks for GPU schedulers --------*- C++ -*-===//
//
// Part of the CoroGPU project.
//
// What the GPU schedulers share: the gpu.module that holds the kernels, a
// kernel that runs one coroutine instance per thread of a 3-D grid, and a
// coro.launch turned into the gpu.launch_func of such a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_CONVERSION_GPUKERNELS_H
#define COROGPU_CONVERSION_GPUKERNELS_H

#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace coro {

/// Name of the gpu.module that holds the kernels of all coroutines.
inline constexpr llvm::StringLiteral kKernelModuleName = "coro_kernels";

/// Returns the module's `gpu.module @coro_kernels`, creating it (and marking
/// the module as a GPU container) if needed.
gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module,
                                         RewriterBase &rewriter);

/// An empty kernel `@name(inputs)` at the end of `kernels` (its body is a
/// `gpu.return`) with `spirv.entry_point_abi` for a workgroup of
/// `workgroupSize` threads in x.
gpu::GPUFuncOp createKernel(gpu::GPUModuleOp kernels, StringRef name,
                            TypeRange inputs, int64_t workgroupSize,
                            Location loc, RewriterBase &rewriter);

/// A kernel `@name(%nx, %ny, %nz: index, args...)` with one thread per
/// instance of an (nx, ny, nz) grid and a workgroup of `workgroupSize`
/// threads in x. `body` is the block, guarded by "the thread's instance lies
/// inside the grid", where the instance's work goes (before its terminator).
struct InstanceKernel {
  gpu::GPUFuncOp kernel;
  Block *body;
  ValueRange args;
  InstancePosition position;
};
InstanceKernel createInstanceKernel(gpu::GPUModuleOp kernels, StringRef name,
                                    TypeRange argTypes, int64_t workgroupSize,
                                    Location loc, RewriterBase &rewriter);

/// Rewrites what the kernels of `kernels` may contain but not every GPU
/// target accepts (poison values, scf.index_switch, vector selects on a
/// scalar condition), so that both the SPIR-V
/// and the NVVM pipelines take them. Every GPU scheduler ends with it.
void legalizeKernelsForTargets(gpu::GPUModuleOp kernels,
                               RewriterBase &rewriter);

/// Fails with an error naming `pass` unless `workgroupSize` is positive.
LogicalResult checkWorkgroupSize(ModuleOp module, StringRef pass,
                                 int64_t workgroupSize);

/// Replaces `launch` by the gpu.launch_func of its coroutine's kernel, with
/// ceil(gx / workgroupSize) x gy x gz workgroups.
void lowerLaunchToGPU(LaunchOp launch, int64_t workgroupSize,
                      RewriterBase &rewriter);

} // namespace coro
} // namespace mlir

#endif // COROGPU_CONVERSION_GPUKERNELS_H

//===- HostLaunch.h - shared pieces of the host schedulers ------*- C++ -*-===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#ifndef COROGPU_LIB_CONVERSION_COROTOFUNC_HOSTLAUNCH_H
#define COROGPU_LIB_CONVERSION_COROTOFUNC_HOSTLAUNCH_H

#include "CoroGPU/Dialect/Coro/IR/CoroOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace coro {

/// Where an instance sits in the grid: its x, y, z and the grid extents
/// nx, ny that linearize it.
struct InstancePosition {
  Value x, y, z, nx, ny;

  /// The values in the order host functions take them.
  SmallVector<Value> asArguments() const { return {x, y, z, nx, ny}; }
  /// `coro.id` / `coro.frame.id` with an optional dimension.
  Value getId(OpBuilder &builder, Location loc,
              std::optional<uint32_t> dim) const;
};

/// Number of leading index arguments that carry an InstancePosition.
inline constexpr unsigned kNumPositionArgs = 5;

/// Replaces `launch` by a loop nest over its grid (z outermost) whose body,
/// built by `buildInstance`, runs one instance.
void lowerLaunchToLoops(
    LaunchOp launch, RewriterBase &rewriter,
    function_ref<void(OpBuilder &, Location, const InstancePosition &)>
        buildInstance);

} // namespace coro
} // namespace mlir

#endif // COROGPU_LIB_CONVERSION_COROTOFUNC_HOSTLAUNCH_H

//===- HostLaunch.cpp - shared pieces of the host schedulers --------------===//
//
// Part of the CoroGPU project.
//
//===----------------------------------------------------------------------===//

#include "HostLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coro;

Value InstancePosition::getId(OpBuilder &builder, Location loc,
                              std::optional<uint32_t> dim) const {
  if (dim)
    return *dim == 0 ? x : *dim == 1 ? y : z;
  // x + nx * (y + ny * z)
  Value plane = arith::MulIOp::create(builder, loc, ny, z);
  Value row = arith::AddIOp::create(builder, loc, y, plane);
  Value rows = arith::MulIOp::create(builder, loc, nx, row);
  return arith::AddIOp::create(builder, loc, x, rows);
}

void mlir::coro::lowerLaunchToLoops(
    LaunchOp launch, RewriterBase &rewriter,
    function_ref<void(OpBuilder &, Location, const InstancePosition &)>
        buildInstance) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value, 3> extents(launch.getGrid());
  extents.resize(3, one);

  auto zLoop = scf::ForOp::create(rewriter, loc, zero, extents[2], one);
  rewriter.setInsertionPointToStart(zLoop.getBody());
  auto yLoop = scf::ForOp::create(rewriter, loc, zero, extents[1], one);
  rewriter.setInsertionPointToStart(yLoop.getBody());
  auto xLoop = scf::ForOp::create(rewriter, loc, zero, extents[0], one);
  rewriter.setInsertionPointToStart(xLoop.getBody());
  InstancePosition position{xLoop.getInductionVar(), yLoop.getInductionVar(),
                            zLoop.getInductionVar(), extents[0], extents[1]};
  buildInstance(rewriter, loc, position);
  rewriter.eraseOp(launch);
}

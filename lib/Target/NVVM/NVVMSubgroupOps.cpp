//===- NVVMSubgroupOps.cpp - subgroup ops MLIR does not lower to NVVM ----===//
//
// Part of the CoroGPU project.
//
// MLIR 22 lowers gpu.subgroup_reduce to NVVM only with `uniform` (the whole
// warp converged: redux.sync or shuffles over the full mask). The
// reductions of coro-profile-lanes run in divergent code, over the lanes
// active there, which PTX gives as `activemask.b32`; `redux.sync` over that
// mask reduces exactly those lanes (sm_80 and newer). Nor does it lower
// gpu.subgroup_size, which on NVIDIA GPUs is the warp size, 32.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/DebugLog.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_CORONVVMSUBGROUPOPS
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-nvvm-subgroup-ops"

using namespace mlir;

/// The redux.sync kind of an integer subgroup reduction, if it has one.
static std::optional<NVVM::ReduxKind>
getReduxKind(gpu::AllReduceOperation kind) {
  switch (kind) {
  case gpu::AllReduceOperation::ADD:
    return NVVM::ReduxKind::ADD;
  case gpu::AllReduceOperation::AND:
    return NVVM::ReduxKind::AND;
  case gpu::AllReduceOperation::OR:
    return NVVM::ReduxKind::OR;
  case gpu::AllReduceOperation::XOR:
    return NVVM::ReduxKind::XOR;
  case gpu::AllReduceOperation::MINSI:
    return NVVM::ReduxKind::MIN;
  case gpu::AllReduceOperation::MAXSI:
    return NVVM::ReduxKind::MAX;
  case gpu::AllReduceOperation::MINUI:
    return NVVM::ReduxKind::UMIN;
  case gpu::AllReduceOperation::MAXUI:
    return NVVM::ReduxKind::UMAX;
  default:
    return std::nullopt;
  }
}

/// The compute capability of the NVVM target of `module` (90 for sm_90), or
/// none.
static std::optional<unsigned> getComputeCapability(gpu::GPUModuleOp module) {
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets)
    return std::nullopt;
  for (Attribute target : targets) {
    auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
    unsigned capability = 0;
    if (nvvm && nvvm.getChip().starts_with("sm_") &&
        !nvvm.getChip()
             .drop_front(3)
             .take_while(llvm::isDigit)
             .getAsInteger(10, capability))
      return capability;
  }
  return std::nullopt;
}

namespace {

struct CoroNVVMSubgroupOpsPass
    : coro::impl::CoroNVVMSubgroupOpsBase<CoroNVVMSubgroupOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    module.walk([&](gpu::SubgroupSizeOp size) {
      OpBuilder builder(size);
      size.replaceAllUsesWith(
          arith::ConstantIndexOp::create(builder, size.getLoc(), 32)
              .getResult());
      size.erase();
    });
    SmallVector<gpu::SubgroupReduceOp> reductions;
    module.walk([&](gpu::SubgroupReduceOp reduction) {
      if (!reduction.getUniform())
        reductions.push_back(reduction);
    });
    if (reductions.empty())
      return;
    std::optional<unsigned> capability = getComputeCapability(module);
    if (capability && *capability < 80) {
      reductions.front().emitError("coro-nvvm-subgroup-ops: a reduction "
                                   "over the active lanes needs redux.sync, "
                                   "sm_80 or newer; the target is sm_")
          << *capability;
      return signalPassFailure();
    }
    OpBuilder builder(&getContext());
    Type i32 = builder.getI32Type();
    for (gpu::SubgroupReduceOp reduction : reductions) {
      std::optional<NVVM::ReduxKind> kind = getReduxKind(reduction.getOp());
      if (!reduction.getType().isInteger(32) || !kind ||
          reduction.getClusterSize()) {
        reduction.emitError("coro-nvvm-subgroup-ops: only unclustered "
                            "integer reductions of i32 over the active "
                            "lanes have an NVVM lowering (redux.sync)");
        return signalPassFailure();
      }
      LDBG() << "lowering " << reduction;
      builder.setInsertionPoint(reduction);
      Location loc = reduction.getLoc();
      // A convergent intrinsic: LLVM does not move it across branches.
      Value activeLanes =
          LLVM::CallIntrinsicOp::create(
              builder, loc, i32, builder.getStringAttr("llvm.nvvm.activemask"),
              ValueRange{})
              .getResult(0);
      Value reduced = NVVM::ReduxOp::create(
          builder, loc, i32, reduction.getValue(), *kind, activeLanes);
      reduction.replaceAllUsesWith(reduced);
      reduction.erase();
      ++numReductions;
    }
  }
};

} // namespace

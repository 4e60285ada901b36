//===- NVVMSubgroupOps.cpp - subgroup ops MLIR does not lower to NVVM ----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// The `redux.sync` operation and type of an integer subgroup reduction
/// ("add.u32"), if it has one.
static std::optional<StringRef>
getReduxOperation(gpu::AllReduceOperation kind) {
  switch (kind) {
  case gpu::AllReduceOperation::ADD:
    return StringRef("add.u32");
  case gpu::AllReduceOperation::AND:
    return StringRef("and.b32");
  case gpu::AllReduceOperation::OR:
    return StringRef("or.b32");
  case gpu::AllReduceOperation::XOR:
    return StringRef("xor.b32");
  case gpu::AllReduceOperation::MINSI:
    return StringRef("min.s32");
  case gpu::AllReduceOperation::MAXSI:
    return StringRef("max.s32");
  case gpu::AllReduceOperation::MINUI:
    return StringRef("min.u32");
  case gpu::AllReduceOperation::MAXUI:
    return StringRef("max.u32");
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

/// A uniform i32 reduction over the 32 lanes of a warp without redux.sync
/// (before sm_80): five xor shuffles, each lane combining its value with
/// its partner's.
static Value buildButterfly(OpBuilder &builder,
                            gpu::SubgroupReduceOp reduction) {
  Location loc = reduction.getLoc();
  Value value = reduction.getValue();
  Value width = arith::ConstantIntOp::create(builder, loc, 32, 32);
  for (int64_t offset = 1; offset < 32; offset *= 2) {
    Value partner = gpu::ShuffleOp::create(
                        builder, loc, value,
                        arith::ConstantIntOp::create(builder, loc, offset, 32),
                        width, gpu::ShuffleMode::XOR)
                        .getShuffleResult();
    value = vector::makeArithReduction(
        builder, loc, gpu::convertReductionKind(reduction.getOp()), value,
        partner);
  }
  return value;
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
      reductions.push_back(reduction);
    });
    if (reductions.empty())
      return;
    std::optional<unsigned> capability = getComputeCapability(module);
    bool hasRedux = capability && *capability >= 80;
    OpBuilder builder(&getContext());
    Type i32 = builder.getI32Type();
    for (auto [number, reduction] : llvm::enumerate(reductions)) {
      std::optional<StringRef> operation = getReduxOperation(reduction.getOp());
      bool uniform = reduction.getUniform();
      if (!reduction.getType().isInteger(32) || !operation ||
          reduction.getClusterSize()) {
        // Uniform ones of other types stay for the upstream lowering.
        if (uniform)
          continue;
        reduction.emitError("coro-nvvm-subgroup-ops: only unclustered "
                            "integer reductions of i32 over the active "
                            "lanes have an NVVM lowering (redux.sync)");
        return signalPassFailure();
      }
      if (!uniform && capability && !hasRedux) {
        reduction.emitError("coro-nvvm-subgroup-ops: a reduction "
                            "over the active lanes needs redux.sync, "
                            "sm_80 or newer; the target is sm_")
            << *capability;
        return signalPassFailure();
      }
      LDBG() << "lowering " << reduction;
      builder.setInsertionPoint(reduction);
      Value reduced;
      if (uniform && !hasRedux) {
        reduced = buildButterfly(builder, reduction);
      } else {
        // The active mask and the reduction in one asm statement whose text
        // is unique in the module: LLVM may merge identical calls of the
        // branches of a test into one after them (the convergent intrinsics
        // were), where other lanes are active; it neither moves nor merges
        // asm with side effects and a text of its own. A uniform reduction
        // names the whole warp, which makes its lanes converge there.
        std::string text =
            ((uniform ? "redux.sync." + *operation + " $0, $1, 0xffffffff;"
                      : "{ .reg .b32 %coro_mask; activemask.b32 %coro_mask; "
                        "redux.sync." +
                            *operation + " $0, $1, %coro_mask; }") +
             " // reduction " + llvm::Twine(number))
                .str();
        reduced = LLVM::InlineAsmOp::create(
                      builder, reduction.getLoc(), i32,
                      ValueRange{reduction.getValue()}, text, "=r,r",
                      /*has_side_effects=*/true,
                      /*is_align_stack=*/false,
                      LLVM::tailcallkind::TailCallKind::None,
                      /*asm_dialect=*/LLVM::AsmDialectAttr(),
                      /*operand_attrs=*/ArrayAttr())
                      .getResult(0);
      }
      reduction.replaceAllUsesWith(reduced);
      reduction.erase();
      ++numReductions;
    }
  }
};

} // namespace

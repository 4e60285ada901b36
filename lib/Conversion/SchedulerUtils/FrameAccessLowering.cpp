//===- FrameAccessLowering.cpp - frame ops onto a frame storage -----------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Conversion patterns from the four frame-access ops of a subroutine to
// loads and stores of a FrameStorage. Every scheduler uses them with its own
// storage; a custom scheduler may add them to a conversion of its own.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Conversion/FrameStorage.h"
#include "CoroGPU/Conversion/SchedulerUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-frame-access-lowering"

using namespace mlir;
using namespace mlir::coro;

namespace {

/// What every frame-access pattern lowers onto.
struct FrameAccessTarget {
  SmallVector<FrameFieldAttr> fields;
  const FrameStorage &storage;
  const InstancePosition &position;

  /// The field that `op` accesses at `slot`, or a match failure.
  FailureOr<FrameFieldAttr> getField(Operation *op, int64_t slot,
                                     RewriterBase &rewriter) const {
    if (slot < 0 || slot >= static_cast<int64_t>(fields.size()))
      return rewriter.notifyMatchFailure(op, "no frame field at this slot");
    return fields[slot];
  }
};

template <typename OpTy> struct FrameAccessPattern : OpConversionPattern<OpTy> {
  FrameAccessPattern(MLIRContext *context,
                     std::shared_ptr<const FrameAccessTarget> target)
      : OpConversionPattern<OpTy>(context), target(std::move(target)) {}
  std::shared_ptr<const FrameAccessTarget> target;
};

struct LowerFrameLoad : FrameAccessPattern<FrameLoadOp> {
  using FrameAccessPattern::FrameAccessPattern;
  LogicalResult
  matchAndRewrite(FrameLoadOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<FrameFieldAttr> field =
        target->getField(op, op.getSlot(), rewriter);
    if (failed(field))
      return failure();
    rewriter.replaceOp(
        op, target->storage.loadField(rewriter, op.getLoc(), *field));
    return success();
  }
};

struct LowerFrameStore : FrameAccessPattern<FrameStoreOp> {
  using FrameAccessPattern::FrameAccessPattern;
  LogicalResult
  matchAndRewrite(FrameStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<FrameFieldAttr> field =
        target->getField(op, op.getSlot(), rewriter);
    if (failed(field))
      return failure();
    target->storage.storeField(rewriter, op.getLoc(), *field,
                               adaptor.getValue());
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerFrameSetTarget : FrameAccessPattern<FrameSetTargetOp> {
  using FrameAccessPattern::FrameAccessPattern;
  LogicalResult
  matchAndRewrite(FrameSetTargetOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    target->storage.storeToken(
        rewriter, loc,
        arith::ConstantIntOp::create(rewriter, loc, op.getToken(), 32));
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerFrameId : FrameAccessPattern<FrameIdOp> {
  using FrameAccessPattern::FrameAccessPattern;
  LogicalResult
  matchAndRewrite(FrameIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, target->position.getId(rewriter, op.getLoc(), op.getDim()));
    return success();
  }
};

} // namespace

void mlir::coro::populateFrameAccessLoweringPatterns(
    RewritePatternSet &patterns, ArrayRef<FrameFieldAttr> fields,
    const FrameStorage &storage, const InstancePosition &position) {
  auto target = std::make_shared<const FrameAccessTarget>(FrameAccessTarget{
      SmallVector<FrameFieldAttr>(fields), storage, position});
  patterns
      .add<LowerFrameLoad, LowerFrameStore, LowerFrameSetTarget, LowerFrameId>(
          patterns.getContext(), target);
}

LogicalResult mlir::coro::lowerFrameAccesses(Value frame, SplitOp split,
                                             const FrameStorage &storage,
                                             const InstancePosition &position,
                                             Operation *scope) {
  SmallVector<Operation *> users;
  for (Operation *user : frame.getUsers())
    if (!scope || scope->isAncestor(user))
      users.push_back(user);
  if (users.empty())
    return success();
  LDBG() << "lowering " << users.size() << " frame accesses of @"
         << split.getCoroutine();
  MLIRContext *context = split.getContext();
  RewritePatternSet patterns(context);
  SmallVector<FrameFieldAttr> fields = split.getFrameFields();
  populateFrameAccessLoweringPatterns(patterns, fields, storage, position);
  ConversionTarget target(*context);
  target.addIllegalOp<FrameLoadOp, FrameStoreOp, FrameSetTargetOp, FrameIdOp>();
  // What the patterns create (loads, stores, arithmetic, the branches of a
  // storage chosen at run time) is the scheduler's business.
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(users, target, std::move(patterns));
}

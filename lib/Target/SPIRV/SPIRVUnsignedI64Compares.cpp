//===- SPIRVUnsignedI64Compares.cpp - i64 signed compares as unsigned -----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Works around a lavapipe miscompilation of signed 64-bit comparisons (see
// the pass description in Passes.td): a < b (signed) is
// (a ^ 2^63) < (b ^ 2^63) (unsigned).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "PatternUtils.h"

#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-unsigned-i64-compares"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVUNSIGNEDI64COMPARES
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

/// The unsigned predicate that orders sign-flipped operands as `signed`
/// orders the operands; nullopt for the others.
static std::optional<arith::CmpIPredicate>
getUnsignedTwin(arith::CmpIPredicate predicate) {
  switch (predicate) {
  case arith::CmpIPredicate::slt:
    return arith::CmpIPredicate::ult;
  case arith::CmpIPredicate::sle:
    return arith::CmpIPredicate::ule;
  case arith::CmpIPredicate::sgt:
    return arith::CmpIPredicate::ugt;
  case arith::CmpIPredicate::sge:
    return arith::CmpIPredicate::uge;
  default:
    return std::nullopt;
  }
}

namespace {

struct UnsignedI64Compare : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::CmpIOp compare,
                                PatternRewriter &rewriter) const override {
    Type type = compare.getLhs().getType();
    if (!getElementTypeOrSelf(type).isInteger(64))
      return failure();
    std::optional<arith::CmpIPredicate> twin =
        getUnsignedTwin(compare.getPredicate());
    if (!twin)
      return failure();
    Location loc = compare.getLoc();
    APInt signBit = APInt::getSignedMinValue(64);
    TypedAttr signAttr =
        rewriter.getIntegerAttr(rewriter.getI64Type(), signBit);
    if (auto vector = dyn_cast<VectorType>(type))
      signAttr = DenseElementsAttr::get(vector, signBit);
    Value sign = arith::ConstantOp::create(rewriter, loc, signAttr);
    Value lhs = arith::XOrIOp::create(rewriter, loc, compare.getLhs(), sign);
    Value rhs = arith::XOrIOp::create(rewriter, loc, compare.getRhs(), sign);
    LDBG() << "comparing unsigned: " << compare;
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(compare, *twin, lhs, rhs);
    return success();
  }
};

struct CoroSPIRVUnsignedI64ComparesPass
    : coro::impl::CoroSPIRVUnsignedI64ComparesBase<
          CoroSPIRVUnsignedI64ComparesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<UnsignedI64Compare>(&getContext());
    // No folding: it would fold the xors of constants back into the
    // comparison the driver gets wrong.
    if (failed(coro::applyPatternsWithoutFolding(getOperation(),
                                                 std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

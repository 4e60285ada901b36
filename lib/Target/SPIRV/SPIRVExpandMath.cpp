//===- SPIRVExpandMath.cpp - math ops the SPIR-V conversion rejects -------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LLVM 22's Math to SPIR-V conversion has no pattern for some math ops the
// verifier accepts and the PTX path compiles. This pass expands them into
// math and arith ops it lowers to GLSL.std.450 instructions: atan2 through
// Atan of a ratio in [0, 1], trunc through Floor and Ceil, sincos into Sin
// and Cos, isnormal and isfinite into comparisons (upstream's OpIsFinite
// is for OpenCL only), clampf into min and max, and erf,
// erfc and cbrt (f32) into upstream's polynomial approximations. exp2 has
// an instruction but no pattern: coro-spirv-convert-gpu lowers it.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "PatternUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/DebugLog.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

#define DEBUG_TYPE "coro-spirv-expand-math"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVEXPANDMATH
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

/// A float constant of `type` (a float or a vector of floats).
static Value createFloatConstant(OpBuilder &builder, Location loc, Type type,
                                 double value) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  Attribute scalar = builder.getFloatAttr(element, value);
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(builder, loc,
                                     DenseElementsAttr::get(shaped, scalar));
  return arith::ConstantOp::create(builder, loc, cast<TypedAttr>(scalar));
}

/// Whether GLSL.std.450's Atan takes `type`'s elements (16- and 32-bit
/// floats only).
static bool hasGLAtan(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isF32();
}

namespace {

/// `math.atan2 %y, %x` -> the angle of (x, y) from atan of the ratio of the
/// smaller to the larger magnitude, which stays in [0, 1] (no division by
/// zero unless both are zero, where atan2 is undefined in GLSL too):
///   a = atan(min(|x|, |y|) / max(|x|, |y|))
///   a = |y| > |x| ? pi/2 - a : a;  a = x < 0 ? pi - a : a;  copysign(a, y)
/// Its error is Atan's plus a division's (GLSL's Atan2 allows 4096 ULP).
struct ExpandAtan2 : OpRewritePattern<math::Atan2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Atan2Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!hasGLAtan(type))
      return failure();
    Location loc = op.getLoc();
    Value y = op.getLhs();
    Value x = op.getRhs();
    Value absX = math::AbsFOp::create(rewriter, loc, x);
    Value absY = math::AbsFOp::create(rewriter, loc, y);
    Value yLarger = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGT, absY, absX);
    Value larger = arith::SelectOp::create(rewriter, loc, yLarger, absY, absX);
    Value smaller = arith::SelectOp::create(rewriter, loc, yLarger, absX, absY);
    Value zero = createFloatConstant(rewriter, loc, type, 0.0);
    // Both zero: 0 (as C's atan2(+-0, +0)) rather than atan(NaN).
    Value bothZero = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OEQ, larger, zero);
    Value ratio = arith::DivFOp::create(rewriter, loc, smaller, larger);
    ratio = arith::SelectOp::create(rewriter, loc, bothZero, zero, ratio);
    Value angle = math::AtanOp::create(rewriter, loc, ratio);
    Value halfPi =
        createFloatConstant(rewriter, loc, type, llvm::numbers::pi / 2);
    Value pi = createFloatConstant(rewriter, loc, type, llvm::numbers::pi);
    Value fromY = arith::SubFOp::create(rewriter, loc, halfPi, angle);
    angle = arith::SelectOp::create(rewriter, loc, yLarger, fromY, angle);
    Value xNegative = arith::CmpFOp::create(rewriter, loc,
                                            arith::CmpFPredicate::OLT, x, zero);
    Value fromLeft = arith::SubFOp::create(rewriter, loc, pi, angle);
    angle = arith::SelectOp::create(rewriter, loc, xNegative, fromLeft, angle);
    LDBG() << "expanding " << op;
    rewriter.replaceOpWithNewOp<math::CopySignOp>(op, angle, y);
    return success();
  }
};

/// `math.trunc %x` -> `x < 0 ? ceil(x) : floor(x)` (GLSL.std.450 has Trunc,
/// the SPIR-V dialect does not).
struct ExpandTrunc : OpRewritePattern<math::TruncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TruncOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Value zero = createFloatConstant(rewriter, loc, x.getType(), 0.0);
    Value negative = arith::CmpFOp::create(rewriter, loc,
                                           arith::CmpFPredicate::OLT, x, zero);
    Value ceil = math::CeilOp::create(rewriter, loc, x);
    Value floor = math::FloorOp::create(rewriter, loc, x);
    LDBG() << "expanding " << op;
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, negative, ceil, floor);
    return success();
  }
};

/// `math.sincos %x` -> `math.sin %x`, `math.cos %x`.
struct ExpandSinCos : OpRewritePattern<math::SincosOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::SincosOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value sin = math::SinOp::create(rewriter, loc, op.getOperand());
    Value cos = math::CosOp::create(rewriter, loc, op.getOperand());
    LDBG() << "expanding " << op;
    rewriter.replaceOp(op, {sin, cos});
    return success();
  }
};

/// `math.isnormal %x` -> `|x| >= smallest normal && |x| < inf` (ordered
/// comparisons: false for NaN).
struct ExpandIsNormal : OpRewritePattern<math::IsNormalOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::IsNormalOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type type = x.getType();
    auto element = cast<FloatType>(getElementTypeOrSelf(type));
    double smallest =
        APFloat::getSmallestNormalized(element.getFloatSemantics())
            .convertToDouble();
    Value absX = math::AbsFOp::create(rewriter, loc, x);
    Value low = createFloatConstant(rewriter, loc, type, smallest);
    Value inf = createFloatConstant(rewriter, loc, type,
                                    std::numeric_limits<double>::infinity());
    Value aboveLow = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGE, absX, low);
    Value finite = arith::CmpFOp::create(rewriter, loc,
                                         arith::CmpFPredicate::OLT, absX, inf);
    LDBG() << "expanding " << op;
    rewriter.replaceOpWithNewOp<arith::AndIOp>(op, aboveLow, finite);
    return success();
  }
};

/// `math.isfinite %x` -> `|x| < inf` (ordered: false for NaN); upstream
/// makes it an OpIsFinite, which only Kernel (OpenCL) modules may hold.
struct ExpandIsFinite : OpRewritePattern<math::IsFiniteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::IsFiniteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Value absX = math::AbsFOp::create(rewriter, loc, x);
    Value inf = createFloatConstant(rewriter, loc, x.getType(),
                                    std::numeric_limits<double>::infinity());
    LDBG() << "expanding " << op;
    rewriter.replaceOpWithNewOp<arith::CmpFOp>(op, arith::CmpFPredicate::OLT,
                                               absX, inf);
    return success();
  }
};

struct CoroSPIRVExpandMathPass
    : coro::impl::CoroSPIRVExpandMathBase<CoroSPIRVExpandMathPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandAtan2, ExpandTrunc, ExpandSinCos, ExpandIsNormal,
                 ExpandIsFinite>(&getContext());
    math::populateExpansionPatterns(patterns, {"clampf"});
    // f32 only (and vectors of it); the approximations' own ops convert.
    populatePolynomialApproximateErfPattern(patterns);
    populatePolynomialApproximateErfcPattern(patterns);
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::CbrtOp::getOperationName();
    });
    if (failed(coro::applyPatternsWithoutFolding(getOperation(),
                                                 std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

//===- SPIRVExpandArith.cpp - arith ops the SPIR-V conversion rejects -----===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Arith to SPIR-V conversion lowers integer casts to and from `index`
// but not those whose other side is `i1` (a SPIR-V boolean, not an integer);
// folding produces them. They become selects and comparisons here, and
// additions, subtractions and multiplications of i1 boolean ops. Ceiling
// and floor divisions take the upstream expansions, and signed remainders
// one that is right for the smallest integer.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Target/Passes.h"

#include "PatternUtils.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-expand-arith"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVEXPANDARITH
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

namespace {

/// `arith.index_cast[ui] %b : i1 to index` -> `arith.select`;
/// `arith.index_cast[ui] %i : index to i1` -> the low bit of `%i`.
template <typename CastOp>
struct ExpandBoolIndexCast : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp cast,
                                PatternRewriter &rewriter) const override {
    Value input = cast.getIn();
    Type resultType = cast.getType();
    Location loc = cast.getLoc();
    if (input.getType().isInteger(1) && resultType.isIndex()) {
      // A sign-extended true is all ones.
      int64_t trueValue = std::is_same_v<CastOp, arith::IndexCastOp> ? -1 : 1;
      Value whenTrue = arith::ConstantIndexOp::create(rewriter, loc, trueValue);
      Value whenFalse = arith::ConstantIndexOp::create(rewriter, loc, 0);
      LDBG() << "expanding " << cast;
      rewriter.replaceOpWithNewOp<arith::SelectOp>(cast, input, whenTrue,
                                                   whenFalse);
      return success();
    }
    if (input.getType().isIndex() && resultType.isInteger(1)) {
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value lowBit = arith::AndIOp::create(rewriter, loc, input, one);
      LDBG() << "expanding " << cast;
      rewriter.replaceOpWithNewOp<arith::CmpIOp>(cast, arith::CmpIPredicate::ne,
                                                 lowBit, zero);
      return success();
    }
    return failure();
  }
};

/// `arith.remsi %a, %b` -> the remainder of the magnitudes, with the sign
/// of `%a`. The upstream conversion computes the same but takes the sign
/// from `%a == abs(%a)`, which holds for the smallest integer (whose abs
/// wraps to itself): remsi(INT_MIN, 25) came out 23 instead of -23.
struct ExpandSignedRemainder : OpRewritePattern<arith::RemSIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::RemSIOp rem,
                                PatternRewriter &rewriter) const override {
    Location loc = rem.getLoc();
    Type type = rem.getType();
    Value zero = arith::ConstantOp::create(
        rewriter, loc, type, cast<TypedAttr>(rewriter.getZeroAttr(type)));
    // |x| as an unsigned number (the smallest integer's is 2^(w-1)).
    auto magnitude = [&](Value value, Value negative) {
      Value negated = arith::SubIOp::create(rewriter, loc, zero, value);
      return arith::SelectOp::create(rewriter, loc, negative, negated, value);
    };
    Value lhsNegative = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, rem.getLhs(), zero);
    Value rhsNegative = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, rem.getRhs(), zero);
    Value lhs = magnitude(rem.getLhs(), lhsNegative);
    Value rhs = magnitude(rem.getRhs(), rhsNegative);
    Value remainder = arith::RemUIOp::create(rewriter, loc, lhs, rhs);
    LDBG() << "expanding " << rem;
    rewriter.replaceOp(rem, magnitude(remainder, lhsNegative));
    return success();
  }
};

/// `arith.bitcast` between bf16 and i16 (a frame field's bits) through
/// f32, the type the conversion keeps bf16 values in, where the bitcast
/// itself became an invalid spirv.Bitcast of 32 to 16 bits:
///   bf16 -> i16: trunci(bitcast(extf(x) : f32) : i32 >> 16)
///   i16 -> bf16: truncf(bitcast(extui(b) << 16 : i32) : f32)
struct ExpandBF16Bitcast : OpRewritePattern<arith::BitcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::BitcastOp bitcast,
                                PatternRewriter &rewriter) const override {
    Type from = bitcast.getIn().getType();
    Type to = bitcast.getType();
    bool toBits = getElementTypeOrSelf(from).isBF16();
    if (!toBits && !getElementTypeOrSelf(to).isBF16())
      return failure();
    Location loc = bitcast.getLoc();
    auto like = [&](Type element) -> Type {
      if (auto shaped = dyn_cast<ShapedType>(from))
        return shaped.clone(element);
      return element;
    };
    Type f32 = like(rewriter.getF32Type());
    Type i32 = like(rewriter.getI32Type());
    Value sixteen = arith::ConstantOp::create(
        rewriter, loc, i32,
        cast<TypedAttr>(
            isa<ShapedType>(i32)
                ? Attribute(DenseElementsAttr::get(
                      cast<ShapedType>(i32), rewriter.getI32IntegerAttr(16)))
                : Attribute(rewriter.getI32IntegerAttr(16))));
    Value result;
    if (toBits) {
      Value wide = arith::ExtFOp::create(rewriter, loc, f32, bitcast.getIn());
      Value bits = arith::BitcastOp::create(rewriter, loc, i32, wide);
      Value high = arith::ShRUIOp::create(rewriter, loc, bits, sixteen);
      result = arith::TruncIOp::create(rewriter, loc, to, high);
    } else {
      Value bits = arith::ExtUIOp::create(rewriter, loc, i32, bitcast.getIn());
      Value high = arith::ShLIOp::create(rewriter, loc, bits, sixteen);
      Value wide = arith::BitcastOp::create(rewriter, loc, f32, high);
      result = arith::TruncFOp::create(rewriter, loc, to, wide);
    }
    LDBG() << "expanding " << bitcast;
    rewriter.replaceOp(bitcast, result);
    return success();
  }
};

/// Integer arithmetic on `i1` (and vectors of it), which SPIR-V keeps as
/// booleans its integer instructions do not take, as the boolean op of the
/// same bits: addition and subtraction modulo 2 are xor, multiplication
/// is and.
template <typename ArithOp, typename BooleanOp>
struct ExpandBoolArithmetic : OpRewritePattern<ArithOp> {
  using OpRewritePattern<ArithOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ArithOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isInteger(1))
      return failure();
    LDBG() << "expanding " << op;
    rewriter.replaceOpWithNewOp<BooleanOp>(op, op.getLhs(), op.getRhs());
    return success();
  }
};

struct CoroSPIRVExpandArithPass
    : coro::impl::CoroSPIRVExpandArithBase<CoroSPIRVExpandArithPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandBoolIndexCast<arith::IndexCastOp>,
                 ExpandBoolIndexCast<arith::IndexCastUIOp>,
                 ExpandSignedRemainder, ExpandBF16Bitcast,
                 ExpandBoolArithmetic<arith::AddIOp, arith::XOrIOp>,
                 ExpandBoolArithmetic<arith::SubIOp, arith::XOrIOp>,
                 ExpandBoolArithmetic<arith::MulIOp, arith::AndIOp>>(
        &getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    // Only these ops change: no folding that could make new casts.
    if (failed(coro::applyPatternsWithoutFolding(getOperation(),
                                                 std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

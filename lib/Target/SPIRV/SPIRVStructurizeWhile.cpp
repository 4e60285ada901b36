//===- SPIRVStructurizeWhile.cpp - scf.while conditions SPIR-V can take ---===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Moves the computation of an scf.while condition into the loop body, behind
// a flag, when the SPIR-V loop header the SCF to SPIR-V conversion makes of
// the condition region would hold nested regions, or values that lanes which
// left the loop could read wrong on lavapipe (see the pass description in
// Passes.td for the rewrite).
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Dialect/Coro/Utils/PlaceholderValue.h"
#include "CoroGPU/Target/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-spirv-structurize-while"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPIRVSTRUCTURIZEWHILE
#include "CoroGPU/Target/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;

/// Whether `loop`'s condition region must move into its body: when it holds
/// an op with regions (a loop, a branch, ...), which SPIR-V cannot place in a
/// loop header block, or when the lanes that left the loop could see values
/// of a later pass through the header. lavapipe (Mesa 22.3) lets them: after
/// a loop whose trip count differs between lanes, a lane may read the values
/// the header computed (or stored to a Function variable) in the last pass
/// of its subgroup, made with that lane masked off (its loads then give 0);
/// see test/e2e/known/driver/README.md, Bug 1. So the header may only forward
/// its own arguments (and values from above the loop), whose values the lanes
/// that left keep, and compute the condition; it may read memory for the
/// condition but not write it.
static bool needsConditionInBody(scf::WhileOp loop) {
  Block *before = loop.getBeforeBody();
  for (Operation &op : before->without_terminator())
    if (op.getNumRegions() != 0 || (!isMemoryEffectFree(&op) &&
                                    !hasSingleEffect<MemoryEffects::Read>(&op)))
      return true;
  // Even a value whose result nothing reads may come back as an argument
  // through the body, and lavapipe may then update that argument in the
  // lanes that left (the argument and the value sharing a register).
  return llvm::any_of(loop.getConditionOp().getArgs(), [&](Value value) {
    return value.getParentBlock() == before && !isa<BlockArgument>(value);
  });
}

/// Erases the scf.yield an scf.if builder may have put in `block`.
static void eraseTerminator(Block *block, RewriterBase &rewriter) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    rewriter.eraseOp(&block->back());
}

/// The initial value of a result of the rewritten `loop`, which nothing
/// reads (the body runs at least once and defines it): a zero where `type`
/// has one; otherwise (a memref, which has neither a zero nor a SPIR-V
/// poison) one of the loop's initial values of that type, or an argument of
/// the function around it. Null when there is none.
static Value getUnreadInitialValue(scf::WhileOp loop, Type type,
                                   OpBuilder &builder) {
  if (builder.getZeroAttr(type))
    return coro::createPlaceholderValue(builder, loop.getLoc(), type);
  for (Value init : loop.getInits())
    if (init.getType() == type)
      return init;
  if (auto function = loop->getParentOfType<FunctionOpInterface>())
    for (BlockArgument argument : function.getArguments())
      if (argument.getType() == type)
        return argument;
  return {};
}

/// Rewrites `loop` into a loop whose condition region only forwards a flag
/// the body computed, with the old condition region at the top of the body
/// and the old body under an scf.if on the condition. Fails, with an error
/// at the loop, when a result has no value to start from.
static LogicalResult moveConditionIntoBody(scf::WhileOp loop,
                                           RewriterBase &rewriter) {
  Location loc = loop.getLoc();
  TypeRange carriedTypes = loop.getInits().getTypes();
  TypeRange resultTypes = loop.getResultTypes();
  size_t numCarried = carriedTypes.size();

  rewriter.setInsertionPoint(loop);
  SmallVector<Value> inits{
      arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true))};
  llvm::append_range(inits, loop.getInits());
  for (Type type : resultTypes) {
    Value init = getUnreadInitialValue(loop, type, rewriter);
    if (!init)
      return loop.emitOpError("cannot move its condition into its body for "
                              "SPIR-V: its result of type ")
             << type
             << " is not carried and no value of that type is in scope "
                "(carry it through the loop)";
    inits.push_back(init);
  }
  SmallVector<Type> newResultTypes(carriedTypes);
  llvm::append_range(newResultTypes, resultTypes);

  auto newLoop = scf::WhileOp::create(
      rewriter, loc, newResultTypes, inits,
      [&](OpBuilder &builder, Location loc, ValueRange args) {
        scf::ConditionOp::create(builder, loc, args.front(), args.drop_front());
      },
      [&](OpBuilder &, Location, ValueRange) {});

  // The old condition region, on the carried values.
  Block *body = newLoop.getAfterBody();
  ValueRange carried = body->getArguments().take_front(numCarried);
  rewriter.inlineBlockBefore(loop.getBeforeBody(), body, body->end(), carried);
  auto condition = cast<scf::ConditionOp>(body->getTerminator());
  Value keepGoing = condition.getCondition();
  SmallVector<Value> forwarded(condition.getArgs());

  // The old body, when the condition holds.
  rewriter.setInsertionPoint(condition);
  // Without carried values the if needs no else branch: it yields nothing.
  auto guard = scf::IfOp::create(rewriter, loc, carriedTypes, keepGoing,
                                 /*addThenBlock=*/true,
                                 /*addElseBlock=*/numCarried != 0);
  Block *thenBlock = guard.thenBlock();
  eraseTerminator(thenBlock, rewriter);
  rewriter.inlineBlockBefore(loop.getAfterBody(), thenBlock, thenBlock->end(),
                             forwarded);
  if (numCarried != 0) {
    eraseTerminator(guard.elseBlock(), rewriter);
    rewriter.setInsertionPointToEnd(guard.elseBlock());
    scf::YieldOp::create(rewriter, loc, carried);
  }

  rewriter.setInsertionPoint(condition);
  SmallVector<Value> next{keepGoing};
  llvm::append_range(next, guard.getResults());
  llvm::append_range(next, forwarded);
  scf::YieldOp::create(rewriter, loc, next);
  rewriter.eraseOp(condition);

  rewriter.replaceOp(loop, newLoop.getResults().drop_front(numCarried));
  return success();
}

namespace {

struct CoroSPIRVStructurizeWhilePass
    : coro::impl::CoroSPIRVStructurizeWhileBase<CoroSPIRVStructurizeWhilePass> {
  using Base::Base;

  void runOnOperation() override {
    // Post-order: a loop in the condition of another is rewritten first, and
    // the outer rewrite moves it without recreating it.
    SmallVector<scf::WhileOp> loops;
    getOperation().walk([&](scf::WhileOp loop) {
      if (needsConditionInBody(loop))
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::WhileOp loop : loops) {
      LDBG() << "moving the condition of the loop at " << loop.getLoc()
             << " into its body";
      if (failed(moveConditionIntoBody(loop, rewriter)))
        return signalPassFailure();
      ++numLoopsRewritten;
    }
  }
};

} // namespace

//===- ExitLowering.cpp - leaving a subroutine of coro-split --------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ExitLowering.h"
#include "CoroGPU/Dialect/Coro/Utils/PlaceholderValue.h"
#include "FrameSpill.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::split;

namespace {

/// Lowers the checkpoints and the final return of one subroutine: each
/// stores its live state, sets the target token, and leaves the subroutine.
/// Leaving is structured: an "exited" flag guards the rest of every
/// enclosing block, and loops stop once it is set.
class ExitLowering {
public:
  ExitLowering(func::FuncOp subroutine, ArrayRef<SmallVector<int64_t>> slots,
               ArrayRef<FrameFieldAttr> fields, RewriterBase &rewriter)
      : subroutine(subroutine), liveSlots(slots), fields(fields),
        rewriter(rewriter) {}

  void run() {
    Block &entry = subroutine.getBody().front();
    frame = entry.getArgument(0);
    // Branches on constants first (the continuation of a loop may test a
    // constant true): an exit under one would count as "may exit", and the
    // rest of its block would test the flag instead of a branch condition.
    canonicalizeIfs();
    // Leaving from the top-level block needs no flag: the rest of the block
    // is simply dropped.
    bool nestedExit = false;
    subroutine.walk([&](CheckpointOp checkpoint) {
      nestedExit |= checkpoint->getBlock() != &entry;
    });
    if (nestedExit) {
      Location loc = subroutine.getLoc();
      rewriter.setInsertionPointToStart(&entry);
      // One i32, not a rank-0 i1: SPIR-V function variables are arrays and
      // booleans have no memory representation there.
      exited = memref::AllocaOp::create(
          rewriter, loc, MemRefType::get({1}, rewriter.getI32Type()));
      Value no = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
      memref::StoreOp::create(rewriter, loc, no, exited, flagIndex(loc));
    }
    lowerBlock(&entry);
    for (auto [op, guard] : guards)
      sinkGuard(op, guard);
    // Merge the guards that test a branch condition (guardByBranch) with the
    // scf.if of that branch, so the rest of the block lands in it.
    canonicalizeIfs();
    // A flag nobody reads (every nested exit ended its whole block chain, or
    // its guards merged away) is dropped with its stores.
    if (exited && llvm::none_of(exited.getUsers(), [](Operation *user) {
          return isa<memref::LoadOp>(user);
        })) {
      for (Operation *user : llvm::make_early_inc_range(exited.getUsers()))
        rewriter.eraseOp(user);
      rewriter.eraseOp(exited.getDefiningOp());
    }
  }

private:
  /// Applies the scf.if canonicalizations to the subroutine. The driver
  /// reports to our rewriter's listener (coro-split tracks the ops it may
  /// sink).
  void canonicalizeIfs() {
    RewritePatternSet patterns(subroutine.getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, subroutine.getContext());
    GreedyRewriteConfig config;
    config.setListener(
        dyn_cast_if_present<RewriterBase::Listener>(rewriter.getListener()));
    (void)applyPatternsGreedily(subroutine, std::move(patterns), config);
  }

  /// Whether control leaves the subroutine from within a block.
  enum class Exit { Never, May, Must };

  /// Lowers the exits in `block` and below.
  Exit lowerBlock(Block *block) {
    for (Operation *op = &block->front(); op != block->getTerminator();) {
      Operation *next = op->getNextNode();
      if (auto checkpoint = dyn_cast<CheckpointOp>(op)) {
        lowerCheckpoint(checkpoint);
        eraseRestOfBlock(block, next);
        return Exit::Must;
      }
      switch (lowerRegions(op)) {
      case Exit::Never:
        op = next;
        continue;
      case Exit::Must:
        eraseRestOfBlock(block, next);
        return Exit::Must;
      case Exit::May: {
        if (auto loop = dyn_cast<scf::WhileOp>(op))
          stopLoopOnExit(loop);
        if (next == block->getTerminator())
          return Exit::May;
        // The rest of the block runs only if nothing exited; it may have
        // exits of its own.
        scf::IfOp guard = guardFrom(next);
        bool byBranch = guardByBranch(op, guard);
        guards.push_back({op, guard});
        // Where the guard runs exactly when the branch that stays ran, a
        // rest that must exit makes every path exit; as after any exit that
        // must happen, a loop condition at the end of the block becomes
        // false (a while's before region must not go on to its after
        // region once it suspended).
        if (lowerBlock(guard.thenBlock()) == Exit::Must && byBranch) {
          eraseRestOfBlock(block, block->getTerminator());
          return Exit::Must;
        }
        return Exit::May;
      }
      }
    }
    return Exit::Never;
  }

  /// Lowers the exits in the regions of `op` and tells whether running `op`
  /// may or must leave the subroutine.
  Exit lowerRegions(Operation *op) {
    SmallVector<Exit> exits;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        exits.push_back(lowerBlock(&block));
    regionExits[op] = exits;
    if (llvm::all_of(exits, [](Exit e) { return e == Exit::Never; }))
      return Exit::Never;
    bool allMust = llvm::all_of(exits, [](Exit e) { return e == Exit::Must; });
    // Control goes through exactly one region of these ops...
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return allMust && !ifOp.getElseRegion().empty() ? Exit::Must : Exit::May;
    if (isa<scf::IndexSwitchOp>(op))
      return allMust ? Exit::Must : Exit::May;
    // ... and always through the before region of a loop.
    if (isa<scf::WhileOp>(op))
      return exits.front() == Exit::Must ? Exit::Must : Exit::May;
    return Exit::May;
  }

  void lowerCheckpoint(CheckpointOp checkpoint) {
    Location loc = checkpoint.getLoc();
    rewriter.setInsertionPoint(checkpoint);
    ArrayRef<int64_t> slots = liveSlots[checkpoint.getToken()];
    // A value kept in a promise field is there already.
    for (auto [value, field] : llvm::zip_equal(checkpoint.getLive(), slots))
      if (!fields[field].getPromise())
        storeToFrame(rewriter, loc, value, frame, field);
    FrameSetTargetOp::create(rewriter, loc, frame, checkpoint.getToken());
    if (exited) {
      Value yes = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
      memref::StoreOp::create(rewriter, loc, yes, exited, flagIndex(loc));
    }
    rewriter.eraseOp(checkpoint);
  }

  /// Erases the ops from `first` to the terminator: they never run. The
  /// terminator's operands they defined become poison, except a loop
  /// condition, which becomes false: the loop must stop, and branching on
  /// poison is undefined.
  void eraseRestOfBlock(Block *block, Operation *first) {
    Operation *terminator = block->getTerminator();
    auto condition = dyn_cast<scf::ConditionOp>(terminator);
    for (OpOperand &operand : terminator->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      bool isCondition = condition && operand.getOperandNumber() == 0;
      if (!isCondition &&
          (!def || def->getBlock() != block || def->isBeforeInBlock(first)))
        continue;
      rewriter.setInsertionPoint(first);
      Location loc = terminator->getLoc();
      operand.set(
          isCondition
              ? Value(arith::ConstantIntOp::create(rewriter, loc, 0, 1))
              : createPlaceholderValue(rewriter, loc, operand.get().getType()));
    }
    SmallVector<Operation *> dead;
    for (Operation *op = first; op != terminator; op = op->getNextNode())
      dead.push_back(op);
    for (Operation *op : llvm::reverse(dead)) {
      op->dropAllUses();
      rewriter.eraseOp(op);
    }
  }

  /// Moves the ops from `first` to the block's terminator into an scf.if
  /// that runs them only if the subroutine has not exited; the values they
  /// define that the terminator uses flow out of the scf.if (poison when
  /// skipped).
  scf::IfOp guardFrom(Operation *first) {
    Block *block = first->getBlock();
    Operation *terminator = block->getTerminator();
    Location loc = first->getLoc();
    llvm::SetVector<Value> escaping;
    for (Value operand : terminator->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == block && !def->isBeforeInBlock(first))
        escaping.insert(operand);
    }
    SmallVector<Type> types =
        llvm::to_vector(TypeRange(escaping.getArrayRef()));

    rewriter.setInsertionPoint(first);
    Value stay = notExited(loc);
    auto guard = scf::IfOp::create(rewriter, loc, types, stay,
                                   /*withElseRegion=*/true);
    // Start from empty branches, whatever the builder put there.
    Block *thenBlock = guard.thenBlock();
    Block *elseBlock = guard.elseBlock();
    if (!thenBlock->empty())
      rewriter.eraseOp(&thenBlock->back());
    if (!elseBlock->empty())
      rewriter.eraseOp(&elseBlock->back());
    thenBlock->getOperations().splice(thenBlock->end(), block->getOperations(),
                                      first->getIterator(),
                                      terminator->getIterator());
    rewriter.setInsertionPointToEnd(thenBlock);
    scf::YieldOp::create(rewriter, loc, escaping.getArrayRef());
    rewriter.setInsertionPointToEnd(elseBlock);
    SmallVector<Value> unread = llvm::map_to_vector(types, [&](Type type) {
      return createPlaceholderValue(rewriter, loc, type);
    });
    scf::YieldOp::create(rewriter, loc, unread);
    for (auto [value, result] : llvm::zip_equal(escaping, guard.getResults()))
      terminator->replaceUsesOfWith(value, result);
    return guard;
  }

  /// After an scf.if with one branch that must exit and one that never does
  /// (or none), "nothing exited" means "the other branch ran": `guard` tests
  /// the branch condition instead of the flag, so that the canonicalizer
  /// merges the two ifs and the rest of the block lands in the branch it
  /// follows. (Code that runs has not exited: an exit guards the rest of its
  /// blocks and stops its loops.) Without this, the rest of the block would
  /// test the flag after the if, and its values would stay live across the
  /// branch that exits: about 6 more registers in the path tracer's surface
  /// kernel on sm_90.
  bool guardByBranch(Operation *op, scf::IfOp guard) {
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (!ifOp)
      return false;
    SmallVector<Exit> exits = regionExits.lookup(op);
    Exit elseExit = ifOp.getElseRegion().empty() ? Exit::Never : exits[1];
    bool thenStays = exits[0] == Exit::Never && elseExit == Exit::Must;
    bool elseStays = exits[0] == Exit::Must && elseExit == Exit::Never;
    if (!thenStays && !elseStays)
      return false;
    Value condition = ifOp.getCondition();
    if (elseStays) {
      // Before the if, so that nothing separates the two ifs.
      rewriter.setInsertionPoint(ifOp);
      Value yes = arith::ConstantIntOp::create(rewriter, guard.getLoc(), 1, 1);
      condition =
          arith::XOrIOp::create(rewriter, guard.getLoc(), condition, yes);
    }
    rewriter.modifyOpInPlace(
        guard, [&] { guard.getConditionMutable().assign(condition); });
    return true;
  }

  /// Moves the code a flag guard runs after `op` into the one branch of
  /// `op` that may go on without exiting, as deep as that holds: after
  /// `scf.if %c {must exit} else {...; scf.if %d {never exits} else {must
  /// exit}}`, the rest of the block runs exactly where %d's then branch ran,
  /// so it moves to the end of that branch and needs no flag. (Code that
  /// runs has not exited, so the flag is clear when `op` starts.) The values
  /// of `op` it uses become those the branch yields. Stops, leaving the
  /// guard in place, where a branch may exit on some paths only, at ops
  /// other than scf.if, and where the guard has results.
  void sinkGuard(Operation *op, scf::IfOp guard) {
    if (guard.getNumResults() != 0)
      return;
    while (auto ifOp = dyn_cast_if_present<scf::IfOp>(op)) {
      auto found = regionExits.find(op);
      if (found == regionExits.end())
        return;
      ArrayRef<Exit> exits = found->second;
      bool hasElse = !ifOp.getElseRegion().empty();
      Exit thenExit = exits[0], elseExit = hasElse ? exits[1] : Exit::Never;
      // The branch the rest follows, and whether it may still exit.
      Region *stays;
      if (thenExit == Exit::Must && elseExit != Exit::Must)
        stays = &ifOp.getElseRegion();
      else if (elseExit == Exit::Must && thenExit != Exit::Must)
        stays = &ifOp.getThenRegion();
      else
        return;
      if (stays->empty()) {
        OpBuilder::InsertionGuard insertion(rewriter);
        rewriter.createBlock(stays);
        scf::YieldOp::create(rewriter, ifOp.getLoc());
      }
      Block *branch = &stays->front();
      Operation *yield = branch->getTerminator();
      for (auto [result, yielded] :
           llvm::zip_equal(ifOp.getResults(), yield->getOperands()))
        rewriter.replaceUsesWithIf(result, yielded, [&](OpOperand &use) {
          return guard->isAncestor(use.getOwner());
        });
      Exit branchExit = stays == &ifOp.getThenRegion() ? thenExit : elseExit;
      if (branchExit == Exit::Never) {
        // Nothing in the branch exits: the guard's code simply follows it.
        Block *body = guard.thenBlock();
        rewriter.eraseOp(body->getTerminator());
        branch->getOperations().splice(yield->getIterator(),
                                       body->getOperations());
        eraseGuard(guard);
        return;
      }
      // The branch may exit: the guard follows its last op that may.
      Operation *last = yield->getPrevNode();
      if (!last)
        return;
      rewriter.setInsertionPoint(yield);
      Value stay = notExited(guard.getLoc());
      rewriter.moveOpBefore(guard, yield);
      Operation *oldTest = guard.getCondition().getDefiningOp();
      rewriter.modifyOpInPlace(
          guard, [&] { guard.getConditionMutable().assign(stay); });
      if (oldTest && oldTest->use_empty())
        eraseDeadTest(oldTest);
      op = last;
    }
  }

  /// Erases `guard`, now empty, and the flag test it had.
  void eraseGuard(scf::IfOp guard) {
    Operation *test = guard.getCondition().getDefiningOp();
    rewriter.eraseOp(guard);
    if (test && test->use_empty())
      eraseDeadTest(test);
  }

  /// Erases a flag test (`cmpi eq, load, 0`) nothing uses, and its load.
  void eraseDeadTest(Operation *test) {
    SmallVector<Operation *> defs;
    for (Value operand : test->getOperands())
      if (Operation *def = operand.getDefiningOp())
        defs.push_back(def);
    rewriter.eraseOp(test);
    for (Operation *def : defs)
      if (def->use_empty() &&
          (isMemoryEffectFree(def) || isa<memref::LoadOp>(def)))
        rewriter.eraseOp(def);
  }

  /// Once the flag is set the loop must not run its before region again
  /// nor continue: guard the before region and make its condition false.
  void stopLoopOnExit(scf::WhileOp loop) {
    Block *before = loop.getBeforeBody();
    auto condition = cast<scf::ConditionOp>(before->getTerminator());
    if (&before->front() != condition)
      guardFrom(&before->front());
    rewriter.setInsertionPoint(condition);
    Location loc = condition.getLoc();
    Value stay = notExited(loc);
    // A select, not an and: the condition is poison once exited.
    Value stop = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
    Value proceed = arith::SelectOp::create(rewriter, loc, stay,
                                            condition.getCondition(), stop);
    rewriter.modifyOpInPlace(
        condition, [&] { condition.getConditionMutable().assign(proceed); });
  }

  SmallVector<Value> flagIndex(Location loc) {
    return {arith::ConstantIndexOp::create(rewriter, loc, 0)};
  }

  Value notExited(Location loc) {
    Value flag = memref::LoadOp::create(rewriter, loc, exited, flagIndex(loc));
    Value no = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, flag,
                                 no);
  }

  func::FuncOp subroutine;
  ArrayRef<SmallVector<int64_t>> liveSlots;
  ArrayRef<FrameFieldAttr> fields;
  RewriterBase &rewriter;
  Value frame;
  Value exited;
  /// The exits of each region of the ops lowered so far.
  llvm::DenseMap<Operation *, SmallVector<Exit>> regionExits;
  /// Each flag guard, with the op whose exits it follows.
  SmallVector<std::pair<Operation *, scf::IfOp>> guards;
};

} // namespace

void mlir::coro::split::lowerExits(func::FuncOp subroutine,
                                   ArrayRef<SmallVector<int64_t>> liveSlots,
                                   ArrayRef<FrameFieldAttr> fields,
                                   RewriterBase &rewriter) {
  ExitLowering(subroutine, liveSlots, fields, rewriter).run();
}

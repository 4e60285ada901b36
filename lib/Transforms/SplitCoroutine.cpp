//===- SplitCoroutine.cpp - continuation extraction -----------------------===//
//
// Part of the CoroGPU project.
//
// Splits each coroutine into an entry subroutine and one continuation per
// suspension point (paper Sec. 5, App. C.2), with structured control flow.
//
// The continuation of suspension point s, nested as
//   s in block B0 of op P1, P1 in block B1 of op P2, ..., Pk in the body,
// is the rest of B0 after s, then what remains of P1 once its region ends,
// then the rest of B1 after P1, and so on up to the coroutine's end:
//
//   scf.if / scf.index_switch  the region's yielded values are P's results;
//   scf.while, after region    the loop continues: a copy of the whole loop
//                              starting from the yielded values;
//   scf.while, before region   the condition is replayed: if it holds, the
//                              after region runs once, then a copy of the
//                              loop; otherwise the loop exits.
//
// Each enclosing loop is thus duplicated once (the partial iteration that
// resumes, then the loop itself); code that cannot run after s is never
// copied. scf.for loops that contain a suspension are first rewritten as
// scf.while, so the cases above are all there is.
//
// Values that cross a suspension point go through the frame, one slot per
// value ("every value that crosses gets a slot"; the frame materialization
// stage packs them later). The values live across s are the ones its
// continuation uses but does not define; since the continuation re-saves the
// state of the suspension points it reaches, the sets are computed to a
// fixed point. Constants, instance ids and pure address computations on
// arguments are recomputed instead of stored.
//
// Within a subroutine, reaching a suspension point (or the coroutine's end)
// stores the live state, sets the target token and leaves the subroutine:
// the rest of every enclosing block is guarded by an "exited" flag and
// loops stop iterating once it is set.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/FrameLayout.h"
#include "CoroGPU/Analysis/Recomputation.h"
#include "CoroGPU/Transforms/Passes.h"
#include "CoroGPU/Transforms/PlaceholderValue.h"
#include "CoroGPU/Transforms/PipelineChecks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/ControlFlowSinkUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPLIT
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;
using namespace mlir::coro;

/// Marks the frame loads and recomputed ops of a subroutine, while the split
/// sinks them to their uses.
static constexpr llvm::StringLiteral kSinkableAttrName = "coro.sinkable";

//===----------------------------------------------------------------------===//
// Preconditions and preparation
//===----------------------------------------------------------------------===//

/// Checks that `coroutine` is in the form the front half of the pipeline
/// produces: one block, and suspension points only under scf.if / for /
/// while / index_switch.
static LogicalResult checkSplittable(FuncOp coroutine) {
  if (!coroutine.getBody().hasOneBlock())
    return coroutine.emitOpError("has unstructured control flow; run "
                                 "coro-normalize-control-flow before "
                                 "coro-split");
  if (failed(checkFrontHalfRanOnAll(coroutine, "coro-split")))
    return failure();
  WalkResult result = coroutine.walk([&](Operation *op) {
    if (!isa<SuspendOp>(op))
      return WalkResult::advance();
    for (Operation *parent = op->getParentOp(); parent != coroutine;
         parent = parent->getParentOp()) {
      if (isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp>(parent))
        continue;
      InFlightDiagnostic diag =
          op->emitOpError("cannot be split inside '")
          << parent->getName()
          << "'; run coro-normalize-control-flow before coro-split";
      diag.attachNote(parent->getLoc()) << "enclosing op is here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Rewrites an scf.for as the equivalent scf.while that carries the
/// induction variable first.
static scf::WhileOp convertForToWhile(scf::ForOp loop, RewriterBase &rewriter) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> inits = {loop.getLowerBound()};
  llvm::append_range(inits, loop.getInitArgs());
  SmallVector<Type> types = llvm::to_vector(TypeRange(ValueRange(inits)));
  arith::CmpIPredicate predicate = loop.getUnsignedCmp()
                                       ? arith::CmpIPredicate::ult
                                       : arith::CmpIPredicate::slt;

  auto whileOp = scf::WhileOp::create(
      rewriter, loc, types, inits,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value more = arith::CmpIOp::create(b, loc, predicate, args.front(),
                                           loop.getUpperBound());
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {});
  Block *after = whileOp.getAfterBody();
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  rewriter.setInsertionPoint(yield);
  Value next = arith::AddIOp::create(rewriter, loc, body->getArgument(0),
                                     loop.getStep());
  SmallVector<Value> carried = {next};
  llvm::append_range(carried, yield.getOperands());
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, carried);
  rewriter.mergeBlocks(body, after, after->getArguments());
  rewriter.replaceOp(loop, whileOp.getResults().drop_front());
  return whileOp;
}

/// True if `loop` is known to run its body at least once.
static bool runsAtLeastOnce(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  return lower && upper && *lower < *upper;
}

/// True if `loop` is known to run its body at least once: its condition is
/// one of the before region's arguments, passed on unchanged, that starts
/// as `true` (`while (alive)` with `alive = true`).
static bool runsAtLeastOnce(scf::WhileOp loop) {
  auto condition =
      dyn_cast<BlockArgument>(loop.getConditionOp().getCondition());
  return condition && condition.getOwner() == loop.getBeforeBody() &&
         matchPattern(loop.getInits()[condition.getArgNumber()], m_One());
}

//===----------------------------------------------------------------------===//
// Where control must suspend
//===----------------------------------------------------------------------===//

namespace {

/// The ops that, once started, always reach a suspension point before they
/// finish. Code after such an op never runs in the same subroutine, so it is
/// not copied there: a continuation stops at the next suspension point that
/// must be reached, and its size does not depend on what follows.
class MustSuspendAnalysis {
public:
  MustSuspendAnalysis(Operation *root,
                      const llvm::SmallPtrSetImpl<Operation *> &nonEmptyLoops) {
    root->walk([&](Operation *op) { // Post-order: nested ops first.
      if (computeMustSuspend(op, nonEmptyLoops))
        mustSuspend.insert(op);
    });
  }

  bool mustSuspendIn(Operation *op) const { return mustSuspend.contains(op); }

  /// Whether every iteration of `loop` that starts its after region suspends
  /// before it ends, whatever the loop started from.
  bool mustSuspendInBody(scf::WhileOp loop) const {
    return regionMustSuspend(loop.getAfter());
  }

private:
  bool blockMustSuspend(Block &block) const {
    return llvm::any_of(
        block, [&](Operation &op) { return mustSuspend.contains(&op); });
  }

  bool regionMustSuspend(Region &region) const {
    return !region.empty() && blockMustSuspend(region.front());
  }

  bool computeMustSuspend(
      Operation *op,
      const llvm::SmallPtrSetImpl<Operation *> &nonEmptyLoops) const {
    if (isa<CheckpointOp>(op))
      return true;
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
      return llvm::all_of(op->getRegions(), [&](Region &region) {
        return regionMustSuspend(region);
      });
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return regionMustSuspend(loop.getBefore()) ||
             (nonEmptyLoops.contains(op) && regionMustSuspend(loop.getAfter()));
    return false;
  }

  llvm::DenseSet<Operation *> mustSuspend;
};

} // namespace

//===----------------------------------------------------------------------===//
// Continuation construction
//===----------------------------------------------------------------------===//

namespace {

/// Builds subroutine bodies by cloning parts of the prepared coroutine.
class ContinuationBuilder {
public:
  ContinuationBuilder(OpBuilder &builder, IRMapping &mapping,
                      const MustSuspendAnalysis &analysis)
      : builder(builder), mapping(mapping), analysis(analysis) {}

  /// Clones the whole body (the entry subroutine).
  void buildEntry(FuncOp coroutine) {
    (void)cloneTail(&coroutine.getBody().front(), nullptr);
  }

  /// Clones what runs after `point` up to the end of the coroutine, or up to
  /// the first suspension point that must be reached.
  void buildContinuation(Operation *point) {
    Operation *current = point;
    std::optional<SmallVector<Value>> yielded =
        cloneTail(point->getBlock(), point);
    while (yielded && !isa<FuncOp>(current->getParentOp())) {
      Operation *parent = current->getParentOp();
      std::optional<SmallVector<Value>> results =
          finishParent(parent, current->getParentRegion(), *yielded);
      if (!results)
        return;
      mapping.map(parent->getResults(), *results);
      current = parent;
      yielded = cloneTail(parent->getBlock(), parent);
    }
  }

private:
  /// Clones the ops of `block` after `from` (all when null), excluding the
  /// terminator, and returns the terminator's operands as mapped; or nothing
  /// when a cloned op must suspend, so the rest is unreachable.
  std::optional<SmallVector<Value>> cloneTail(Block *block, Operation *from) {
    auto it = from ? std::next(from->getIterator()) : block->begin();
    for (; &*it != block->getTerminator(); ++it) {
      auto loop = dyn_cast<scf::WhileOp>(&*it);
      if (loop && analysis.mustSuspendInBody(loop)) {
        SmallVector<Value> inits =
            llvm::map_to_vector(loop.getInits(), [&](Value v) {
              return mapping.lookupOrDefault(v);
            });
        mapping.map(loop.getResults(), cloneLoopFrom(loop, inits));
      } else {
        cloneFresh(&*it);
      }
      if (analysis.mustSuspendIn(&*it))
        return std::nullopt;
    }
    return llvm::map_to_vector(
        block->getTerminator()->getOperands(),
        [&](Value v) { return mapping.lookupOrDefault(v); });
  }

  /// The values `parent` produces once its region `region` has ended by
  /// yielding `yielded`; nothing if finishing it must suspend.
  std::optional<SmallVector<Value>>
  finishParent(Operation *parent, Region *region, ArrayRef<Value> yielded) {
    auto loop = dyn_cast<scf::WhileOp>(parent);
    if (!loop) // scf.if, scf.index_switch: the region's values are the results
      return SmallVector<Value>(yielded);
    if (region == &loop.getAfter())
      return cloneLoopFrom(loop, yielded);
    return replayCondition(loop, yielded);
  }

  /// The results of `loop` once its before region has yielded `yielded` (the
  /// condition, then the after region's arguments): the after region and
  /// the rest of the loop if the condition holds.
  SmallVector<Value> replayCondition(scf::WhileOp loop,
                                     ArrayRef<Value> yielded) {
    Location loc = loop.getLoc();
    Value condition = yielded.front();
    ArrayRef<Value> args = yielded.drop_front();
    auto replay = scf::IfOp::create(builder, loc, loop.getResultTypes(),
                                    condition, /*withElseRegion=*/true);
    // Start from empty branches: without results the builder put an
    // scf.yield in each (a loop that carries nothing, coro-fuzz seed 556).
    for (Block *branch : {replay.thenBlock(), replay.elseBlock()})
      if (!branch->empty())
        branch->back().erase();
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(replay.thenBlock());
      Block *after = loop.getAfterBody();
      mapping.map(after->getArguments(), args);
      if (std::optional<SmallVector<Value>> next = cloneTail(after, nullptr)) {
        scf::YieldOp::create(builder, loc, cloneLoopFrom(loop, *next));
      } else {
        // Suspends inside the after region; the results are never used.
        scf::YieldOp::create(builder, loc,
                             createPoison(loc, loop.getResultTypes()));
      }
      builder.setInsertionPointToStart(replay.elseBlock());
      scf::YieldOp::create(builder, loc, args);
    }
    return replay.getResults();
  }

  /// `loop` run from `inits`. When every iteration suspends in the after
  /// region, no iteration ends in this subroutine: the copy is the before
  /// region and, if the condition holds, the after region up to its
  /// suspension (no loop, no exit flag to stop it).
  SmallVector<Value> cloneLoopFrom(scf::WhileOp loop, ArrayRef<Value> inits) {
    if (analysis.mustSuspendInBody(loop)) {
      Block *before = loop.getBeforeBody();
      mapping.map(before->getArguments(), inits);
      if (std::optional<SmallVector<Value>> yielded =
              cloneTail(before, nullptr))
        return replayCondition(loop, *yielded);
      return createPoison(loop.getLoc(), loop.getResultTypes());
    }
    Operation *copy = cloneFresh(loop);
    copy->setOperands(inits);
    return copy->getResults();
  }

  /// Values for results that are never used: control has suspended.
  SmallVector<Value> createPoison(Location loc, TypeRange types) {
    return llvm::map_to_vector(types, [&](Type type) {
      return createPlaceholderValue(builder, loc, type);
    });
  }

  /// Clones `op` with fresh block arguments. Region cloning omits the block
  /// arguments the mapping already has an entry for, and an op may be cloned
  /// after its nested block arguments were mapped (a loop copied after the
  /// partial iteration that resumed it).
  Operation *cloneFresh(Operation *op) {
    for (Region &region : op->getRegions())
      region.walk([&](Block *block) {
        for (BlockArgument arg : block->getArguments())
          mapping.erase(arg);
      });
    return builder.clone(*op, mapping);
  }

  OpBuilder &builder;
  IRMapping &mapping;
  const MustSuspendAnalysis &analysis;
};

} // namespace

//===----------------------------------------------------------------------===//
// Live state
//===----------------------------------------------------------------------===//

/// Collects the values used in `function` but defined outside of it, in
/// first-use order.
static llvm::SetVector<Value> collectExternalValues(Operation *function) {
  llvm::SetVector<Value> external;
  function->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Region *region = operand.getParentRegion();
      if (!function->isProperAncestor(region->getParentOp()) &&
          region->getParentOp() != function)
        external.insert(operand);
    }
  });
  return external;
}

/// The position of element `linear` in row-major order of `shape`.
static SmallVector<int64_t> delinearize(ArrayRef<int64_t> shape,
                                        int64_t linear) {
  SmallVector<int64_t> position(shape.size());
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    position[dim] = linear % shape[dim];
    linear /= shape[dim];
  }
  return position;
}

static SmallVector<Value> getElementIndices(OpBuilder &builder, Location loc,
                                            ArrayRef<int64_t> shape,
                                            int64_t linear) {
  return llvm::map_to_vector(delinearize(shape, linear), [&](int64_t i) {
    return Value(arith::ConstantIndexOp::create(builder, loc, i));
  });
}

/// Saves `value` into the frame fields from `field` on (a vector lane by
/// lane, a local array element by element) and returns the next field.
static int64_t storeToFrame(OpBuilder &builder, Location loc, Value value,
                            Value frame, int64_t field) {
  Type type = value.getType();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    for (int64_t i = 0, e = memref.getNumElements(); i < e; ++i) {
      Value element = memref::LoadOp::create(
          builder, loc, value,
          getElementIndices(builder, loc, memref.getShape(), i));
      field = storeToFrame(builder, loc, element, frame, field);
    }
    return field;
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i) {
      Value lane = vector::ExtractOp::create(builder, loc, value,
                                             delinearize(vector.getShape(), i));
      FrameStoreOp::create(builder, loc, lane, frame, field++);
    }
    return field;
  }
  FrameStoreOp::create(builder, loc, value, frame, field);
  return field + 1;
}

/// Restores a value of `type` saved by storeToFrame from `field` on, and
/// advances `field` past it; a local array is re-created.
static Value loadFromFrame(OpBuilder &builder, Location loc, Type type,
                           Value frame, int64_t &field) {
  if (auto memref = dyn_cast<MemRefType>(type)) {
    Value array = memref::AllocaOp::create(builder, loc, memref);
    for (int64_t i = 0, e = memref.getNumElements(); i < e; ++i) {
      Value element =
          loadFromFrame(builder, loc, memref.getElementType(), frame, field);
      memref::StoreOp::create(
          builder, loc, element, array,
          getElementIndices(builder, loc, memref.getShape(), i));
    }
    return array;
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    SmallVector<Value> lanes;
    for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i)
      lanes.push_back(FrameLoadOp::create(builder, loc, vector.getElementType(),
                                          frame, field++));
    return vector::FromElementsOp::create(builder, loc, vector, lanes);
  }
  return FrameLoadOp::create(builder, loc, type, frame, field++);
}

//===----------------------------------------------------------------------===//
// Early exits
//===----------------------------------------------------------------------===//

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
    // Merge the guards that test a branch condition (guardByBranch) with the
    // scf.if of that branch, so the rest of the block lands in it.
    RewritePatternSet patterns(subroutine.getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, subroutine.getContext());
    (void)applyPatternsGreedily(subroutine, std::move(patterns));
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
        guardByBranch(op, guard);
        lowerBlock(guard.thenBlock());
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
      operand.set(isCondition
                      ? Value(arith::ConstantIntOp::create(rewriter, loc, 0, 1))
                      : createPlaceholderValue(rewriter, loc,
                                               operand.get().getType()));
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

  /// After an scf.if with one branch that must exit and one that never does,
  /// "nothing exited" means "the other branch ran": `guard` tests the
  /// branch condition instead of the flag, so that the canonicalizer merges
  /// the two ifs and the rest of the block lands in the branch it follows.
  void guardByBranch(Operation *op, scf::IfOp guard) {
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (!ifOp || ifOp.getElseRegion().empty())
      return;
    ArrayRef<Exit> exits = regionExits.lookup(op);
    bool thenStays = exits[0] == Exit::Never && exits[1] == Exit::Must;
    bool elseStays = exits[0] == Exit::Must && exits[1] == Exit::Never;
    if (!thenStays && !elseStays)
      return;
    Value condition = ifOp.getCondition();
    if (elseStays) {
      rewriter.setInsertionPoint(guard);
      Value yes = arith::ConstantIntOp::create(rewriter, guard.getLoc(), 1, 1);
      condition =
          arith::XOrIOp::create(rewriter, guard.getLoc(), condition, yes);
    }
    rewriter.modifyOpInPlace(
        guard, [&] { guard.getConditionMutable().assign(condition); });
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
};

} // namespace

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// Splits one coroutine. Works on a private copy of the coroutine, which is
/// prepared (loops to while, suspension points to checkpoints) and erased at
/// the end; the coroutine itself stays as the mega-kernel reference.
class CoroutineSplitter {
public:
  CoroutineSplitter(FuncOp original, RecomputeAnalysis::Options recompute,
                    RewriterBase &rewriter)
      : original(original), recomputeOptions(recompute), rewriter(rewriter) {}

  LogicalResult split() {
    if (failed(checkSplittable(original)))
      return failure();
    work = original.clone();
    llvm::scope_exit eraseWork([&] { work->erase(); });
    prepare();
    analysis.emplace(work, nonEmptyLoops);
    recomputation.emplace(work, recomputeOptions);
    if (failed(computeLiveSets()))
      return failure();
    reduceLiveSets();
    assignFields();
    SmallVector<func::FuncOp> subroutines;
    for (int32_t token = 0, e = checkpoints.size() + 1; token < e; ++token)
      subroutines.push_back(buildSubroutine(token));
    for (func::FuncOp subroutine : subroutines) {
      ExitLowering(subroutine, liveSlotsByToken, fields, rewriter).run();
      sinkLoadsAndRecomputedValues(subroutine);
      lowerCoroutineOps(subroutine);
      // Drop what the copies left dead (e.g. values only the code before the
      // suspension point used).
      (void)simplifyRegions(rewriter, subroutine->getRegions());
    }
    createSplitOp(subroutines);
    return success();
  }

private:
  /// Rewrites loops that contain suspension points as scf.while and turns
  /// the suspension points into checkpoints numbered in program order.
  void prepare() {
    sinkLocalArrays();
    SmallVector<scf::ForOp> loops;
    work.walk([&](scf::ForOp loop) {
      if (loop->walk([](SuspendOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) { // Post-order: inner loops first.
      bool nonEmpty = runsAtLeastOnce(loop);
      scf::WhileOp whileOp = convertForToWhile(loop, rewriter);
      if (nonEmpty)
        nonEmptyLoops.insert(whileOp);
    }
    work.walk([&](scf::WhileOp loop) {
      if (runsAtLeastOnce(loop))
        nonEmptyLoops.insert(loop);
    });

    names.push_back("entry");
    llvm::StringSet<> usedNames = {"entry"};
    work.walk([&](SuspendOp suspend) {
      if (suspend.getTag())
        usedNames.insert(*suspend.getTag());
    });
    SmallVector<SuspendOp> suspends;
    work.walk<WalkOrder::PreOrder>(
        [&](SuspendOp suspend) { suspends.push_back(suspend); });
    for (SuspendOp suspend : suspends) {
      int32_t token = checkpoints.size() + 1;
      std::string name;
      if (suspend.getTag()) {
        name = suspend.getTag()->str();
      } else {
        name = "s" + std::to_string(token);
        while (!usedNames.insert(name).second)
          name += "_";
      }
      names.push_back(name);
      rewriter.setInsertionPoint(suspend);
      checkpoints.push_back(CheckpointOp::create(rewriter, suspend.getLoc(),
                                                 token, ValueRange{}));
      rewriter.eraseOp(suspend);
    }
  }

  /// Builds each continuation in a scratch function, without frame loads,
  /// and takes the values it uses from outside as its live set; repeats
  /// until no checkpoint's live set grows.
  LogicalResult computeLiveSets() {
    bool changed = true;
    while (changed) {
      changed = false;
      // Later suspension points first: state flows backwards, so most
      // programs settle in one or two rounds.
      for (CheckpointOp checkpoint : llvm::reverse(checkpoints)) {
        func::FuncOp scratch = createSubroutineShell("__live_scratch");
        IRMapping mapping;
        mapArguments(scratch, mapping);
        OpBuilder builder = OpBuilder::atBlockEnd(&scratch.getBody().front());
        ContinuationBuilder(builder, mapping, *analysis)
            .buildContinuation(checkpoint);
        llvm::SetVector<Value> live;
        for (Value value : collectExternalValues(scratch)) {
          Operation *def = value.getDefiningOp();
          bool isArgument = !def && cast<BlockArgument>(value).getOwner() ==
                                        &work.getBody().front();
          if (!isArgument &&
              (!def ||
               (!isa<IdOp>(def) && !def->hasTrait<OpTrait::ConstantLike>())))
            naiveValues.insert(value);
          recomputation->addFrameInputs(value, live);
        }
        scratch.erase();
        for (Value value : live) {
          if (RecomputeAnalysis::getFrameBits(value))
            continue;
          return emitError(value.getLoc(), "this value of type ")
                 << value.getType() << " is live across suspension point '"
                 << names[checkpoint.getToken()]
                 << "' and cannot be kept in the frame; only scalars, "
                    "fixed-size vectors and local arrays (memref.alloca of "
                    "static shape, at most "
                 << kMaxLocalArrayElements
                 << " elements) may cross; buffers are passed as arguments "
                    "(and views recomputed from them)";
        }
        // Keep the existing order and append what is new, so the fixed point
        // is reached monotonically.
        llvm::SetVector<Value> merged(checkpoint.getLive().begin(),
                                      checkpoint.getLive().end());
        merged.insert(live.begin(), live.end());
        if (merged.size() == checkpoint.getLive().size())
          continue;
        rewriter.modifyOpInPlace(checkpoint, [&] {
          checkpoint.getLiveMutable().assign(merged.getArrayRef());
        });
        changed = true;
      }
    }
    return success();
  }

  /// Shrinks each live set with the values that are in it anyway: a value
  /// whose recomputation needs only those (and at most a few more bits than
  /// it has itself) leaves the frame; what its recomputation needs from
  /// outside the set joins it. Widest values first.
  void reduceLiveSets() {
    for (CheckpointOp checkpoint : checkpoints) {
      llvm::SetVector<Value> live(checkpoint.getLive().begin(),
                                  checkpoint.getLive().end());
      SmallVector<Value> candidates(live.begin(), live.end());
      llvm::stable_sort(candidates, [](Value a, Value b) {
        return *RecomputeAnalysis::getFrameBits(a) >
               *RecomputeAnalysis::getFrameBits(b);
      });
      for (Value value : candidates) {
        llvm::SetVector<Value> others = live;
        others.remove(value);
        FailureOr<llvm::SetVector<Value>> leaves =
            recomputation->getLeavesGiven(value, others);
        if (failed(leaves))
          continue;
        int64_t leafBits = 0;
        for (Value leaf : *leaves)
          leafBits += *RecomputeAnalysis::getFrameBits(leaf);
        if (leafBits >= *RecomputeAnalysis::getFrameBits(value))
          continue;
        others.insert_range(*leaves);
        live = std::move(others);
      }
      rewriter.modifyOpInPlace(checkpoint, [&] {
        checkpoint.getLiveMutable().assign(live.getArrayRef());
      });
    }
  }

  /// One field per scalar, vector lane and local-array element live across
  /// any suspension point, in order of appearance, and the promise fields;
  /// each in words of its own (coro-materialize-frame packs them).
  ///
  /// A value that a promise field holds at a suspension point is read from
  /// there instead (a material id promised for sorting and used after the
  /// suspension, say).
  void assignFields() {
    llvm::DenseMap<CheckpointOp, llvm::DenseMap<Value, PromiseOp>> held =
        findPromisedValues();
    // Promise fields for the held values are created below, after the
    // others: the slots point at them once they exist.
    SmallVector<std::tuple<int32_t, size_t, PromiseOp>> promised;
    liveSlotsByToken.resize(checkpoints.size() + 1);
    for (CheckpointOp checkpoint : checkpoints) {
      SmallVector<int64_t> &slots = liveSlotsByToken[checkpoint.getToken()];
      for (Value value : checkpoint.getLive()) {
        if (PromiseOp promise = held.lookup(checkpoint).lookup(value)) {
          promised.emplace_back(checkpoint.getToken(), slots.size(), promise);
          slots.push_back(-1);
          continue;
        }
        slots.push_back(getOrCreateFields(value));
      }
    }
    work.walk([&](PromiseOp promise) {
      auto [it, inserted] =
          promiseSlots.try_emplace(promise.getName(), fields.size());
      if (inserted)
        appendFields(promise.getName(), promise.getValue().getType(),
                     /*promise=*/true);
    });
    for (auto [token, index, promise] : promised)
      liveSlotsByToken[token][index] = promiseSlots.lookup(promise.getName());
    fields = layOutUnpacked(fields);
  }

  /// For each checkpoint, the live values a promise field holds there: the
  /// value of the only `coro.promise` of its name, which runs before the
  /// checkpoint on every path (it dominates it) and in the block that
  /// defines the value, so no newer value of it reaches the checkpoint
  /// without the promise op storing it again.
  llvm::DenseMap<CheckpointOp, llvm::DenseMap<Value, PromiseOp>>
  findPromisedValues() {
    llvm::StringMap<SmallVector<PromiseOp, 1>> promisesByName;
    work.walk([&](PromiseOp promise) {
      promisesByName[promise.getName()].push_back(promise);
    });
    DominanceInfo dominance(work);
    llvm::DenseMap<CheckpointOp, llvm::DenseMap<Value, PromiseOp>> held;
    for (auto &entry : promisesByName) {
      if (entry.second.size() != 1)
        continue;
      PromiseOp promise = entry.second.front();
      Value value = promise.getValue();
      if (value.getParentBlock() != promise->getBlock())
        continue;
      for (CheckpointOp checkpoint : checkpoints)
        if (llvm::is_contained(checkpoint.getLive(), value) &&
            dominance.properlyDominates(promise.getOperation(), checkpoint))
          held[checkpoint].try_emplace(value, promise);
    }
    return held;
  }

  /// The first of the fields that hold `value`.
  int64_t getOrCreateFields(Value value) {
    auto [it, inserted] = valueSlots.try_emplace(value, fields.size());
    if (inserted)
      appendFields(getValueName(value), value.getType(), /*promise=*/false);
    return it->second;
  }

  /// A name for the fields of `value`: the name of its location if it has
  /// one (`loc("ray")`), otherwise v<N> in order of appearance.
  std::string getValueName(Value value) {
    if (auto name = dyn_cast<NameLoc>(value.getLoc()))
      return name.getName().str();
    return "v" + std::to_string(valueSlots.size() - 1);
  }

  void appendFields(StringRef name, Type type, bool promise) {
    int64_t count = getNumFrameFields(type);
    Type fieldType = getFrameFieldType(type);
    for (int64_t i = 0; i < count; ++i) {
      std::string fieldName = name.str();
      if (count > 1)
        fieldName += "[" + std::to_string(i) + "]";
      fields.push_back(FrameFieldAttr::get(rewriter.getContext(),
                                           rewriter.getStringAttr(fieldName),
                                           fieldType, 0, 0, promise));
    }
  }

  /// Bytes of the frame when every value live across a suspension point is
  /// stored, nothing recomputed: the baseline of the frame report.
  int64_t getNaiveFrameBytes() {
    int64_t bits = 0;
    auto addBits = [&](Type type) {
      Type field = getFrameFieldType(type);
      int64_t fieldBits =
          field.isSignlessIntOrIndexOrFloat()
              ? llvm::alignTo(FrameFieldAttr::getStorageBits(field), 32)
              : 64; // A pointer.
      bits += fieldBits * getNumFrameFields(type);
    };
    for (Value value : naiveValues)
      addBits(value.getType());
    for (FrameFieldAttr field : fields)
      if (field.getPromise())
        bits += llvm::alignTo(field.getStorageBits(), 32);
    return kFirstFieldWord * 4 + bits / 8;
  }

  /// Shrinks the scope of local arrays: an alloca moves down to just before
  /// the first op of its block that uses it, so that an array only used
  /// after a suspension point is not live across it. (It stays in its
  /// block: moving it into a loop would give each iteration a fresh array.)
  void sinkLocalArrays() {
    SmallVector<memref::AllocaOp> allocas;
    work.walk([&](memref::AllocaOp alloca) { allocas.push_back(alloca); });
    for (memref::AllocaOp alloca : allocas) {
      Block *block = alloca->getBlock();
      Operation *first = nullptr;
      for (Operation *user : alloca->getUsers()) {
        Operation *holder = block->findAncestorOpInBlock(*user);
        if (holder && (!first || holder->isBeforeInBlock(first)))
          first = holder;
      }
      if (first && alloca->isBeforeInBlock(first) &&
          alloca->getNumOperands() == 0)
        alloca->moveBefore(first);
    }
  }

  /// `func.func @<coroutine>__<name>(%frame: !coro.frame, args...)` with an
  /// entry block, inserted after the coroutine.
  func::FuncOp createSubroutineShell(StringRef name) {
    SmallVector<Type> inputs = {FrameType::get(rewriter.getContext())};
    llvm::append_range(inputs, original.getArgumentTypes());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(insertionPoint ? insertionPoint
                                                   : original.getOperation());
    auto function =
        func::FuncOp::create(rewriter, original.getLoc(),
                             (original.getSymName() + "__" + name).str(),
                             rewriter.getFunctionType(inputs, {}));
    function.addEntryBlock();
    return function;
  }

  void mapArguments(func::FuncOp function, IRMapping &mapping) {
    mapping.map(work.getArguments(), function.getArguments().drop_front());
  }

  func::FuncOp buildSubroutine(int32_t token) {
    func::FuncOp function = createSubroutineShell(names[token]);
    insertionPoint = function; // Keep the subroutines in token order.
    Block &entry = function.getBody().front();
    Value frame = entry.getArgument(0);
    IRMapping mapping;
    mapArguments(function, mapping);
    OpBuilder builder = OpBuilder::atBlockEnd(&entry);
    ContinuationBuilder continuation(builder, mapping, *analysis);
    // What recomputed values are computed from: the arguments and the
    // values loaded from the frame (the continuation remaps more).
    IRMapping recomputeInputs;
    Operation *lastLoad = nullptr;
    if (token == kEntryToken) {
      continuation.buildEntry(work);
    } else {
      CheckpointOp checkpoint = checkpoints[token - 1];
      for (auto [value, first] :
           llvm::zip_equal(checkpoint.getLive(), liveSlotsByToken[token])) {
        int64_t field = first;
        Value loaded = loadFromFrame(builder, value.getLoc(), value.getType(),
                                     frame, field);
        mapping.map(value, loaded);
        // Loads of a promise field stay first: the subroutine may promise
        // a new value later. Other fields only change when it leaves.
        if (!fields[first].getPromise() && !isa<MemRefType>(value.getType()))
          markSinkable(loaded);
      }
      recomputeInputs = mapping;
      lastLoad = entry.empty() ? nullptr : &entry.back();
      continuation.buildContinuation(checkpoint);
    }
    // The coroutine's end: terminate.
    FrameSetTargetOp::create(builder, original.getLoc(), frame,
                             kTerminatedToken);
    func::ReturnOp::create(builder, original.getLoc());
    if (token == kEntryToken)
      mapArguments(function, recomputeInputs);
    recomputeExternalValues(function, recomputeInputs, lastLoad);
    return function;
  }

  /// Recomputes the values `function` uses from the coroutine from their
  /// inputs (arguments, or values `loaded` maps to their frame loads),
  /// after `lastLoad` (at the start when null).
  void recomputeExternalValues(func::FuncOp function, IRMapping &loaded,
                               Operation *lastLoad) {
    OpBuilder builder(rewriter.getContext());
    if (lastLoad)
      builder.setInsertionPointAfter(lastLoad);
    else
      builder.setInsertionPointToStart(&function.getBody().front());
    std::function<Value(Value)> materialize = [&](Value value) -> Value {
      if (Value mapped = loaded.lookupOrNull(value))
        return mapped;
      Operation *def = value.getDefiningOp();
      assert(def && recomputation->canRecompute(def) &&
             "a value is neither in the frame nor recomputable");
      for (Value operand : def->getOperands())
        materialize(operand);
      Operation *copy = builder.clone(*def, loaded);
      copy->setAttr(kSinkableAttrName, builder.getUnitAttr());
      return loaded.lookup(value);
    };
    for (Value value : collectExternalValues(function)) {
      assert(value.getDefiningOp() &&
             recomputation->canRecompute(value.getDefiningOp()) &&
             "live-state analysis missed a value");
      Value replacement = materialize(value);
      value.replaceUsesWithIf(replacement, [&](OpOperand &use) {
        return function->isProperAncestor(use.getOwner());
      });
    }
  }

  /// Marks the ops that load `value` from the frame (the frame loads, and
  /// the vector built from them) as sinkable.
  static void markSinkable(Value value) {
    Operation *def = value.getDefiningOp();
    def->setAttr(kSinkableAttrName, UnitAttr::get(def->getContext()));
    if (isa<vector::FromElementsOp>(def))
      for (Value lane : def->getOperands())
        markSinkable(lane);
  }

  /// Moves the frame loads and recomputed ops made at the start of
  /// `function` down to their first use, and into the branches that use
  /// them, so that a value only one path needs is loaded or computed on that
  /// path and occupies no register before (a hit record across the BVH
  /// traversal, the path tracer's camera, needed only when a path ends).
  /// Delaying them is safe: the recomputed ops are pure, integer divisions
  /// that ran on the same operands before, or loads of buffers no instance
  /// writes; the frame fields loaded change only when the subroutine stores
  /// its live state at a suspension point and leaves (promise fields, which
  /// it may store earlier, are not moved).
  void sinkLoadsAndRecomputedValues(func::FuncOp function) {
    Block &entry = function.getBody().front();
    SmallVector<Operation *> sinkable;
    for (Operation &op : entry)
      if (op.hasAttr(kSinkableAttrName))
        sinkable.push_back(&op);
    // Users first, so that their operands follow them down.
    for (Operation *op : llvm::reverse(sinkable)) {
      Operation *first = nullptr;
      for (Operation *user : op->getUsers()) {
        Operation *holder = entry.findAncestorOpInBlock(*user);
        if (holder && (!first || holder->isBeforeInBlock(first)))
          first = holder;
      }
      if (first && op->isBeforeInBlock(first))
        op->moveBefore(first);
    }
    SmallVector<Region *> regions;
    function.walk([&](RegionBranchOpInterface branch) {
      getSinglyExecutedRegionsToSink(branch, regions);
    });
    DominanceInfo dominance(function);
    controlFlowSink(
        regions, dominance,
        [](Operation *op, Region *) { return op->hasAttr(kSinkableAttrName); },
        [](Operation *op, Region *region) {
          op->moveBefore(&region->front(), region->front().begin());
        });
    function.walk([](Operation *op) { op->removeAttr(kSinkableAttrName); });
  }

  /// coro.id -> coro.frame.id, coro.promise -> a store to its slot.
  void lowerCoroutineOps(func::FuncOp function) {
    Value frame = function.getArgument(0);
    SmallVector<Operation *> ops;
    function.walk([&](Operation *op) {
      if (isa<IdOp, PromiseOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      if (auto id = dyn_cast<IdOp>(op)) {
        rewriter.replaceOpWithNewOp<FrameIdOp>(id, id.getType(), frame,
                                               id.getDimAttr());
      } else if (auto promise = dyn_cast<PromiseOp>(op)) {
        storeToFrame(rewriter, promise.getLoc(), promise.getValue(), frame,
                     promiseSlots.lookup(promise.getName()));
        rewriter.eraseOp(promise);
      }
    }
  }

  void createSplitOp(ArrayRef<func::FuncOp> subroutines) {
    SmallVector<Attribute> symbols = llvm::map_to_vector(
        subroutines, [](func::FuncOp function) -> Attribute {
          return FlatSymbolRefAttr::get(function.getSymNameAttr());
        });
    // Edges: from every subroutine to each checkpoint it contains, and to
    // termination.
    SmallVector<Attribute> transitions;
    for (auto [from, subroutine] : llvm::enumerate(subroutines)) {
      func::FuncOp function = subroutine;
      llvm::SetVector<int32_t> targets;
      function.walk(
          [&](FrameSetTargetOp set) { targets.insert(set.getToken()); });
      for (int32_t to : targets)
        transitions.push_back(
            rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(from), to}));
    }
    rewriter.setInsertionPointAfter(insertionPoint);
    SplitOp::create(
        rewriter, original.getLoc(), original.getSymName(),
        rewriter.getArrayAttr(symbols),
        rewriter.getStrArrayAttr(llvm::map_to_vector(
            names, [](const std::string &n) { return StringRef(n); })),
        rewriter.getArrayAttr(llvm::map_to_vector(
            fields, [](FrameFieldAttr field) -> Attribute { return field; })),
        rewriter.getArrayAttr(transitions),
        rewriter.getDictionaryAttr(
            {rewriter.getNamedAttr(
                 "naive", rewriter.getI64IntegerAttr(getNaiveFrameBytes())),
             rewriter.getNamedAttr(
                 "split", rewriter.getI64IntegerAttr(getFrameBytes(fields)))}));
  }

  FuncOp original;
  RecomputeAnalysis::Options recomputeOptions;
  FuncOp work;
  RewriterBase &rewriter;
  Operation *insertionPoint = nullptr;
  SmallVector<std::string> names;
  SmallVector<CheckpointOp> checkpoints;
  llvm::SmallPtrSet<Operation *, 8> nonEmptyLoops;
  std::optional<MustSuspendAnalysis> analysis;
  std::optional<RecomputeAnalysis> recomputation;
  /// Values live across some suspension point, recomputable ones included.
  llvm::SetVector<Value> naiveValues;
  SmallVector<SmallVector<int64_t>> liveSlotsByToken;
  llvm::DenseMap<Value, int64_t> valueSlots;
  llvm::StringMap<int64_t> promiseSlots;
  SmallVector<FrameFieldAttr> fields;
};

struct CoroSplitPass : coro::impl::CoroSplitBase<CoroSplitPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Coroutines split already (by hand, or by another tool) keep their
    // split.
    llvm::StringSet<> split;
    for (SplitOp op : getOperation().getOps<SplitOp>())
      split.insert(op.getCoroutine());
    SmallVector<FuncOp> coroutines(getOperation().getOps<FuncOp>());
    for (FuncOp coroutine : coroutines)
      if (!split.contains(coroutine.getSymName()) &&
          failed(CoroutineSplitter(coroutine, {maxRecomputedOps, deferLoads},
                                   rewriter)
                     .split()))
        return signalPassFailure();
  }
};

} // namespace

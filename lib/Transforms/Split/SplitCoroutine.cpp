//===- SplitCoroutine.cpp - continuation extraction -----------------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
// The pieces, in the order the pass uses them (as LLVM's coroutine passes
// split theirs): MustSuspendAnalysis (lib/Analysis), which ops always
// suspend; LiveState.cpp, the live sets to a fixed point and their
// reduction by recomputation; ContinuationBuilder.cpp, the subroutine
// bodies; FrameSpill.cpp, values to and from frame fields; ExitLowering.cpp,
// the checkpoints and the structured exit. This file prepares the
// coroutine, assigns the fields, builds each subroutine and the coro.split
// (about 720 lines: the splitter's steps share its state, one class).
//
//===----------------------------------------------------------------------===//

#include "ContinuationBuilder.h"
#include "CoroGPU/Analysis/FrameLayout.h"
#include "CoroGPU/Analysis/MustSuspend.h"
#include "CoroGPU/Analysis/Recomputation.h"
#include "CoroGPU/Dialect/Coro/Utils/PipelineChecks.h"
#include "CoroGPU/Transforms/Passes.h"
#include "ExitLowering.h"
#include "FrameSpill.h"
#include "LiveState.h"

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
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "coro-split"

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROSPLIT
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

using namespace mlir;
using namespace mlir::coro;
using namespace mlir::coro::split;

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
      if (isa<ForEachOp>(parent)) {
        InFlightDiagnostic diag =
            op->emitOpError("cannot be split inside 'coro.for_each'; run "
                            "coro-resolve-handles before coro-split (it "
                            "splits the generator and lowers the loop)");
        diag.attachNote(parent->getLoc()) << "enclosing op is here";
        return WalkResult::interrupt();
      }
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
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// The frame loads and recomputed ops at the start of the subroutines,
/// which coro-split sinks to their uses once their exits are lowered. A
/// listener of the split's rewriter, so that ops erased in between (folded
/// by the exit lowering's canonicalization, dropped as dead) leave the set
/// before a new op can take their address.
class SinkableOps : public RewriterBase::Listener {
public:
  void insert(Operation *op) { ops.insert(op); }
  void erase(Operation *op) { ops.erase(op); }
  bool contains(Operation *op) const { return ops.contains(op); }

  void notifyOperationErased(Operation *op) override {
    op->walk([&](Operation *nested) { ops.erase(nested); });
  }

private:
  llvm::SmallPtrSet<Operation *, 32> ops;
};

/// Splits one coroutine. Works on a private copy of the coroutine, which is
/// prepared (loops to while, suspension points to checkpoints) and erased at
/// the end; the coroutine itself stays as the mega-kernel reference.
class CoroutineSplitter {
public:
  /// What the split did, for the pass statistics and the coro.split op.
  struct Counts {
    int64_t subroutines = 0, valuesLive = 0, valuesStored = 0,
            valuesRecomputed = 0, opsRecomputed = 0, frameFields = 0,
            opsBefore = 0, opsAfter = 0;
  };

  CoroutineSplitter(FuncOp original, RecomputeAnalysis::Options recompute)
      : original(original), recomputeOptions(recompute),
        rewriter(original.getContext(), &sinkable) {}

  LogicalResult split() {
    if (failed(checkSplittable(original)))
      return failure();
    work = original.clone();
    llvm::scope_exit eraseWork([&] { work->erase(); });
    prepare();
    analysis.emplace(work, nonEmptyLoops);
    recomputation.emplace(work, recomputeOptions);
    auto createScratch = [&](IRMapping &mapping) {
      func::FuncOp scratch = createSubroutineShell("__live_scratch");
      mapArguments(scratch, mapping);
      return scratch;
    };
    if (failed(computeLiveSets(work, checkpoints, names, *analysis,
                               *recomputation, createScratch, naiveValues,
                               rewriter)))
      return failure();
    reduceLiveSets(checkpoints, *recomputation, rewriter);
    LDBG() << "@" << original.getSymName() << ": " << checkpoints.size()
           << " suspension points";
    assignFields();
    SmallVector<func::FuncOp> subroutines;
    for (int32_t token = 0, e = checkpoints.size() + 1; token < e; ++token)
      subroutines.push_back(buildSubroutine(token));
    for (func::FuncOp subroutine : subroutines) {
      lowerExits(subroutine, liveSlotsByToken, fields, rewriter);
      sinkLoadsAndRecomputedValues(subroutine);
      lowerCoroutineOps(subroutine);
      // Drop what the copies left dead (e.g. values only the code before the
      // suspension point used).
      (void)simplifyRegions(rewriter, subroutine->getRegions());
    }
    countOps(subroutines);
    createSplitOp(subroutines);
    return success();
  }

  const Counts &getCounts() const { return counts; }

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
    if (inserted) {
      // A value the source did not name is `v<N>`, with its location.
      if (auto name = dyn_cast<NameLoc>(value.getLoc()))
        appendFields(name.getName().getValue(), value.getType(),
                     /*promise=*/false);
      else
        appendFields("v" + std::to_string(valueSlots.size() - 1),
                     value.getType(), /*promise=*/false,
                     isa<UnknownLoc>(value.getLoc())
                         ? LocationAttr()
                         : LocationAttr(value.getLoc()));
    }
    return it->second;
  }

  void appendFields(StringRef name, Type type, bool promise,
                    LocationAttr location = {}) {
    int64_t count = getNumFrameFields(type);
    Type fieldType = getFrameFieldType(type);
    for (int64_t i = 0; i < count; ++i) {
      std::string fieldName =
          count > 1 ? getFrameFieldLaneName(name, i) : name.str();
      fields.push_back(FrameFieldAttr::get(
          rewriter.getContext(), rewriter.getStringAttr(fieldName), fieldType,
          kFirstFieldWord, 0, promise, location));
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
      sinkable.insert(copy);
      ++counts.opsRecomputed;
      recomputedValues.insert(value);
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
  void markSinkable(Value value) {
    Operation *def = value.getDefiningOp();
    sinkable.insert(def);
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
    SmallVector<Operation *> sinkableOps;
    for (Operation &op : entry)
      if (sinkable.contains(&op))
        sinkableOps.push_back(&op);
    // Users first, so that their operands follow them down.
    for (Operation *op : llvm::reverse(sinkableOps)) {
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
        [&](Operation *op, Region *) { return sinkable.contains(op); },
        [](Operation *op, Region *region) {
          op->moveBefore(&region->front(), region->front().begin());
        });
    function.walk([&](Operation *op) { sinkable.erase(op); });
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

  void countOps(ArrayRef<func::FuncOp> subroutines) {
    auto countNested = [](Operation *function) {
      int64_t count = 0;
      function->walk([&](Operation *) { ++count; });
      return count - 1; // The function itself.
    };
    counts.subroutines = subroutines.size();
    counts.valuesLive = naiveValues.size();
    counts.valuesStored = valueSlots.size();
    counts.valuesRecomputed = llvm::count_if(naiveValues, [&](Value value) {
      return recomputedValues.count(value);
    });
    counts.frameFields = fields.size();
    counts.opsBefore = countNested(original);
    for (func::FuncOp subroutine : subroutines)
      counts.opsAfter += countNested(subroutine);
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
                 "split", rewriter.getI64IntegerAttr(getFrameBytes(fields)))}),
        rewriter.getDictionaryAttr({
            rewriter.getNamedAttr(
                "values_live", rewriter.getI64IntegerAttr(counts.valuesLive)),
            rewriter.getNamedAttr("values_stored", rewriter.getI64IntegerAttr(
                                                       counts.valuesStored)),
            rewriter.getNamedAttr(
                "values_recomputed",
                rewriter.getI64IntegerAttr(counts.valuesRecomputed)),
            rewriter.getNamedAttr("ops_recomputed", rewriter.getI64IntegerAttr(
                                                        counts.opsRecomputed)),
        }));
  }

  FuncOp original;
  RecomputeAnalysis::Options recomputeOptions;
  FuncOp work;
  SinkableOps sinkable;
  IRRewriter rewriter;
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
  /// Values of `work` recomputed in some subroutine (constants and the
  /// links of recomputed chains included).
  llvm::DenseSet<Value> recomputedValues;
  Counts counts;
};

struct CoroSplitPass : coro::impl::CoroSplitBase<CoroSplitPass> {
  using Base::Base;

  /// The coroutines whose frames coro.handle ops drive, anywhere.
  llvm::StringSet<> collectHandleTargets() {
    llvm::StringSet<> targets;
    getOperation().walk([&](Operation *op) {
      if (FlatSymbolRefAttr driven = getDrivenCoroutine(op))
        targets.insert(driven.getValue());
    });
    return targets;
  }

  void runOnOperation() override {
    // Coroutines split already (by hand, or by another tool) keep their
    // split.
    llvm::StringSet<> split = getSplitCoroutines(getOperation());
    llvm::StringSet<> driven = collectHandleTargets();
    SmallVector<FuncOp> coroutines(getOperation().getOps<FuncOp>());
    for (FuncOp coroutine : coroutines) {
      bool isDriven = driven.contains(coroutine.getSymName());
      if (split.contains(coroutine.getSymName()))
        continue;
      // A driven coroutine that drives frames itself waits until those
      // handles are lowered (coro-resolve-handles: innermost first), so that
      // they are local arrays that may live across its suspension points.
      if (handleTargetsOnly && (!isDriven || findFrameDriver(coroutine)))
        continue;
      // Code that drives a frame may write a buffer between two of its
      // resumptions: a load is redone after a suspension point only where
      // nothing else runs in between.
      CoroutineSplitter splitter(coroutine,
                                 {maxRecomputedOps, deferLoads && !isDriven});
      if (failed(splitter.split()))
        return signalPassFailure();
      const CoroutineSplitter::Counts &counts = splitter.getCounts();
      ++numCoroutines;
      numSubroutines += counts.subroutines;
      numValuesLive += counts.valuesLive;
      numValuesStored += counts.valuesStored;
      numValuesRecomputed += counts.valuesRecomputed;
      numFrameFields += counts.frameFields;
      numOpsBefore += counts.opsBefore;
      numOpsAfter += counts.opsAfter;
    }
  }
};

} // namespace

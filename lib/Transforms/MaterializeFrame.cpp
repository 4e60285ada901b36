//===- MaterializeFrame.cpp - shrink and pack coroutine frames ------------===//
//
// Part of the CoroGPU project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Frame materialization (paper App. C.3): field-level liveness removes the
// loads and stores a subroutine does not need and the fields nobody needs;
// the layout then lets fields that are never live together share storage
// and packs narrow fields into words.
//
//===----------------------------------------------------------------------===//

#include "CoroGPU/Analysis/FrameLayout.h"
#include "CoroGPU/Analysis/FrameLiveness.h"
#include "CoroGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseMap.h"

#include "llvm/Support/DebugLog.h"
#include <limits>

namespace mlir {
namespace coro {
#define GEN_PASS_DEF_COROMATERIALIZEFRAME
#include "CoroGPU/Transforms/Passes.h.inc"
} // namespace coro
} // namespace mlir

#define DEBUG_TYPE "coro-materialize-frame"

using namespace mlir;
using namespace mlir::coro;

/// Whether `store` is the only store of its field in its subroutine that
/// does not end the subroutine (a store followed by a set_target in its
/// block leaves, so it cannot run before another one).
static bool isOnlyStoreOnItsPath(FrameStoreOp store,
                                 ArrayRef<FrameStoreOp> stores) {
  return llvm::all_of(stores, [&](FrameStoreOp other) {
    return other == store || other.getSlot() != store.getSlot() ||
           FrameLiveness::getExitAfter(other);
  });
}

/// Erases the stores that write back, unchanged, the value the subroutine
/// loaded from the same field before any store to it: the field keeps it
/// anyway, and without the store it simply flows through the subroutine.
/// The load may be anywhere (sinkToUses moves loads into branches): every
/// other store of the field ends the subroutine, so none runs before it on
/// a path that goes on.
static bool removeWriteBacks(func::FuncOp subroutine) {
  SmallVector<FrameStoreOp> stores;
  subroutine.walk([&](FrameStoreOp store) { stores.push_back(store); });
  DominanceInfo dominance(subroutine);
  SmallVector<FrameStoreOp> writeBacks;
  for (FrameStoreOp store : stores) {
    auto load = store.getValue().getDefiningOp<FrameLoadOp>();
    if (!load || load.getSlot() != store.getSlot() ||
        !isOnlyStoreOnItsPath(store, stores))
      continue;
    if (llvm::any_of(stores, [&](FrameStoreOp other) {
          return other.getSlot() == load.getSlot() &&
                 dominance.properlyDominates(other.getOperation(),
                                             load.getOperation());
        }))
      continue;
    writeBacks.push_back(store);
  }
  for (FrameStoreOp store : writeBacks)
    store.erase();
  return !writeBacks.empty();
}

/// Whether `region` runs at most once each time its parent op does, so that
/// an op moved into it from the parent's block runs at most as often as
/// before: a branch of an scf.if or scf.index_switch, not a loop body.
static bool runsAtMostOnce(Region *region) {
  return isa<scf::IfOp, scf::IndexSwitchOp>(region->getParentOp()) &&
         region->hasOneBlock();
}

/// Whether an op between `op` and `before` (in op's block or in a block
/// nested there), nested ops included, satisfies `blocks`: what moving `op`
/// to just before `before` would take it past.
static bool wouldPass(Operation *op, Operation *before,
                      function_ref<bool(Operation *)> blocks) {
  auto anyNested = [&](Operation *outer) {
    return outer
        ->walk([&](Operation *nested) {
          return blocks(nested) ? WalkResult::interrupt()
                                : WalkResult::advance();
        })
        .wasInterrupted();
  };
  Block *home = op->getBlock();
  for (Operation *stop = before;; stop = stop->getBlock()->getParentOp()) {
    Block *block = stop->getBlock();
    Operation *passed = block == home ? op->getNextNode() : &block->front();
    for (; passed != stop; passed = passed->getNextNode())
      if (anyNested(passed))
        return true;
    if (block == home)
      return false;
  }
}

/// Whether moving `load` to just before `before` takes it past a store to
/// storage its field shares. Stores that end the subroutine need not stand
/// at its end: storeEarly moves them up, and a later run of this pass finds
/// them there.
static bool wouldPassStore(FrameLoadOp load, Operation *before,
                           ArrayRef<FrameFieldAttr> fields) {
  FrameFieldAttr loaded = fields[load.getSlot()];
  return wouldPass(load, before, [&](Operation *op) {
    auto store = dyn_cast<FrameStoreOp>(op);
    return store && fields[store.getSlot()].overlaps(loaded);
  });
}

/// Whether `op` may write memory a `memref.load` reads: frame accesses do
/// not (the frame is no memref), nor ops without write effects; an op that
/// says nothing of its effects may.
static bool mayWriteMemRefs(Operation *op) {
  if (isa<FrameLoadOp, FrameStoreOp>(op))
    return false;
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op))
    return effects.hasEffect<MemoryEffects::Write>();
  return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
}

/// Moves each frame load, buffer load (`memref.load`) and side-effect-free
/// op computed from what it can move, down to the deepest block that holds
/// all its users, entering only branches (runsAtMostOnce), and there to just
/// before the first op that uses it; users first, so that chains move
/// together. Once write-backs are gone, a value used only by the code after
/// one branch of a test no longer needs a register through the other branch
/// (the BVH path tracer's `intersect`: the path state after the traversal
/// loop, and `surface`: a direction only two of its three material branches
/// read). Upstream's control-flow sinking enters only regions that use the
/// op directly, and leaves loads where they are. A frame load moves only if
/// every store of its storage in the subroutine ends it
/// (FrameLiveness::getExitAfter) and none stands between its old and new
/// place (wouldPassStore): no store then runs between the two on a path that
/// goes on to use it. Fields that share storage count as one (the pass runs
/// again once the layout removed copies in place). A buffer load moves only
/// past ops that write no memref (mayWriteMemRefs): the path tracer's
/// `entry` read its 13 camera words before the test that uses them (ptxas
/// sm_90: 48 registers, 32 once they move).
static void sinkToUses(func::FuncOp subroutine,
                       ArrayRef<FrameFieldAttr> fields) {
  SmallVector<FrameFieldAttr> storedMidway;
  SmallVector<Operation *> ops;
  subroutine.walk([&](Operation *op) {
    if (auto store = dyn_cast<FrameStoreOp>(op);
        store && !FrameLiveness::getExitAfter(store))
      storedMidway.push_back(fields[store.getSlot()]);
    ops.push_back(op);
  });
  auto canMove = [&](Operation *op) {
    // Constants stay where canonicalization puts them.
    if (op->getNumRegions() || op->getNumResults() == 0 ||
        op->hasTrait<OpTrait::IsTerminator>() ||
        op->hasTrait<OpTrait::ConstantLike>())
      return false;
    if (auto load = dyn_cast<FrameLoadOp>(op)) {
      FrameFieldAttr loaded = fields[load.getSlot()];
      return !loaded.getPromise() &&
             llvm::none_of(storedMidway, [&](FrameFieldAttr stored) {
               return stored.overlaps(loaded);
             });
    }
    // A buffer load moves where no write passes it (below).
    return isa<memref::LoadOp>(op) || isMemoryEffectFree(op);
  };
  for (Operation *op : llvm::reverse(ops)) {
    if (op->use_empty() || !canMove(op))
      continue;
    // The blocks from op's down to the deepest one that holds every user.
    Block *home = op->getBlock();
    SmallVector<Block *> path;
    bool first = true;
    for (Operation *user : op->getUsers()) {
      SmallVector<Block *> chain;
      for (Block *block = user->getBlock(); block != home;
           block = block->getParentOp()->getBlock())
        chain.push_back(block);
      std::reverse(chain.begin(), chain.end());
      if (first) {
        path = std::move(chain);
        first = false;
        continue;
      }
      size_t common = 0;
      while (common < path.size() && common < chain.size() &&
             path[common] == chain[common])
        ++common;
      path.resize(common);
    }
    Block *target = home;
    for (Block *block : path) {
      if (!runsAtMostOnce(block->getParent()))
        break;
      target = block;
    }
    // Just before the first op of `target` that holds a user.
    Operation *before = nullptr;
    for (Operation *user : op->getUsers()) {
      Operation *holder = target->findAncestorOpInBlock(*user);
      if (!before || holder->isBeforeInBlock(before))
        before = holder;
    }
    if (before == op || (target == home && op->getNextNode() == before))
      continue;
    if (auto load = dyn_cast<FrameLoadOp>(op);
        load && wouldPassStore(load, before, fields))
      continue;
    if (isa<memref::LoadOp>(op) && wouldPass(op, before, mayWriteMemRefs))
      continue;
    op->moveBefore(before);
  }
}

/// Rewrites each use of `arith.select %c, %a, %b` that lies in a branch of
/// an `scf.if %c` to %a (then) or %b (else): the condition is known there.
/// The split leaves such selects where a branch suspended (its result a
/// placeholder there) and the code after it moved into the other branch;
/// without them, a value the subroutine only passes on is a computed value,
/// not a copy of a field the layout can put in the same place.
static void forwardSelectsInBranches(func::FuncOp subroutine) {
  subroutine.walk([&](arith::SelectOp select) {
    Value condition = select.getCondition();
    if (!condition.getType().isInteger(1))
      return;
    for (OpOperand &use : llvm::make_early_inc_range(select->getUses())) {
      Operation *inner = use.getOwner();
      for (Operation *parent = inner->getParentOp(); parent;
           inner = parent, parent = parent->getParentOp()) {
        auto ifOp = dyn_cast<scf::IfOp>(parent);
        if (!ifOp || ifOp.getCondition() != condition)
          continue;
        bool inThen = inner->getParentRegion() == &ifOp.getThenRegion();
        use.set(inThen ? select.getTrueValue() : select.getFalseValue());
        break;
      }
    }
  });
}

/// Once fields share storage, erases the stores that copy a field into
/// another that the layout put in the same place (`store(g, load(f))`, f and
/// g of one type at the same word and bit): the storage holds that value
/// already, as no store to it runs before one that ends the subroutine.
/// The loads left without a use go too.
static void removeCopiesInPlace(ArrayRef<FrameFieldAttr> fields,
                                ArrayRef<func::FuncOp> subroutines) {
  for (func::FuncOp subroutine : subroutines) {
    SmallVector<FrameStoreOp> stores, copies;
    subroutine.walk([&](FrameStoreOp store) { stores.push_back(store); });
    for (FrameStoreOp store : stores) {
      auto load = store.getValue().getDefiningOp<FrameLoadOp>();
      if (!load || load.getSlot() == store.getSlot() ||
          !FrameLiveness::getExitAfter(store))
        continue;
      FrameFieldAttr from = fields[load.getSlot()];
      FrameFieldAttr to = fields[store.getSlot()];
      if (from.getType() != to.getType() || from.getWord() != to.getWord() ||
          from.getBit() != to.getBit() || to.getPromise())
        continue;
      // Every store to the place ends the subroutine.
      if (llvm::any_of(stores, [&](FrameStoreOp other) {
            return !FrameLiveness::getExitAfter(other) &&
                   fields[other.getSlot()].overlaps(to);
          }))
        continue;
      copies.push_back(store);
    }
    for (FrameStoreOp store : copies) {
      auto load = store.getValue().getDefiningOp<FrameLoadOp>();
      store.erase();
      if (load->use_empty())
        load.erase();
    }
  }
}

/// Whether a frame store of `stored` must stay after `op`: `op` (or an op
/// nested in it) reads or writes storage the field shares, or uses the frame
/// otherwise. Only frame ops reach a frame, so no other op orders a store.
static bool mustStoreAfter(Operation *op, FrameFieldAttr stored, Value frame,
                           ArrayRef<FrameFieldAttr> fields) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (isa<FrameIdOp, FrameSetTargetOp>(nested))
      return WalkResult::advance();
    bool conflicts = false;
    if (auto load = dyn_cast<FrameLoadOp>(nested))
      conflicts = fields[load.getSlot()].overlaps(stored);
    else if (auto store = dyn_cast<FrameStoreOp>(nested))
      conflicts = fields[store.getSlot()].overlaps(stored);
    else
      conflicts = llvm::is_contained(nested->getOperands(), frame);
    return conflicts ? WalkResult::interrupt() : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The last op before `store` in its block that it must stay after:
/// `definer`, or one that mustStoreAfter names; null if it may go first.
static Operation *getLastOrderingOp(FrameStoreOp store, Operation *definer,
                                    Value frame,
                                    ArrayRef<FrameFieldAttr> fields) {
  FrameFieldAttr stored = fields[store.getSlot()];
  for (Operation *op = store->getPrevNode(); op; op = op->getPrevNode())
    if (op == definer || mustStoreAfter(op, stored, frame, fields))
      return op;
  return nullptr;
}

/// Whether `value` is defined before `op`, outside its regions.
static bool isDefinedBefore(Value value, Operation *op) {
  return value.getParentRegion()->isAncestor(op->getParentRegion());
}

/// The side-effect-free op in `store`'s block that makes the value it
/// writes from values defined before `ifOp` (often an extraction from a
/// vector), or null.
static Operation *getDefinerInBranch(FrameStoreOp store, scf::IfOp ifOp) {
  Operation *definer = store.getValue().getDefiningOp();
  if (!definer || definer->getBlock() != store->getBlock() ||
      definer->getNumRegions() || !isMemoryEffectFree(definer) ||
      !llvm::all_of(definer->getOperands(), [&](Value operand) {
        return isDefinedBefore(operand, ifOp);
      }))
    return nullptr;
  return definer;
}

/// Stores of one value into one field in both branches of an `scf.if`
/// become one store before it, where neither branch orders it after
/// something (inner ifs first, so that stores rise through nested tests).
/// A value made in each branch by the same side-effect-free op from values
/// defined before the test (coro-split extracts a vector's lanes at each
/// suspension) is made once before it. coro-split saves the live state at
/// each suspension, so a test between suspensions stores the state they
/// share in each branch (the BVH path tracer's `intersect`: 9 words towards
/// both `light` and `surface`); once before the test, storeEarly can move
/// them up, and the code is smaller (benchmarks/RESULTS.md, "Design
/// measurements").
static void hoistStoresOutOfBranches(func::FuncOp subroutine,
                                     ArrayRef<FrameFieldAttr> fields) {
  Value frame = subroutine.getArgument(0);
  // Whether no op before `store` in its branch must run before it.
  auto isFirstInBranch = [&](FrameStoreOp store) {
    return !getLastOrderingOp(store, /*definer=*/nullptr, frame, fields);
  };
  // Whether `a` and `b` store the same value, or values that `definer` and
  // an equivalent op make (the same result of each).
  auto storeSameValue = [](FrameStoreOp a, FrameStoreOp b, Operation *definer,
                           scf::IfOp ifOp) {
    if (!definer)
      return a.getValue() == b.getValue();
    Operation *other = getDefinerInBranch(b, ifOp);
    return other &&
           cast<OpResult>(a.getValue()).getResultNumber() ==
               cast<OpResult>(b.getValue()).getResultNumber() &&
           OperationEquivalence::isEquivalentTo(
               definer, other, OperationEquivalence::IgnoreLocations);
  };
  subroutine.walk([&](scf::IfOp ifOp) {
    if (ifOp.getElseRegion().empty())
      return;
    SmallVector<FrameStoreOp> thenStores(
        ifOp.thenBlock()->getOps<FrameStoreOp>());
    for (FrameStoreOp store : thenStores) {
      Operation *definer = nullptr;
      if (!isDefinedBefore(store.getValue(), ifOp)) {
        definer = getDefinerInBranch(store, ifOp);
        if (!definer)
          continue;
      }
      auto twins = llvm::make_filter_range(
          ifOp.elseBlock()->getOps<FrameStoreOp>(), [&](FrameStoreOp other) {
            return other.getSlot() == store.getSlot() &&
                   storeSameValue(store, other, definer, ifOp);
          });
      if (twins.empty())
        continue;
      FrameStoreOp twin = *twins.begin();
      if (!isFirstInBranch(store) || !isFirstInBranch(twin))
        continue;
      if (definer) {
        // Free of memory effects and made from values defined before the
        // test: nothing orders the defining op in its branch either.
        Operation *twinDefiner = twin.getValue().getDefiningOp();
        definer->moveBefore(ifOp);
        twin.getValueMutable().assign(store.getValue());
        if (twinDefiner->use_empty())
          twinDefiner->erase();
      }
      store->moveBefore(ifOp);
      twin.erase();
    }
  });
}

/// Moves each frame store up its block to just after the op it must follow
/// (getLastOrderingOp: the one that makes its value, or one that orders it). A
/// store left at the end of a subroutine, where coro-split puts it, keeps its
/// value in a register through the code before, as the targets keep the order
/// of stores and loads they cannot tell apart: the BVH path tracer's automatic
/// split took 84 registers in `surface` and 72 in `miss` (ptxas sm_90), 70 and
/// 56 with its stores early (`entry`: 40 -> 48, still below the hand split's
/// 50).
static void storeEarly(func::FuncOp subroutine,
                       ArrayRef<FrameFieldAttr> fields) {
  Value frame = subroutine.getArgument(0);
  SmallVector<FrameStoreOp> stores;
  subroutine.walk([&](FrameStoreOp store) { stores.push_back(store); });
  // Last first, so that stores that rise to one place keep their order.
  for (FrameStoreOp store : llvm::reverse(stores)) {
    Operation *definer = store.getValue().getDefiningOp();
    if (definer)
      definer = store->getBlock()->findAncestorOpInBlock(*definer);
    Operation *after = getLastOrderingOp(store, definer, frame, fields);
    if (after == store->getPrevNode())
      continue;
    if (after)
      store->moveAfter(after);
    else
      store->moveBefore(&store->getBlock()->front());
  }
}

/// Erases the stores of fields that are dead at every exit they reach.
static bool removeDeadStores(SplitOp split, ArrayRef<func::FuncOp> subroutines,
                             const FrameLiveness &liveness) {
  SmallVector<FrameFieldAttr> fields = split.getFrameFields();
  bool changed = false;
  for (func::FuncOp subroutine : subroutines) {
    SmallVector<FrameStoreOp> dead;
    subroutine.walk([&](FrameStoreOp store) {
      if (fields[store.getSlot()].getPromise())
        return;
      if (llvm::none_of(FrameLiveness::getReachedExits(store),
                        [&](int32_t exit) {
                          return liveness.getLiveIn(exit).test(store.getSlot());
                        }))
        dead.push_back(store);
    });
    for (FrameStoreOp store : dead)
      store.erase();
    changed |= !dead.empty();
  }
  return changed;
}

/// Drops the fields no subroutine loads or stores (promises stay) and
/// renumbers the others in the ops that access them.
static SmallVector<FrameFieldAttr>
dropUnusedFields(SplitOp split, ArrayRef<func::FuncOp> subroutines) {
  SmallVector<FrameFieldAttr> fields = split.getFrameFields();
  llvm::BitVector used(fields.size());
  for (auto [index, field] : llvm::enumerate(fields))
    if (field.getPromise())
      used.set(index);
  for (func::FuncOp subroutine : subroutines) {
    subroutine.walk([&](FrameLoadOp load) { used.set(load.getSlot()); });
    subroutine.walk([&](FrameStoreOp store) { used.set(store.getSlot()); });
  }
  SmallVector<int64_t> renumbered(fields.size(), -1);
  SmallVector<FrameFieldAttr> kept;
  for (unsigned index : used.set_bits()) {
    renumbered[index] = kept.size();
    kept.push_back(fields[index]);
  }
  for (func::FuncOp subroutine : subroutines) {
    subroutine.walk(
        [&](FrameLoadOp load) { load.setSlot(renumbered[load.getSlot()]); });
    subroutine.walk([&](FrameStoreOp store) {
      store.setSlot(renumbered[store.getSlot()]);
    });
  }
  return kept;
}

static void setFields(SplitOp split, ArrayRef<FrameFieldAttr> fields) {
  split.setFieldsAttr(ArrayAttr::get(
      split.getContext(),
      llvm::map_to_vector(fields,
                          [](FrameFieldAttr f) -> Attribute { return f; })));
}

/// Puts each run of operand-less allocas in `function` in the order of
/// their first uses. Upstream SROA creates the allocas of a destructured
/// local array in the iteration order of a pointer set of the indices used,
/// which changes from run to run; without this the output (and the
/// kernels) differed between runs of the same command.
static void orderAllocasByFirstUse(func::FuncOp function) {
  llvm::DenseMap<Operation *, unsigned> position;
  function.walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position.try_emplace(op, position.size()); });
  auto firstUse = [&](memref::AllocaOp alloca) {
    unsigned first = std::numeric_limits<unsigned>::max();
    for (Operation *user : alloca->getUsers())
      first = std::min(first, position.lookup(user));
    return first;
  };
  function.walk([&](Block *block) {
    SmallVector<memref::AllocaOp> run;
    auto flush = [&] {
      if (run.size() > 1) {
        Operation *after = run.back()->getNextNode();
        SmallVector<memref::AllocaOp> sorted = run;
        llvm::stable_sort(sorted, [&](memref::AllocaOp a, memref::AllocaOp b) {
          return firstUse(a) < firstUse(b);
        });
        for (memref::AllocaOp alloca : sorted)
          alloca->moveBefore(block,
                             after ? after->getIterator() : block->end());
      }
      run.clear();
    };
    for (Operation &op : *block) {
      auto alloca = dyn_cast<memref::AllocaOp>(op);
      if (alloca && alloca->getNumOperands() == 0)
        run.push_back(alloca);
      else
        flush();
    }
    flush();
  });
}

namespace {

struct CoroMaterializeFramePass
    : coro::impl::CoroMaterializeFrameBase<CoroMaterializeFramePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<SplitOp> splits(module.getOps<SplitOp>());
    for (SplitOp split : splits) {
      // Materialized already (coro-resolve-handles materializes the
      // coroutines that handles drive, the pipeline every split): its fields
      // may share storage, and a field a removed copy left to flow through
      // the storage of another would look dead to a second run.
      if (DictionaryAttr bytes = split.getFrameBytesAttr();
          bytes && bytes.get("field_liveness"))
        continue;
      FailureOr<SmallVector<func::FuncOp>> subroutines =
          split.lookupSubroutines(symbols);
      if (failed(subroutines) || failed(materialize(split, *subroutines)))
        return signalPassFailure();
    }
  }

  LogicalResult simplify(func::FuncOp subroutine) {
    forwardSelectsInBranches(subroutine);
    OpPassManager destructure(func::FuncOp::getOperationName());
    destructure.addPass(createSROA());
    if (failed(runPipeline(destructure, subroutine)))
      return failure();
    orderAllocasByFirstUse(subroutine);
    OpPassManager pipeline(func::FuncOp::getOperationName());
    pipeline.addPass(createMem2Reg());
    pipeline.addPass(createControlFlowSinkPass());
    pipeline.addPass(createCanonicalizerPass());
    pipeline.addPass(createCSEPass());
    return runPipeline(pipeline, subroutine);
  }

  LogicalResult materialize(SplitOp split, ArrayRef<func::FuncOp> subroutines) {
    int64_t fieldsBefore = split.getFields().size();
    int64_t bytesBefore = getFrameBytes(split.getFrameFields());
    // Simplify, drop write-backs and dead stores, until nothing changes:
    // a removed store may leave a load unused, which shrinks the liveness.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<FrameFieldAttr> fields = split.getFrameFields();
      for (func::FuncOp subroutine : subroutines) {
        if (failed(simplify(subroutine)))
          return failure();
        changed |= removeWriteBacks(subroutine);
        // Not a change that could let more stores go: the loop ends.
        sinkToUses(subroutine, fields);
      }
      changed |= removeDeadStores(split, subroutines,
                                  FrameLiveness(split, subroutines));
    }
    SmallVector<FrameFieldAttr> fields =
        layOutUnpacked(dropUnusedFields(split, subroutines));
    LDBG() << "@" << split.getCoroutine() << ": " << fields.size()
           << " fields after dead-store elimination ("
           << split.getFrameFields().size() << " before)";
    setFields(split, fields);

    FrameInterference interference =
        FrameInterference::fromLiveness(FrameLiveness(split, subroutines));
    SmallVector<FrameFieldAttr> shared =
        layOutFrame(fields, interference, {shareStorage, /*packBits=*/false});
    SmallVector<FrameFieldAttr> packed =
        layOutFrame(fields, interference, {shareStorage, /*packBits=*/true});
    setFields(split, packBits ? packed : shared);
    removeCopiesInPlace(split.getFrameFields(), subroutines);
    for (func::FuncOp subroutine : subroutines) {
      // A load whose copies went may now have its users in one branch.
      sinkToUses(subroutine, split.getFrameFields());
      hoistStoresOutOfBranches(subroutine, split.getFrameFields());
      storeEarly(subroutine, split.getFrameFields());
    }

    Builder builder(split.getContext());
    NamedAttrList sizes;
    if (DictionaryAttr previous = split.getFrameBytesAttr())
      sizes.append(previous.getValue());
    sizes.set("field_liveness",
              builder.getI64IntegerAttr(getFrameBytes(fields)));
    if (shareStorage)
      sizes.set("slot_sharing",
                builder.getI64IntegerAttr(getFrameBytes(shared)));
    if (packBits)
      sizes.set("bit_packing",
                builder.getI64IntegerAttr(getFrameBytes(packed)));
    split.setFrameBytesAttr(sizes.getDictionary(split.getContext()));
    numFieldsDropped += fieldsBefore - static_cast<int64_t>(fields.size());
    numFrameFields += fields.size();
    numBytesSaved += bytesBefore - getFrameBytes(split.getFrameFields());
    return success();
  }
};

} // namespace

//===- MaterializeFrame.cpp - shrink and pack coroutine frames ------------===//
//
// Part of the CoroGPU project.
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

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
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
/// loaded from the same field on entry: the field keeps it anyway, and
/// without the store it simply flows through the subroutine.
static bool removeWriteBacks(func::FuncOp subroutine) {
  SmallVector<FrameStoreOp> stores;
  subroutine.walk([&](FrameStoreOp store) { stores.push_back(store); });
  DominanceInfo dominance(subroutine);
  Block &entry = subroutine.getBody().front();
  SmallVector<FrameStoreOp> writeBacks;
  for (FrameStoreOp store : stores) {
    auto load = store.getValue().getDefiningOp<FrameLoadOp>();
    if (!load || load.getSlot() != store.getSlot() ||
        load->getBlock() != &entry || !isOnlyStoreOnItsPath(store, stores))
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
      FailureOr<SmallVector<func::FuncOp>> subroutines =
          split.lookupSubroutines(symbols);
      if (failed(subroutines) || failed(materialize(split, *subroutines)))
        return signalPassFailure();
    }
  }

  LogicalResult simplify(func::FuncOp subroutine) {
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
      for (func::FuncOp subroutine : subroutines) {
        if (failed(simplify(subroutine)))
          return failure();
        changed |= removeWriteBacks(subroutine);
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
